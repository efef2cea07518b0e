package dev.tegula.vector;

import static dev.tegula.vector.PlannerFixtures.FROM;
import static dev.tegula.vector.PlannerFixtures.TO;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.ffm.Array;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link Relayout#copy} does unless the application opts in: it never times candidates, never
 * writes a wisdom file, still uses the wisdom that exists, and runs the plan {@link Relayout#plan(Array, Array)}
 * returns.
 */
class RelayoutDefaultsTest {

    @Test
    void aCachesArrayPlansRecallByDefaultAndTimeNothing() {
        PlanCache cache = new PlanCache(8, Wisdom.inMemory());
        assertEquals(Planning.RECALL, cache.defaultPlanning());
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, FROM);
            Array b = Array.allocate(arena, TO);
            RelayoutPlan p = cache.plan(a, b);
            assertEquals(PlanOrigin.ESTIMATE, p.report().origin());
            assertTrue(p.report().measurements().isEmpty());
            assertEquals(0, cache.wisdom().size());
        }
    }

    @Test
    void measuringIsWhatTheApplicationOptsInto() {
        PlanCache cache = new PlanCache(8, Wisdom.inMemory());
        cache.setDefaultPlanning(Planning.MEASURE);
        try (Arena arena = Arena.ofConfined()) {
            RelayoutPlan p = cache.plan(Array.allocate(arena, FROM), Array.allocate(arena, TO));
            assertEquals(PlanOrigin.MEASURED, p.report().origin());
            assertFalse(p.report().measurements().isEmpty());
            assertEquals(1, cache.wisdom().size());
        }
    }

    @Test
    void recallUsesTheWisdomThatExists() {
        Wisdom wisdom = Wisdom.inMemory();
        RelayoutPlan measured = new PlanCache(8, wisdom).plan(FROM, TO, Planning.MEASURE, 1);
        PlanCache later = new PlanCache(8, wisdom);
        try (Arena arena = Arena.ofConfined()) {
            RelayoutPlan p = later.plan(Array.allocate(arena, FROM), Array.allocate(arena, TO));
            assertEquals(PlanOrigin.WISDOM, p.report().origin());
            assertTrue(p.report().measurements().isEmpty());
            assertEquals(measured.walks(), p.walks());
        }
    }

    @Test
    void relayoutPlanIsThePlanCopyRuns() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, FROM);
            Array b = Array.allocate(arena, TO);
            for (long i = 0; i < 16; i++) {
                a.setFloat(i, 3, 200, i * 0.5f);
            }
            RelayoutPlan planned = Relayout.plan(a, b);
            int size = Relayout.plans().size();
            Relayout.copy(a, b);
            assertEquals(size, Relayout.plans().size(), "copy made a plan of its own");
            assertSame(planned, Relayout.plan(a, b));
            assertSame(planned, Relayout.plans().plan(a, b, Relayout.plans().defaultPlanning(), 1, null));
            assertEquals(7.5f, b.getFloat(15, 3, 200));
        }
    }

    @Test
    void defaultWisdomFileIsReadButNotWrittenUnlessSavingIsAskedFor(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        new PlanCache(8, Wisdom.at(file)).plan(FROM, TO, Planning.MEASURE, 1);   // an explicit file: written
        byte[] before = Files.readAllBytes(file);
        Wisdom readOnly = Wisdom.of(file, false);
        assertFalse(readOnly.writesFile());
        assertEquals(PlanOrigin.WISDOM, new PlanCache(8, readOnly).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // a new measurement (another thread count) is kept in memory only
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, readOnly).plan(FROM, TO, Planning.MEASURE, 2).report().origin());
        assertEquals(2, readOnly.size());
        assertArrayEquals(before, Files.readAllBytes(file));
        // with saving asked for, the same measurement reaches the file
        Wisdom saving = Wisdom.of(file, true);
        new PlanCache(8, saving).plan(FROM, TO, Planning.MEASURE, 2);
        assertEquals(2, Wisdom.at(file).size());
    }

    @Test
    void recallNeverTimesEvenForALargeRelayout() {
        // RECALL resolves to itself at any size: no timing, the estimate where wisdom holds nothing
        assertEquals(Planning.RECALL, Planning.RECALL.resolve(Planning.AUTO_MEASURE_BYTES * 4));
        assertEquals(Planning.MEASURE, Planning.AUTO.resolve(Planning.AUTO_MEASURE_BYTES));
    }
}
