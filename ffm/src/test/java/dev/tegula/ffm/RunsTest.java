package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runs of small layouts, read off their slot maps by hand, and the inputs {@link Runs} refuses. */
class RunsTest {

    /** {@return each run as {slot of array 0, length, index...}} */
    private static List<List<Long>> runs(Runs r) {
        List<List<Long>> out = new ArrayList<>();
        while (r.next()) {
            List<Long> run = new ArrayList<>(List.of(r.slot(0), r.length()));
            for (int d = 0; d < 2; d++) {
                run.add(r.index(d));
            }
            out.add(run);
        }
        return out;
    }

    @Test
    void tiledRunsInMemoryOrderFollowTheSlotMap() {
        // f32[3,5]{1,0:T(2,2)}: slots  row 0: 0 1 | 4 5 | 8,  row 1: 2 3 | 6 7 | 10,  row 2: 12 13 | 16 17 | 20
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[3,5]{1,0:T(2,2)}"));
            // slots 0..8 are the first two tiles, then (0,4) of the third: one run; slot 9 is padding
            assertEquals(List.of(List.of(0L, 9L, 0L, 0L), List.of(10L, 1L, 1L, 4L),
                    List.of(12L, 2L, 2L, 0L), List.of(16L, 2L, 2L, 2L), List.of(20L, 1L, 2L, 4L)), runs(Runs.of(a)));
            Runs visit = Runs.of(a, null, null, Runs.Padding.VISIT);
            assertEquals(List.of(List.of(0L, 24L, 0L, 0L)), runs(visit));
        }
    }

    @Test
    void tiledRunsInRowMajorOrderAreTileRows() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[16,256]{1,0:T(8,128)}"));
            Runs memory = Runs.of(a, Array.allocate(arena, a.shape()));
            assertTrue(memory.next());
            assertEquals(16 * 256, memory.length());
            Runs rows = Runs.of(a, null, new int[] {0, 1}, Runs.Padding.SKIP);
            List<List<Long>> r = runs(rows);
            // 32 tile rows, but (7,128..255) ends at slot 2047 and (8,0) starts the next tile row at 2048
            assertEquals(31, r.size());
            assertEquals(List.of(1920L, 256L, 7L, 128L), r.get(15));
            assertEquals(List.of(1024L, 128L, 0L, 128L), r.get(1));   // (0,128): the second tile's first row
            assertEquals(List.of(128L, 128L, 1L, 0L), r.get(2));      // (1,0): the first tile's second row
        }
    }

    @Test
    void stridedViewsRunWhereTheirStridesAreOne() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[4,6]{1,0}"));
            assertEquals(List.of(List.of(6L, 12L, 0L, 0L)), runs(Runs.of(a.slice(0, 1, 3))));
            assertEquals(12, runs(Runs.of(a.slice(1, 0, 6, 2))).size());
            assertEquals(List.of(List.of(0L, 24L, 0L, 0L)), runs(Runs.of(a.permute(1, 0))));   // memory order of the view
            Array t = Array.allocate(arena, ArrayShape.parse("f32[4,6]{0,1}"));
            assertEquals(24, runs(Runs.of(a, t)).size());   // the layouts disagree at every step
        }
    }

    @Test
    void refusesPackedLayoutsOtherDimensionsAndBadOrders() {
        try (Arena arena = Arena.ofConfined()) {
            Array packed = Array.allocate(arena, ArrayShape.parse("s4[5,7]{1,0:E(4)}"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Runs.of(packed));
            assertTrue(e.getMessage().contains("E(4)"), e.getMessage());
            Array a = Array.allocate(arena, ArrayShape.parse("f32[4,6]{1,0}"));
            Array b = Array.allocate(arena, ArrayShape.parse("f32[6,4]{1,0}"));
            e = assertThrows(IllegalArgumentException.class, () -> Runs.of(a, b));
            assertTrue(e.getMessage().contains("f32[4,6]") && e.getMessage().contains("f32[6,4]"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> Runs.of(a, null, new int[] {0, 0}, Runs.Padding.SKIP));
            assertTrue(e.getMessage().startsWith("order: [0, 0]"), e.getMessage());
            Array tiled = Array.allocate(arena, ArrayShape.parse("f32[3,5]{1,0:T(2,2)}"));
            Array other = Array.allocate(arena, ArrayShape.parse("f32[3,5]{1,0:T(4,4)}"));
            e = assertThrows(IllegalArgumentException.class, () -> Runs.of(tiled, other, null, Runs.Padding.VISIT));
            assertTrue(e.getMessage().contains("padded box"), e.getMessage());
        }
    }

    @Test
    void indexOfEachElementAndTheEndOfTheWalk() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[2,3]{0,1}"));
            Runs r = Runs.of(a);   // column-major: one run, (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)
            assertTrue(r.next());
            long[] idx = new long[2];
            r.index(3, idx);
            assertEquals(List.of(1L, 1L), List.of(idx[0], idx[1]));
            assertThrows(IndexOutOfBoundsException.class, () -> r.index(6, idx));
            assertEquals(false, r.next());
            assertEquals(0, r.length());
            r.reset();
            assertTrue(r.next());
            assertEquals(6, r.length());
        }
    }
}
