package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.tegula.vector.PlannerFixtures.*;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.PlannerFixtures;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.vector.TestPlans;
import dev.tegula.vector.Wisdom;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.io.TempDir;

import static dev.tegula.vector.plan.EstimateTest.nest;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.kernels.Elements;
import org.junit.jupiter.api.Test;

/** The candidate families ({@link CandidateFamilies}): every walk they make fits its nest. */
class CandidateFamiliesTest {

    @Test
    void everyCandidateOfANestFitsIt() {
        LoopNest base = nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1});
        for (Walk w : CandidateFamilies.all(base, Elements.same(4), 2, 10_000)) {
            assertEquals(w.toString(), Walk.parse(w.toString(), base, Elements.same(4)).toString());
            assertEquals(base.elements(), w.nest().elements());
            assertEquals(3, w.order()[3], "the innermost loop stays innermost: " + w);
        }
    }

    @Test
    void panelCandidatesShareTheLoopThePanelIsNarrowerAlong() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no panels
        }
        List<Walk> panels = reversal("f32[64,64,64,64]{3,2,1,0}").panels();
        // panels of 256 KiB, 512 KiB and 1 MiB of 16 KiB pairs (16, 32 and 64 indices), each cut every
        // way between the two loops in powers of two
        assertEquals(5 + 6 + 7, panels.size(), panels::toString);
        for (Walk w : panels) {
            int[] loops = Walk.panelLoops(w.nest());
            Walk.Paneled p = (Walk.Paneled) w.form();
            long narrow = Math.min(p.outer(), p.inner());
            assertEquals(narrow, w.splitBlock(), w.toString());
            if (p.outer() != p.inner()) {
                assertEquals(p.outer() < p.inner() ? loops[0] : loops[1], w.split(), w.toString());
            }
        }
    }
}
