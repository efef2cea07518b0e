package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.tegula.vector.PlannerFixtures.*;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.CandidateFamilies;
import dev.tegula.vector.plan.CandidateTimer;
import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.LoopNest;
import dev.tegula.vector.plan.MeasuredSearch;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Tasks;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRules;
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

/** The plan cache ({@link PlanCache}): what it times, its capacity, plans for views, measuring on arrays. */
class PlanCacheTest {

    @Test
    void estimateAndSmallAutoPlansTimeNothing() {
        PlanCache cache = new PlanCache(8, Wisdom.inMemory());
        RelayoutPlan estimate = cache.plan(FROM, TO, Planning.ESTIMATE, 1);
        assertEquals(PlanOrigin.ESTIMATE, estimate.report().origin());
        assertTrue(estimate.report().measurements().isEmpty());
        RelayoutPlan auto = cache.plan(FROM, TO, Planning.AUTO, 1);   // 4 MiB: under AUTO's threshold
        assertEquals(PlanOrigin.ESTIMATE, auto.report().origin());
        assertEquals(Planning.ESTIMATE, auto.planning());
        assertEquals(0, cache.wisdom().size());
    }

    @Test
    void cacheKeepsAtMostItsCapacityAndClears() {
        PlanCache cache = new PlanCache(2, null);
        RelayoutPlan a = cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}"));
        assertSame(a, cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}")));
        cache.plan(shape("f32[5,8]{1,0}"), shape("f32[5,8]{0,1}"));
        cache.plan(shape("f32[6,8]{1,0}"), shape("f32[6,8]{0,1}"));
        assertEquals(2, cache.size());
        assertNotSame(a, cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}")));   // evicted, made again
        cache.clear();
        assertEquals(0, cache.size());
        assertEquals(2, cache.capacity());
        assertThrows(IllegalArgumentException.class, () -> new PlanCache(-1, null));
        assertThrows(IllegalArgumentException.class, () -> cache.plan(FROM, TO, Planning.ESTIMATE, 0));
    }

    @Test
    void aViewPlanServesViewsAtOtherOffsets() {
        try (Arena arena = Arena.ofConfined()) {
            Array big = Array.allocate(arena, shape("f32[64,100]{1,0}"));
            for (long i = 0; i < 64 * 100; i++) {
                big.segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            }
            PlanCache cache = new PlanCache(8, null);
            Array left = big.slice(1, 0, 40);
            Array right = big.slice(1, 50, 90);
            Array d1 = Array.allocate(arena, shape("f32[64,40]{0,1}"));
            Array d2 = Array.allocate(arena, shape("f32[64,40]{0,1}"));
            RelayoutPlan p = cache.plan(left, d1, Planning.ESTIMATE, 1, null);
            assertSame(p, cache.plan(right, d2, Planning.ESTIMATE, 1, null));
            p.execute(left, d1);
            p.execute(right, d2);
            for (long i = 0; i < 64; i++) {
                for (long j = 0; j < 40; j++) {
                    assertEquals(i * 100 + j, d1.getFloat(i, j));
                    assertEquals(i * 100 + 50 + j, d2.getFloat(i, j));
                }
            }
            // other strides do not fit the plan
            Array everyOther = big.slice(1, 0, 80, 2);
            assertThrows(IllegalArgumentException.class, () -> p.execute(everyOther, d1));
            assertThrows(IllegalStateException.class, () -> p.execute(left.segment(), d1.segment()));
        }
    }

    @Test
    void measuringOnArraysWritesTheRelayoutAndSplitsBetweenThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Arena arena = Arena.ofShared()) {
            Array src = Array.allocate(arena, FROM);
            for (long i = 0; i < FROM.elementCount(); i++) {
                src.segment().setAtIndex(ValueLayout.JAVA_INT, i, (int) (i * 2654435761L));
            }
            Array dst = Array.allocate(arena, TO);
            RelayoutPlan plan = new PlanCache(4, null).plan(src, dst, Planning.MEASURE, 2, pool);
            assertEquals(2, plan.threads());
            assertFalse(plan.report().measurements().isEmpty());
            plan.execute(src, dst, pool, 2);
            MemorySegment ref = arena.allocate(TO.bufferSize());
            ReferenceRelayout.copy(FROM, src.segment(), TO, ref);
            assertEquals(-1, ref.mismatch(dst.segment()));
        } finally {
            pool.shutdownNow();
        }
    }
}
