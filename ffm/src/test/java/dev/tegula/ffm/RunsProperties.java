package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.testing.Permutations;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * {@link Runs} against an element walk: every element (with {@link Runs.Padding#VISIT}, every slot of
 * the padded box) is covered exactly once, element {@code k} of a run has the logical index
 * {@link Runs#index(long, long[])} says and lies {@code k} slots after the run's start in each array,
 * where {@link Array#slot} (and for dense arrays {@link ArrayShape#linearIndex}) puts it; a logical
 * walk visits the indices in that order, a memory-order walk visits slots in increasing order, and
 * runs are maximal wherever no padding lies between them.
 */
class RunsProperties {
    private static final ElementType[] TYPES = {ElementType.F32, ElementType.BF16, ElementType.S8, ElementType.F64};

    /** Random dimensions (rank 0..4). */
    static long[] randomDims(Random r) {
        int rank = r.nextInt(5);
        long[] dims = new long[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = 1 + r.nextInt(rank > 2 ? 7 : 19);
        }
        return dims;
    }

    /**
     * An array of {@code dims}: row-major, column-major, a random permutation, a strided view (a
     * slice with steps of a larger permuted array, then a permutation), a tiled layout (power-of-two
     * tiles, sometimes 3 or 5, sometimes a second level), {@code T(8,128)} or {@code T(8,128)(2,1)}.
     */
    static Array randomArray(Random r, Arena arena, long[] dims) {
        int rank = dims.length;
        ElementType t = TYPES[r.nextInt(TYPES.length)];
        String ds = Arrays.stream(dims).mapToObj(Long::toString).collect(Collectors.joining(","));
        int kind = rank == 0 ? 0 : r.nextInt(7);
        String order = Arrays.stream(kind == 0 ? Permutations.reversed(rank) : Permutations.shuffled(r, rank))
                .mapToObj(Integer::toString).collect(Collectors.joining(","));
        String type = t.name().toLowerCase();
        switch (kind) {
            case 0, 1 -> {
                return Array.allocate(arena, ArrayShape.parse(type + "[" + ds + "]" + (rank == 0 ? "" : "{" + order + "}")));
            }
            case 2 -> {
                long[] big = new long[rank];
                long[] step = new long[rank];
                long[] start = new long[rank];
                for (int d = 0; d < rank; d++) {
                    step[d] = 1 + r.nextInt(2);
                    start[d] = r.nextInt(2);
                    big[d] = start[d] + (dims[d] - 1) * step[d] + 1 + r.nextInt(2);
                }
                int[] perm = Permutations.shuffled(r, rank);
                int[] inv = new int[rank];
                for (int k = 0; k < rank; k++) {
                    inv[perm[k]] = k;
                }
                // allocate the permuted base, so that permuting back gives dims
                long[] baseDims = new long[rank];
                for (int k = 0; k < rank; k++) {
                    baseDims[k] = big[perm[k]];
                }
                String bs = Arrays.stream(baseDims).mapToObj(Long::toString).collect(Collectors.joining(","));
                Array v = Array.allocate(arena, ArrayShape.parse(type + "[" + bs + "]{" + order + "}"));
                for (int k = 0; k < rank; k++) {
                    int d = perm[k];
                    v = v.slice(k, start[d], start[d] + (dims[d] - 1) * step[d] + 1, step[d]);
                }
                return v.permute(inv);
            }
            case 3, 4 -> {
                int tr = 1 + r.nextInt(rank);
                List<String> tile = new ArrayList<>();
                for (int k = 0; k < tr; k++) {
                    int c = r.nextInt(10);
                    tile.add(Integer.toString(c < 8 ? 1 << (c % 4) : 3 + (c - 8) * 2));
                }
                String second = r.nextInt(3) != 0 ? "" : r.nextBoolean() ? "(2,1)" : "(2)";
                return Array.allocate(arena, ArrayShape.parse(type + "[" + ds + "]{" + order + ":T("
                        + String.join(",", tile) + ")" + second + "}"));
            }
            default -> {
                if (rank < 2) {
                    return Array.allocate(arena, ArrayShape.parse(type + "[" + ds + "]{0}"));
                }
                String tiles = kind == 5 || t != ElementType.BF16 ? "T(8,128)" : "T(8,128)(2,1)";
                return Array.allocate(arena, ArrayShape.parse(type + "[" + ds + "]{" + order + ":" + tiles + "}"));
            }
        }
    }

    static int[] randomOrder(Random r, int rank) {
        return r.nextInt(3) == 0 ? null : Permutations.shuffled(r, rank);
    }

    @Property(tries = 400)
    void oneArrayRunsCoverEveryElementOnceAtItsSlot(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims = randomDims(r);
            Array a = randomArray(r, arena, dims);
            int[] order = randomOrder(r, dims.length);
            check(new Array[] {a}, order, Runs.Padding.SKIP);
        }
    }

    @Property(tries = 400)
    void twoArraysSideBySideCoverEveryElementOnceAtBothSlots(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims = randomDims(r);
            Array a = randomArray(r, arena, dims);
            Array b = randomArray(r, arena, dims);
            int[] order = randomOrder(r, dims.length);
            check(new Array[] {a, b}, order, Runs.Padding.SKIP);
        }
    }

    @Property(tries = 300)
    void visitingPaddingCoversEverySlotOfTheTiles(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims = randomDims(r);
            Array a;
            do {
                a = randomArray(r, arena, dims);
            } while (!a.shape().layout().isTiled() && dims.length > 0 && r.nextInt(4) != 0);
            if (a.shape().layout().isTiled() && java.util.Optional.empty().equals(
                    dev.tegula.core.SlotFormula.of(a.shape()))) {
                return;   // walked element by element: padding visits are refused (checked below)
            }
            Array b = Array.allocate(arena, a.shape());
            int[] order = randomOrder(r, dims.length);
            long boxCount = Arrays.stream(paddedBox(a)).reduce(1, Math::multiplyExact);
            if (a.shape().layout().isTiled() && boxCount != a.shape().slotCount() && boxCount > 0) {
                // a second tile that pads beyond the first tile's box: the box does not cover the buffer
                Array tiled = a;
                assertThrows(IllegalArgumentException.class, () -> Runs.of(tiled, null, order, Runs.Padding.VISIT));
                return;
            }
            check(new Array[] {a}, order, Runs.Padding.VISIT);
            check(new Array[] {a, b}, order, Runs.Padding.VISIT);
        }
    }

    @Property(tries = 200)
    void arraysOfOneLayoutRunAsLongAsOneArray(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims = randomDims(r);
            Array a = randomArray(r, arena, dims);
            Array b = Array.allocate(arena, a.shape());
            if (!a.isDense()) {
                return;
            }
            int[] order = randomOrder(r, dims.length);
            assertEquals(runCount(Runs.of(a, null, order, Runs.Padding.SKIP)),
                    runCount(Runs.of(a, b, order, Runs.Padding.SKIP)), a.shape().toString());
        }
    }

    private static long runCount(Runs r) {
        long c = 0;
        while (r.next()) {
            c++;
        }
        return c;
    }

    /** Walks the runs and checks them against the arrays' own slots. */
    static void check(Array[] arrays, int[] order, Runs.Padding padding) {
        Array a0 = arrays[0];
        long[] dims = a0.shape().dimensions();
        int rank = dims.length;
        boolean visit = padding == Runs.Padding.VISIT;
        long[] box = dims.clone();
        if (visit && a0.shape().layout().isTiled()) {
            for (int d = 0; d < rank; d++) {
                long t = a0.shape().tileExtent(d);
                box[d] = Math.ceilDiv(dims[d], t) * t;
            }
        }
        long total = 1;
        for (long s : box) {
            total *= s;
        }
        String what = Arrays.stream(arrays).map(x -> x.shape().toString()).collect(Collectors.joining(" and "))
                + " order " + Arrays.toString(order) + " " + padding;
        Runs runs = Runs.of(a0, arrays.length > 1 ? arrays[1] : null, order, padding);
        boolean[] seen = new boolean[(int) total];
        long[] idx = new long[rank];
        long visited = 0;
        long previousOrdinal = -1;
        long[] previousEnd = null;   // slot after the previous run, per array
        long[] lastSlot = new long[arrays.length];
        Arrays.fill(lastSlot, -1);
        int[] walk = order != null ? order : null;
        boolean partialTiles = !Arrays.equals(box, paddedBox(a0)) || (arrays.length > 1 && !Arrays.equals(box, paddedBox(arrays[1])));
        for (int pass = 0; pass < 2; pass++) {   // the second pass after reset() must see the same runs
            Arrays.fill(seen, false);
            visited = 0;
            previousOrdinal = -1;
            previousEnd = null;
            while (runs.next()) {
                long len = runs.length();
                assertTrue(len >= 1, what);
                runs.index(0, idx);
                for (int d = 0; d < rank; d++) {
                    assertEquals(idx[d], runs.index(d), what);
                }
                long firstOrdinal = walk != null ? ordinal(idx, box, walk) : -1;
                if (previousEnd != null && walk == null && arrays.length == 1 && byStrides(a0)) {
                    // memory order: slots in increasing order, so adjacent slots are adjacent in the walk too
                    assertNotEquals(previousEnd[0], runs.slot(0), what + ": the run at " + Arrays.toString(idx)
                            + " continues the previous one");
                }
                if (previousEnd != null && walk != null && !partialTiles && firstOrdinal == previousOrdinal + 1) {
                    boolean allAdjacent = true;
                    for (int x = 0; x < arrays.length; x++) {
                        allAdjacent &= runs.slot(x) == previousEnd[x];
                    }
                    assertFalse(allAdjacent, what + ": the run at " + Arrays.toString(idx) + " continues the previous one");
                }
                for (long k = 0; k < len; k++) {
                    runs.index(k, idx);
                    boolean inBounds = true;
                    for (int d = 0; d < rank; d++) {
                        assertTrue(idx[d] >= 0 && idx[d] < box[d], what + " index " + Arrays.toString(idx));
                        inBounds &= idx[d] < dims[d];
                    }
                    assertTrue(visit || inBounds, what + ": padding visited at " + Arrays.toString(idx));
                    int o = (int) ordinal(idx, box, identity(rank));
                    assertFalse(seen[o], what + ": " + Arrays.toString(idx) + " visited twice");
                    seen[o] = true;
                    visited++;
                    if (walk != null) {
                        long ord = ordinal(idx, box, walk);
                        assertEquals(previousOrdinal + 1, ord, what + ": walk order at " + Arrays.toString(idx));
                        previousOrdinal = ord;
                    }
                    for (int x = 0; x < arrays.length; x++) {
                        Array a = arrays[x];
                        long s = runs.slot(x) + k;
                        assertEquals(runs.slot(x) * a.shape().slotBits() / 8, runs.offset(x), what);
                        if (inBounds) {
                            assertEquals(a.slot(idx), s, what + " array " + x + " at " + Arrays.toString(idx));
                            if (a.isDense()) {
                                assertEquals(a.shape().linearIndex(idx), s, what);
                            }
                        } else {
                            assertFalse(a.shape().isElementSlot(s), what + ": slot " + s + " of padding index "
                                    + Arrays.toString(idx) + " holds an element");
                        }
                        if (walk == null && x == 0 && byStrides(a)) {
                            assertTrue(s > lastSlot[0], what + ": memory order goes back at " + Arrays.toString(idx));
                            lastSlot[0] = s;
                        }
                    }
                }
                previousEnd = new long[arrays.length];
                for (int x = 0; x < arrays.length; x++) {
                    previousEnd[x] = runs.slot(x) + len;
                }
            }
            assertEquals(0, runs.length(), what);
            assertEquals(total, visited, what + ": elements covered");
            if (visit && a0.shape().layout().isTiled() && total > 0) {
                assertEquals(a0.shape().slotCount(), visited, what + ": every slot of the tiles");
            }
            runs.reset();
            Arrays.fill(lastSlot, -1);
        }
        assertEquals(runs.segment(), a0.segment());
    }

    /** {@return true if the array is walked by strides: strided, or tiled with a slot formula} (else element by element, in its dimension order) */
    static boolean byStrides(Array a) {
        return !a.shape().layout().isTiled() || dev.tegula.core.SlotFormula.of(a.shape()).isPresent();
    }

    private static long[] paddedBox(Array a) {
        long[] dims = a.shape().dimensions();
        if (!a.shape().layout().isTiled()) {
            return dims;
        }
        long[] box = dims.clone();
        for (int d = 0; d < dims.length; d++) {
            long t = a.shape().tileExtent(d);
            box[d] = Math.ceilDiv(dims[d], t) * t;
        }
        return box;
    }

    private static int[] identity(int rank) {
        int[] o = new int[rank];
        for (int d = 0; d < rank; d++) {
            o[d] = d;
        }
        return o;
    }

    /** {@return the position of {@code idx} in row-major order over the dimensions in {@code order}} */
    static long ordinal(long[] idx, long[] box, int[] order) {
        long o = 0;
        for (int d : order) {
            o = o * box[d] + idx[d];
        }
        return o;
    }
}
