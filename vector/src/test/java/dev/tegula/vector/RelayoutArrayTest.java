package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.BFloat16;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The Array-level API of the relayout engine: dense arrays, views on either side, conversion, threads, errors. */
class RelayoutArrayTest {

    private static Array iota(Arena arena, String shape) {
        Array a = Array.allocate(arena, ArrayShape.parse(shape));
        long[] dims = a.shape().dimensions();
        float[] values = new float[(int) a.shape().elementCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        a.copyFrom(values);
        assertEquals(dims.length, a.shape().rank());
        return a;
    }

    @Test
    void copyBetweenLayoutsKeepsLogicalValues() {
        try (Arena arena = Arena.ofConfined()) {
            Array src = iota(arena, "f32[13,300]{1,0}");
            for (String layout : new String[] {"{0,1}", "{1,0:T(8,128)}", "{0,1:T(8,128)(2,1)}", "{1,0:T(4,4)L(64)}"}) {
                Array dst = Relayout.to(src, (ArrayShape.parse("f32[13,300]" + layout)).layout(), arena);
                assertEquals(layout, dst.shape().layout().toString());
                assertTrue(src.contentEquals(dst), layout);
                assertEquals(12 * 300 + 299, dst.getFloat(12, 299));
                Array back = Relayout.to(dst, Layout.rowMajor(2), arena);
                assertArrayEquals(src.toFloatArray(), back.toFloatArray(), 0f);
            }
        }
    }

    @Test
    void stridedViewsAsSource() {
        try (Arena arena = Arena.ofConfined()) {
            Array src = iota(arena, "f32[16,20]{1,0}");
            Array view = src.slice(1, 3, 19, 4).permute(1, 0);   // [4,16]: element (j, i) = src(i, 3 + 4j)
            assertTrue(!view.isDense());
            Array dst = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4, 16).withLayout(
                    Layout.of(1, 0).withTiles(Tile.of(2, 8))));
            Relayout.copy(view, dst);
            for (int j = 0; j < 4; j++) {
                for (int i = 0; i < 16; i++) {
                    assertEquals(i * 20 + 3 + 4 * j, dst.getFloat(j, i), "(" + j + "," + i + ")");
                }
            }
            Array sel = src.select(0, 5);   // [20] = row 5
            Array row = Relayout.to(sel, Layout.rowMajor(1), arena);
            for (int c = 0; c < 20; c++) {
                assertEquals(5 * 20 + c, row.getFloat(c));
            }
        }
    }

    @Test
    void stridedViewAsDestinationLeavesTheRestAlone() {
        try (Arena arena = Arena.ofConfined()) {
            Array big = Array.allocate(arena, ArrayShape.of(ElementType.F32, 8, 8));
            big.fill(-1.0);
            Array src = iota(arena, "f32[4,4]{0,1}");
            Relayout.copy(src, big.slice(0, 2, 6).slice(1, 0, 8, 2));
            for (int r = 0; r < 8; r++) {
                for (int c = 0; c < 8; c++) {
                    boolean inside = r >= 2 && r < 6 && c % 2 == 0;
                    float expected = inside ? (r - 2) * 4 + c / 2 : -1f;
                    assertEquals(expected, big.getFloat(r, c), "(" + r + "," + c + ")");
                }
            }
        }
    }

    @Test
    void conversionRoundsToNearestEven() {
        try (Arena arena = Arena.ofConfined()) {
            Array src = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 5));
            float[] v = new float[15];
            for (int i = 0; i < v.length; i++) {
                v[i] = 1.0f + i * 0.00390625f * 0.75f + 1e-3f * i;
            }
            src.copyFrom(v);
            Array dst = Relayout.to(src, ArrayShape.parse("bf16[3,5]{0,1:T(2,2)}"), arena);
            for (int i = 0; i < 15; i++) {
                assertEquals(BFloat16.toFloat(BFloat16.fromFloat(v[i])), dst.getFloat(i / 5, i % 5), "element " + i);
            }
        }
    }

    @Test
    void parallelRelayoutEqualsReference() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Arena arena = Arena.ofShared()) {
            ArrayShape from = ArrayShape.of(ElementType.F32, 1024, 1536);
            ArrayShape to = from.withLayout(Layout.of(0, 1));
            Array src = Array.allocate(arena, from);
            MemorySegment s = src.segment();
            for (long i = 0; i < from.bufferSize(); i += 4) {
                s.set(ValueLayout.JAVA_INT_UNALIGNED, i, (int) (i * 2654435761L));
            }
            Array dst = Array.allocate(arena, to);
            Relayout.copy(src, dst, pool, 2);
            MemorySegment ref = arena.allocate(to.bufferSize());
            ReferenceRelayout.copy(from, s, to, ref);
            assertEquals(-1, ref.mismatch(dst.segment()));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void errors() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = iota(arena, "f32[2,3]{1,0}");
            Array b = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 2));
            assertThrows(IllegalArgumentException.class, () -> Relayout.copy(a, b));
            Array ro = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3)).asReadOnly();
            assertThrows(UnsupportedOperationException.class, () -> Relayout.copy(a, ro));
            assertThrows(IllegalArgumentException.class, () -> Relayout.to(a, Layout.of(0), arena));
        }
        Arena closed = Arena.ofConfined();
        Array gone = Array.allocate(closed, ArrayShape.of(ElementType.F32, 4));
        closed.close();
        try (Arena arena = Arena.ofConfined()) {
            Array dst = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4));
            assertThrows(IllegalStateException.class, () -> Relayout.copy(gone, dst));
        }
    }
}
