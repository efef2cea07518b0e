package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.tegula.vector.kernels.Elements;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measuring planner's clock ({@link CandidateTimer}): rounds of the final round, the margin over the estimate, the parts each candidate is timed on. */
class CandidateTimerTest {

    @Test
    void theFinalRoundRunsTwiceWhenTheJitIsQuiet() {
        long[] clock = {0};
        int rounds = CandidateTimer.finalRounds(() -> 42, () -> clock[0], () -> clock[0] += 1_000_000);
        assertEquals(CandidateTimer.TIMED_ROUNDS, rounds);
    }

    @Test
    void theFinalRoundRunsAgainWhileTheJitFinishesCompilations() {
        // the JIT's total compilation time moves during the first three rounds only
        long[] jit = {100};
        int[] ran = {0};
        int rounds = CandidateTimer.finalRounds(() -> jit[0], () -> 0, () -> {
            if (++ran[0] <= 3) {
                jit[0] += 7;
            }
        });
        assertEquals(4, rounds);
        assertEquals(4, ran[0]);
    }

    @Test
    void theFinalRoundStopsAtItsLimitAndItsTimeBudget() {
        long[] jit = {0};
        assertEquals(CandidateTimer.FINAL_MAX_ROUNDS, CandidateTimer.finalRounds(() -> jit[0], () -> 0, () -> jit[0]++));
        long[] clock = {0};
        long step = CandidateTimer.FINAL_EXTRA_BUDGET_NANOS / 2 + 1;
        assertEquals(2, CandidateTimer.finalRounds(() -> jit[0], () -> clock[0], () -> {
            jit[0]++;
            clock[0] += step;
        }));
        // no compilation time reported (-1): the plain two rounds
        assertEquals(CandidateTimer.TIMED_ROUNDS, CandidateTimer.finalRounds(() -> -1, () -> 0, () -> { }));
    }

    @Test
    void anotherWalkReplacesTheEstimateOnlyByTakingLessThanNineteenTwentiethsOfItsTime() {
        assertTrue(CandidateTimer.beatsEstimate(0.94, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(0.96, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(1.0, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(1.2, 1.0));
        assertTrue(CandidateTimer.beatsEstimate(4.0, 8.0));
    }

    @Test
    void aPartGivesEachThreadAtLeastOneBlockAlongTheLoopTheThreadsShare() {
        // 1024 source rows of 8192 f32: 64 KiB read and written per source row, so a part of about
        // 16 MiB holds 256 of them, 128 per thread, under the blocks of up to 1024 rows
        ArrayShape from = shape("f32[1024,8192]{1,0}");
        ArrayShape to = shape("f32[1024,8192]{0,1}");
        RelayoutPlan plan = new PlanCache(8, null).plan(from, to, Planning.MEASURE, 2);
        long perSourceRow = 8192L * 8;
        long perSourceColumn = 1024L * 8;
        long whole = 1024L * 8192 * 8;
        java.util.regex.Pattern blocked = java.util.regex.Pattern.compile("split=(\\d) .*block=(\\d+)x(\\d+)");
        int checked = 0;
        for (PlanMeasurement m : plan.report().measurements()) {
            java.util.regex.Matcher b = blocked.matcher(m.candidate());
            if (m.finalRound() || !b.find()) {
                continue;   // the final round runs the whole nest; walks without blocks have no floor
            }
            // loop 0 is the source-contiguous loop (blocks of blockI), loop 1 the innermost (blockJ)
            long floor = b.group(1).equals("0")
                    ? 2 * Long.parseLong(b.group(2)) * perSourceColumn
                    : 2 * Long.parseLong(b.group(3)) * perSourceRow;
            assertTrue(m.bytes() >= Math.min(whole, floor), () -> m + ": under " + Math.min(whole, floor) + " bytes");
            checked++;
        }
        assertTrue(checked > 0 || Kernel.tileEdges().length == 0, plan.report().measurements()::toString);
        RelayoutProperties.checkPlan(from, to, plan);
    }
}
