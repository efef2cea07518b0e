package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.forEachIndex;
import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** slice, select, permute and reshape: no copies, element agreement with the parent, the tiled rules. */
class ArrayViewsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    /** An array whose element at index i holds the row-major ordinal of i. */
    private Array numbered(String text) {
        Array a = Array.allocate(arena, shape(text));
        double[] v = new double[(int) a.shape().elementCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 200;
        }
        a.copyFrom(v);
        return a;
    }

    /** Every element of {@code view} equals the parent's element at {@code toParent(index)}. */
    private static void assertViewOf(Array parent, Array view, UnaryOperator<long[]> toParent) {
        forEachIndex(view.shape().dimensions(), (o, idx) ->
                assertEquals(parent.getDouble(toParent.apply(idx)), view.getDouble(idx)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32[4,6,5]{2,1,0}", "f32[4,6,5]{0,1,2}", "f32[4,6,5]{1,0,2}", "s4[4,6,5]{2,1,0:E(4)}",
            "f32[4,6,5]{2,1,0:PAD(5,7,8:zero)}"})
    void untiledViewsAreStridedAndAgreeWithTheParent(String text) {
        Array a = numbered(text);
        Array s = a.slice(1, 1, 6, 2);
        assertArrayEquals(new long[] {4, 3, 5}, s.shape().dimensions());
        assertViewOf(a, s, i -> new long[] {i[0], 1 + 2 * i[1], i[2]});
        Array sel = a.select(2, 3);
        assertArrayEquals(new long[] {4, 6}, sel.shape().dimensions());
        assertViewOf(a, sel, i -> new long[] {i[0], i[1], 3});
        Array p = a.permute(2, 0, 1);
        assertArrayEquals(new long[] {5, 4, 6}, p.shape().dimensions());
        assertViewOf(a, p, i -> new long[] {i[1], i[2], i[0]});
        Array nested = a.permute(1, 2, 0).slice(0, 2, 5).select(2, 1);
        assertViewOf(a, nested, i -> new long[] {1, 2 + i[0], i[1]});
        assertSame(a.segment(), s.segment());
        sel.setDouble(2, 4, 5);                    // writes show through
        assertEquals(5, a.getDouble(2, 4, 3));
    }

    @Test
    void permutingADenseLayoutGivesANewMinorToMajor() {
        Array a = numbered("f32[3,5]{1,0}");
        Array t = a.permute(1, 0);
        assertEquals("f32[5,3]{0,1}", t.shape().toString());
        assertTrue(t.isContiguous());
        assertArrayEquals(new long[] {1, 5}, t.slotStrides());
        assertArrayEquals(new long[] {4, 20}, t.byteStrides());
        Array tiled = numbered("f32[3,5]{1,0:T(2,2)}");
        Array tt = tiled.permute(1, 0);
        assertEquals("f32[5,3]{0,1:T(2,2)}", tt.shape().toString());
        assertViewOf(tiled, tt, i -> new long[] {i[1], i[0]});
        assertNull(tt.slotStrides());
        assertNull(tt.byteStrides());
        assertThrows(IllegalArgumentException.class, () -> a.permute(0, 0));
        assertThrows(IllegalArgumentException.class, () -> a.permute(0));
    }

    @Test
    void stridedViewShapesOrderDimensionsByStride() {
        Array a = numbered("f32[4,6]{0,1}");
        Array s = a.slice(0, 0, 4, 2);
        assertEquals("f32[2,6]{0,1}", s.shape().toString());
        assertArrayEquals(new long[] {2, 4}, s.slotStrides());
        assertFalse(s.isContiguous());
        assertTrue(a.slice(1, 2, 4).isContiguous());
        assertFalse(a.slice(0, 1, 3).isContiguous());
        assertTrue(s.toString().startsWith("f32[2,6]{0,1} view(offset=0, strides=[2, 4])"), s.toString());
        assertEquals(4 * 2, a.select(1, 2).slotOffset());
    }

    @Test
    void reshapeNeedsRowMajorContiguousMemory() {
        Array a = numbered("f32[4,6]");
        Array r = a.reshape(2, 3, 4);
        assertViewOf(a, r, i -> new long[] {(i[0] * 12 + i[1] * 4 + i[2]) / 6, (i[0] * 12 + i[1] * 4 + i[2]) % 6});
        Array row = a.select(0, 2).reshape(2, 3);
        assertEquals(15.0, row.getDouble(1, 0));
        assertThrows(IllegalArgumentException.class, () -> a.reshape(5, 5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.permute(1, 0).reshape(24));
        assertTrue(e.getMessage().contains("Relayout.to"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> numbered("f32[4,6]{1,0:T(2,2)}").reshape(24));
        Array tiled = numbered("f32[4,6]{1,0:T(2,2)}");
        assertSame(tiled, tiled.reshape(4, 6));
    }

    /** {@return index {@code i} of a view whose dimensions are the parent's with size-1 ones added or removed} */
    private static long[] dropUnit(long[] i, long[] viewDims, long[] parentDims) {
        long[] out = new long[parentDims.length];
        int k = 0;
        for (int d = 0; d < viewDims.length; d++) {
            if (viewDims[d] != 1) {
                while (parentDims[k] == 1) {
                    k++;
                }
                out[k++] = i[d];
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32[3,4]{0,1}", "f32[3,1,4]{0,2,1}", "f32[1,16,256]{2,1,0:T(8,128)}",
            "bf16[16,256]{1,0:T(8,128)(2,1)}", "f32[1,3,1,4]{0,1,2,3}", "s4[6,5]{0,1:E(4)}",
            "f32[2,1,3]{2,1,0:PAD(3,1,4:zero)}", "f32[0,1,5]{0,1,2}"})
    void addingOrRemovingSizeOneDimensionsIsAViewOnAnyLayout(String text) {
        Array a = numbered(text);
        long[] d = a.shape().dimensions();
        long[] kept = java.util.Arrays.stream(d).filter(x -> x != 1).toArray();
        long[] more = java.util.stream.LongStream.concat(java.util.stream.LongStream.of(1),
                java.util.Arrays.stream(kept).flatMap(x -> java.util.stream.LongStream.of(x, 1))).toArray();
        for (long[] dims : new long[][] {kept, more}) {
            Array r = a.reshape(dims);
            assertArrayEquals(dims, r.shape().dimensions(), text);
            assertEquals(a.segment().address(), r.segment().address(), text);   // same memory, no copy
            assertViewOf(a, r, i -> dropUnit(i, dims, d));
            assertViewOf(r, r.reshape(d), i -> dropUnit(i, d, dims));    // and back
            if (r.shape().elementCount() > 0) {
                long[] last = new long[dims.length];
                for (int k = 0; k < dims.length; k++) {
                    last[k] = dims[k] - 1;
                }
                r.setDouble(last, 3);                                       // writes reach the parent (3 fits s4)
                assertEquals(3, a.getDouble(dropUnit(last, dims, d)));
            }
        }
    }

    @Test
    void aSizeOneDimensionInsideTheTilesIsNotDroppedAsAView() {
        Array a = numbered("f32[16,1,256]{2,1,0:T(8,128)}");                 // the tile's row dimension has size 1
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.reshape(16, 256));
        assertTrue(e.getMessage().contains("outside the tiles"), e.getMessage());
    }

    @Test
    void aWrongRankIndexHasCoreWording() {
        Array a = numbered("f32[2,3]{0,1}");
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.getFloat(new long[] {0, 0, 0}));
        assertEquals("index [0, 0, 0] has 3 coordinates, but f32[2,3] has rank 2", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> a.addressing().slot(new long[] {0, 0, 0}));
        assertEquals("index [0, 0, 0] has 3 coordinates, but f32[2,3] has rank 2", e.getMessage());
    }

    @Test
    void tiledViewsOfMajorUntiledDimensionsSliceTheSegment() {
        Array a = numbered("bf16[2,1,16,256]{3,2,0,1:T(8,128)(2,1)}");
        Array s = a.select(0, 1);
        assertEquals("bf16[1,16,256]{2,1,0:T(8,128)(2,1)}", s.shape().toString());
        assertEquals(16 * 256 * 2, s.segment().address() - a.segment().address());
        assertViewOf(a, s, i -> new long[] {1, i[0], i[1], i[2]});
        Array sl = a.slice(0, 1, 2);
        assertViewOf(a, sl, i -> new long[] {1 + i[0], i[1], i[2], i[3]});
        Array rows = numbered("f32[3,20,260]{2,1,0:T(8,128)}").select(0, 2).slice(0, 8, 20);
        assertEquals("f32[12,260]{1,0:T(8,128)}", rows.shape().toString());
        Array parent = numbered("f32[3,20,260]{2,1,0:T(8,128)}");
        assertViewOf(parent, parent.select(0, 2).slice(0, 8, 20), i -> new long[] {2, 8 + i[0], i[1]});
        assertTrue(numbered("f32[16,128]{1,0:T(8,128)}").slice(0, 8, 16).isContiguous());
    }

    @Test
    void tiledViewsThatBreakTheTilingAreRefused() {
        Array a = numbered("f32[16,256]{1,0:T(8,128)}");
        for (Runnable r : new Runnable[] {
            () -> a.slice(0, 3, 9), () -> a.slice(1, 0, 128), () -> a.select(0, 1), () -> a.slice(0, 0, 16, 2)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
            assertTrue(e.getMessage().contains("relayout first") && e.getMessage().contains("Relayout.to"), e.getMessage());
        }
        Array b = numbered("f32[3,4,2,6]{3,2,1,0:T(2,2)}");
        assertThrows(IllegalArgumentException.class, () -> b.select(1, 0));   // a major dimension ahead is not 1
        assertViewOf(b, b.slice(0, 1, 3), i -> new long[] {1 + i[0], i[1], i[2], i[3]});
        assertViewOf(b, b.select(0, 2).select(0, 3), i -> new long[] {2, 3, i[0], i[1]});
        assertViewOf(b, b.permute(1, 0, 2, 3).select(1, 2), i -> new long[] {2, i[0], i[1], i[2]});
    }

    @Test
    void tailPaddingIsDroppedWhenItWouldNotFit() {
        Array a = numbered("f32[3,2,2]{2,1,0:T(2,2)L(16)}");
        Array last = a.select(0, 2);
        assertEquals("f32[2,2]{1,0:T(2,2)}", last.shape().toString());
        assertViewOf(a, last, i -> new long[] {2, i[0], i[1]});
        assertEquals("f32[2,2]{1,0:T(2,2)L(16)}", a.select(0, 0).shape().toString());
    }

    @Test
    void viewBoundsAreChecked() {
        Array a = numbered("f32[4,6]");
        assertThrows(IndexOutOfBoundsException.class, () -> a.slice(0, 2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> a.slice(2, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> a.select(1, 6));
        assertThrows(IllegalArgumentException.class, () -> a.slice(0, 0, 4, 0));
        Array empty = a.slice(0, 4, 4);
        assertEquals(0, empty.shape().elementCount());
        assertThrows(IndexOutOfBoundsException.class, () -> a.slice(1, 1, 3).getFloat(0, 2));
    }
}
