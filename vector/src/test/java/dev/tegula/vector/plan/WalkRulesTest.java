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

/** Which walks a nest may have ({@link WalkRules}): staging only where the split loop writes a dense destination region. */
class WalkRulesTest {

    @Test
    void onlyALoopWhoseDestinationRegionIsDenseCanBeStaged() {
        // loops in destination order: dst strides 4096, 64, 1 (dense) -> every loop's region is a block
        LoopNest dense = new LoopNest(new long[] {8, 64, 64}, new long[] {1, 512, 8}, new long[] {4096, 64, 1}, 0, 0);
        assertEquals(4096, WalkRules.stageUnit(dense, 0));
        assertEquals(0, WalkRules.stageUnit(dense, 1));   // one index of the middle loop: 64 slots, 4096 apart
        // a padded destination (rows 72 slots apart for 64 elements): nothing is a dense block
        LoopNest padded = new LoopNest(new long[] {8, 64}, new long[] {64, 1}, new long[] {72, 1}, 0, 0);
        assertEquals(0, WalkRules.stageUnit(padded, 0));
    }
}
