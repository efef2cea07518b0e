package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * Inputs the fuzz targets found, pinned as plain unit tests (the raw inputs also sit in
 * {@code RelayoutFuzzTestInputs} and core's fuzz inputs). See docs/reliability.md.
 */
class RelayoutFindingsTest {

    /**
     * Arrays without elements. {@code Relayout.plan(Array, Array)} probed the strides of an untiled
     * {@code pred[0,5]} with the index {@code [0, 1]} and threw {@link IndexOutOfBoundsException}
     * (RelayoutFuzzTest); tiled ones failed in {@code SlotFormula.of} (core's fuzz targets).
     */
    @Test
    void arraysWithoutElements() {
        String[][] cases = {
            {"pred[0,5]{1,0}", "pred[0,5]{0,1}"},
            {"f32[3,0,4]{2,1,0}", "f32[3,0,4]{0,1,2:T(2,2)}"},
            {"f32[0]{0:T(2)}", "f32[0]{0}"},
            {"bf16[0,256]{1,0:T(8,128)(2,1)}", "bf16[0,256]{0,1}"},
            {"s4[5,0]{1,0:E(4)}", "s4[5,0]{0,1}"},
        };
        try (Arena arena = Arena.ofConfined()) {
            for (String[] c : cases) {
                Array src = Array.allocate(arena, ArrayShape.parse(c[0]));
                ArrayShape to = ArrayShape.parse(c[1]);
                Array dst = Array.allocate(arena, to);
                Relayout.copy(src, dst);
                Relayout.plan(src.shape(), to).execute(src.segment(), dst.segment());
                Array back = Relayout.to(dst, src.shape().layout(), arena);
                assertTrue(src.contentEquals(back), c[0]);
                assertEquals(0, Relayout.to(src, Layout.rowMajor(src.shape().rank()), arena).shape().elementCount());
                if (src.slotStrides() != null && src.shape().rank() > 1) {
                    int[] reversed = java.util.stream.IntStream.range(0, src.shape().rank())
                            .map(d -> src.shape().rank() - 1 - d).toArray();
                    Array view = src.permute(reversed).slice(0, 0, 0);   // a strided view without elements
                    Relayout.to(view, Layout.columnMajor(view.shape().rank()), arena);
                }
            }
        }
    }
}
