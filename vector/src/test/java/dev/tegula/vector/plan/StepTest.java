package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Conversion;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.Walk.Blocked;
import dev.tegula.vector.plan.Walk.Plain;
import dev.tegula.vector.plan.Walk.Spec;
import org.junit.jupiter.api.Test;

/** A walk's {@link Step}: its kernel with that kernel's parameters, made once with the walk, never disagreeing with its form. */
class StepTest {

    private static final LoopNest SQUARE = EstimateTest.nest(new long[] {1024, 1024}, new long[] {1, 1024},
            new long[] {1024, 1});

    @Test
    void aBlockedWalkCarriesItsTileKernelWithTheFormsBlocksStripsAndBands() {
        if (Tuning.TILE == 0) {
            return;   // no tile kernels without vectors
        }
        Blocked form = new Blocked(Tuning.TILE, 256, 64, Strips.STAGED, Bands.DESTINATION);
        Walk w = WalkRules.make(SQUARE, Elements.same(4), new Spec(new int[] {0, 1}, 0, form, 0));
        Step.Tiles t = assertInstanceOf(Step.Tiles.class, w.step(), w.toString());
        assertEquals(Kernel.tiles(Tuning.TILE), t.kernel());
        assertEquals(w.kernel(), t.kernel());
        assertEquals(256, t.blockI());
        assertEquals(64, t.blockJ());
        assertEquals(Strips.STAGED, t.strips());
        assertEquals(Bands.DESTINATION, t.bands());
        assertFalse(t.touch());
        // the same parameters read back from the walk's text give the same step
        assertEquals(w.step(), Walk.parse(w.toString(), SQUARE, Elements.same(4)).step());
    }

    @Test
    void aStepRefusesAKernelWithoutTheParametersItNeeds() {
        assertThrows(IllegalArgumentException.class, () -> new Step.Simple(Kernel.TILES_8, false));
        assertThrows(IllegalArgumentException.class, () -> new Step.Simple(Kernel.WIDEN_TRANSPOSE, false));
        assertThrows(IllegalArgumentException.class, () -> new Step.Simple(Kernel.COPY_ELEMENTS, true));
        assertThrows(IllegalArgumentException.class, () -> new Step.Tiles(Kernel.COPY_RUNS, 64, 64, Strips.SOURCE,
                Bands.SOURCE, false));
        assertThrows(IllegalArgumentException.class, () -> Step.of(Kernel.TILES_8, Plain.PLAIN, Elements.same(4), 64, 64,
                64, 64));
        assertThrows(IllegalArgumentException.class, () -> Step.of(Kernel.PANELS, Plain.PLAIN, Elements.same(4), 64, 64,
                64, 64));
        Step.Simple runs = assertInstanceOf(Step.Simple.class, Step.of(Kernel.COPY_RUNS, Plain.STREAMED, Elements.same(4),
                0, 0, 0, 0));
        assertTrue(runs.streamed());
    }

    @Test
    void theWideningTransposeChoosesItsBlockKernelWhenTheWalkIsMade() {
        Conversion bf16 = Conversion.of(ElementType.BF16, 16, ElementType.F32, 32);
        Walk w = WalkRules.make(SQUARE, Elements.of(bf16), new Spec(new int[] {0, 1}, 0, Plain.PLAIN, 0));
        Step.WidenTranspose step = assertInstanceOf(Step.WidenTranspose.class, w.step(), w.toString());
        var plan = step.plan();
        assertEquals(bf16, plan.conversion());
        if (Tuning.TILE == 0) {
            assertFalse(plan.sourceTiles());
            assertEquals(Kernel.TRANSPOSE_ELEMENTS, plan.blocks());
            return;
        }
        // 2-byte sources go through their own type's tiles: the machine's largest
        assertTrue(plan.sourceTiles());
        assertEquals(Kernel.tiles(Tuning.TILE), plan.blocks());
        assertEquals(2, plan.bytes());
        // narrow source rows (pairs of u8 → f32 into the buffer's rows of 2): a deinterleave of those rows
        Conversion u8 = Conversion.of(ElementType.U8, 8, ElementType.F32, 32);
        LoopNest narrow = EstimateTest.nest(new long[] {2, 4096}, new long[] {1, 2}, new long[] {4096, 1});
        Walk n = WalkRules.make(narrow, Elements.of(u8), new Spec(new int[] {0, 1}, 1, Plain.PLAIN, 0));
        Step.WidenTranspose nt = assertInstanceOf(Step.WidenTranspose.class, n.step(), n.toString());
        assertFalse(nt.plan().sourceTiles());
        assertEquals(Kernel.DEINTERLEAVE, nt.plan().blocks(), nt.plan().toString());
    }
}
