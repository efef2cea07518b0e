package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.Layout;
import dev.tegula.ffm.internal.BulkCopier;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The bulk methods with module ffm alone (no relayout engine: the documented element walk), their
 * offset forms and range errors, {@link Array#asByteBuffer()}, {@link Array#toRowMajor} and the one
 * message for a closed arena. With the engine, {@code ArrayBulkEngineTest} in module vector checks
 * every bulk method against the element accessors.
 */
class ArrayBulkTest {

    /** Element (i, j) of an m×n array holds i·n + j + 0.5: its row-major position, visible after any relayout. */
    private static Array counting(Arena arena, String text) {
        Array a = Array.allocate(arena, shape(text));
        long[] d = a.shape().dimensions();
        for (long i = 0; i < d[0]; i++) {
            for (long j = 0; j < d[1]; j++) {
                a.setFloat(i, j, i * d[1] + j + 0.5f);
            }
        }
        return a;
    }

    private static float[] counting(int n) {
        float[] v = new float[n];
        for (int k = 0; k < n; k++) {
            v[k] = k + 0.5f;
        }
        return v;
    }

    @Test
    void withoutModuleVectorNoEngineIsInstalled() {
        assertNull(BulkCopier.installed());
    }

    @Test
    void toFloatArrayAtAnOffsetFillsOnlyItsRangeOnEveryLayout() {
        try (Arena arena = Arena.ofConfined()) {
            for (String text : List.of("f32[5,7]{1,0}", "f32[5,7]{0,1}", "f32[5,7]{1,0:T(2,4)}", "bf16[5,7]{0,1}")) {
                Array a = counting(arena, text);
                float[] dst = new float[40];
                java.util.Arrays.fill(dst, -1f);
                a.toFloatArray(dst, 2);
                float[] expected = new float[40];
                java.util.Arrays.fill(expected, -1f);
                System.arraycopy(counting(35), 0, expected, 2, 35);
                assertArrayEquals(expected, dst, text);
                assertArrayEquals(counting(35), a.toFloatArray(), text);
            }
        }
    }

    @Test
    void copyFromAnOffsetReadsOnlyItsRangeOnEveryLayout() {
        try (Arena arena = Arena.ofConfined()) {
            for (String text : List.of("f32[5,7]{1,0}", "f32[5,7]{0,1}", "f32[5,7]{1,0:T(2,4)}", "f64[5,7]{0,1}")) {
                Array a = Array.allocate(arena, shape(text));
                float[] src = new float[40];
                System.arraycopy(counting(35), 0, src, 4, 35);
                a.copyFrom(src, 4);
                assertTrue(a.contentEquals(counting(arena, text)), text);
            }
        }
    }

    @Test
    void integerOffsetFormsOnAView() {
        try (Arena arena = Arena.ofConfined()) {
            Array parent = Array.allocate(arena, shape("s16[6,8]{1,0}"));
            Array view = parent.permute(1, 0).slice(0, 1, 7, 2);       // [3,6], strided
            short[] src = {9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 9};
            view.copyFrom(src, 2);
            assertEquals(1, view.getLong(0, 0));
            assertEquals(18, view.getLong(2, 5));
            assertEquals(1, parent.getLong(0, 1));                   // view (0,0) is parent (0,1)
            assertEquals(0, parent.getLong(0, 0));
            long[] out = new long[19];
            view.toLongArray(out, 1);
            assertEquals(0, out[0]);
            assertEquals(1, out[1]);
            assertEquals(18, out[18]);
        }
    }

    @Test
    void offsetAndLengthErrorsNameTheValues() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("f32[3,4]{0,1}"));
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> a.toFloatArray(new float[14], 3));
            assertEquals("dst: offset 3 and the 12 elements of f32[3,4] do not fit dst.length 14", e.getMessage());
            e = assertThrows(IndexOutOfBoundsException.class, () -> a.copyFrom(new double[20], -1));
            assertTrue(e.getMessage().startsWith("src: offset -1 and the 12 elements"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> a.toByteArray(new byte[12], 13));
            assertThrows(IndexOutOfBoundsException.class, () -> a.toBooleanArray(new boolean[12], Integer.MAX_VALUE));
            a.toIntArray(new int[12], 0);                                // exactly fits
            a.toIntArray(new int[12], 12 - 12);
            IllegalArgumentException l = assertThrows(IllegalArgumentException.class, () -> a.copyFrom(new long[11]));
            assertTrue(l.getMessage().contains("11 values for f32[3,4]"), l.getMessage());
            assertThrows(NullPointerException.class, () -> a.toFloatArray(null, 0));
            Array ro = Array.wrap(a.segment().asReadOnly(), a.shape());
            assertThrows(UnsupportedOperationException.class, () -> ro.copyFrom(new float[12], 0));
        }
    }

    @Test
    void emptyArraysCopyNothingAtAnyOffsetUpToTheLength() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("f32[0,5]{0,1}"));
            a.toFloatArray(new float[2], 2);
            a.copyFrom(new float[0], 0);
            assertThrows(IndexOutOfBoundsException.class, () -> a.toFloatArray(new float[2], 3));
        }
    }

    @Test
    void asByteBufferIsTheRowMajorBytesInNativeOrder() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = counting(arena, "f32[4,6]{1,0}");
            ByteBuffer b = a.asByteBuffer();
            assertEquals(ByteOrder.nativeOrder(), b.order());
            assertEquals(96, b.capacity());
            assertEquals(2 * 6 + 3 + 0.5f, b.getFloat((2 * 6 + 3) * 4));
            b.putFloat(0, 42f);                                           // writes reach the array
            assertEquals(42f, a.getFloat(0, 0));
            ByteBuffer rows = a.slice(0, 1, 3).asByteBuffer();              // a contiguous view: rows 1 and 2
            assertEquals(48, rows.capacity());
            assertEquals(6 + 0.5f, rows.getFloat(0));
            ByteBuffer ro = Array.wrap(a.segment().asReadOnly(), a.shape()).asByteBuffer();
            assertTrue(ro.isReadOnly());
            assertEquals(ByteOrder.nativeOrder(), ro.order());
            assertThrows(ReadOnlyBufferException.class, () -> ro.putFloat(0, 1f));
            assertEquals(0, Array.allocate(arena, shape("f32[0,3]")).asByteBuffer().capacity());
        }
    }

    @Test
    void asByteBufferRefusesOtherLayoutsNamingRelayoutTo() {
        try (Arena arena = Arena.ofConfined()) {
            Array parent = Array.allocate(arena, shape("f32[4,6]{1,0}"));
            for (Array a : List.of(Array.allocate(arena, shape("f32[4,6]{0,1}")),
                    Array.allocate(arena, shape("f32[20,300]{1,0:T(8,128)}")),
                    Array.allocate(arena, shape("f32[2,4]{1,0:T(2,4)}")),      // one whole tile: tiled all the same
                    Array.allocate(arena, shape("s4[4,6]{1,0:E(4)}")),
                    Array.allocate(arena, shape("f32[2,3]{1,0:PAD(3,5:zero)}")),
                    parent.slice(1, 0, 6, 2), parent.slice(1, 1, 4))) {
                IllegalStateException e = assertThrows(IllegalStateException.class, a::asByteBuffer);
                assertTrue(e.getMessage().contains("Relayout.to(array, Layout.rowMajor(2), arena)"), e.getMessage());
                assertTrue(e.getMessage().contains(a.shape().toString()), e.getMessage());
            }
        }
    }

    @Test
    void toRowMajorReturnsThisOrARowMajorCopy() {
        try (Arena arena = Arena.ofConfined()) {
            Array rm = counting(arena, "f32[5,7]{1,0}");
            assertSame(rm, rm.toRowMajor(arena));
            for (String text : List.of("f32[5,7]{0,1}", "f32[5,7]{1,0:T(2,4)}", "bf16[5,7]{0,1:T(2,2)(2,1)}")) {
                Array a = counting(arena, text);
                Array copy = a.toRowMajor(arena);
                assertNotSame(a, copy);
                assertTrue(copy.isDenseIn(Layout.rowMajor(2)), text);
                assertTrue(a.contentEquals(copy), text);
                assertEquals(a.shape().elementType(), copy.shape().elementType());
                assertEquals(copy.asByteBuffer().capacity(), 35L * a.shape().elementType().byteWidth());
            }
            Array view = counting(arena, "f32[5,7]{1,0}").slice(1, 1, 6);
            Array copy = view.toRowMajor(arena);
            assertNotSame(view, copy);
            assertTrue(view.contentEquals(copy));
            assertFalse(view.isDense());
        }
    }

    @Test
    void aClosedArenaGivesOneMessageOnEveryPath() {
        Arena arena = Arena.ofConfined();
        Array rm = Array.allocate(arena, shape("f32[3,5]{1,0}"));
        Array cm = Array.allocate(arena, shape("f32[3,5]{0,1}"));
        arena.close();
        List<Executable> paths = List.of(() -> rm.getFloat(1, 1), () -> cm.getFloat(1, 1), rm::toFloatArray,
                cm::toFloatArray, () -> cm.toFloatArray(new float[15], 0), () -> cm.copyFrom(new float[15]),
                () -> rm.copyFrom(new double[15], 0), rm::asByteBuffer, () -> cm.toRowMajor(Arena.ofAuto()),
                () -> cm.fill(1.0));
        for (Executable p : paths) {
            IllegalStateException e = assertThrows(IllegalStateException.class, p);
            assertTrue(e.getMessage().startsWith("Already closed"), e.getMessage());
        }
    }
}
