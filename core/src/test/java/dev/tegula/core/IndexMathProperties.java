package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.testing.Permutations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The index math made once from the layouts' formulas ({@link DigitSpace}, {@link StridedNest},
 * {@link CarryFormula}) against {@link ReferenceIndex}, the spec's algorithm written apart from it:
 * every in-bounds index lands where the reference puts it, in every operand.
 */
class IndexMathProperties {

    /** A random shape of {@code dims}: row-major, a permutation, tiled (powers of two, 3, 5, nested), or padded. */
    static ArrayShape randomShape(Random r, long[] dims) {
        int rank = dims.length;
        Layout l = Layout.of(Permutations.shuffled(r, rank));
        switch (rank == 0 ? 0 : r.nextInt(5)) {
            case 0 -> { }
            case 1, 2 -> {
                int tr = 1 + r.nextInt(rank);
                long[] t = new long[tr];
                for (int k = 0; k < tr; k++) {
                    int c = r.nextInt(10);
                    t[k] = c < 8 ? 1L << (c % 4) : 3 + (c - 8) * 2;
                }
                l = r.nextInt(3) == 0 ? l.withTiles(Tile.of(t), Tile.of(2, 1)) : l.withTiles(Tile.of(t));
            }
            case 3 -> {
                long[] padded = dims.clone();
                for (int d = 0; d < rank; d++) {
                    padded[d] += r.nextInt(3);
                }
                l = l.withPaddedDimensions(PaddingValue.ZERO, padded);
            }
            default -> l = rank >= 2 ? l.withTiles(Tile.of(8, 128)) : l;
        }
        return ArrayShape.of(ElementType.F32, dims).withLayout(l);
    }

    static long[] randomDims(Random r) {
        int rank = r.nextInt(5);
        long[] dims = new long[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = r.nextInt(15) == 0 ? 0 : 1 + r.nextInt(rank > 2 ? 6 : 13);
        }
        return dims;
    }

    /** {@return the value of digit {@code k} of index {@code e}} */
    private static long digit(DigitSpace s, int k, long[] e) {
        long q = e[s.dimension(k)] / s.divisor(k);
        return s.isTop(k) ? q : q % s.range(k);
    }

    @Property(tries = 300)
    void everyOperandsSlotIsTheSumOfItsDigitWeights(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        long[] dims = randomDims(r);
        int operands = 1 + r.nextInt(4);
        List<ArrayShape> shapes = new ArrayList<>();
        List<SlotFormula> formulas = new ArrayList<>();
        for (int x = 0; x < operands; x++) {
            ArrayShape s = randomShape(r, dims);
            Optional<SlotFormula> f = SlotFormula.of(s);
            if (f.isPresent()) {
                shapes.add(s);
                formulas.add(f.get());
            }
        }
        Optional<DigitSpace> space = DigitSpace.of(dims, formulas);
        if (space.isEmpty()) {
            return;
        }
        DigitSpace s = space.get();
        assertEquals(formulas.size(), s.operandCount());
        ArrayShape.of(ElementType.F32, dims).forEachIndex(e -> {
            for (int x = 0; x < shapes.size(); x++) {
                long slot = 0;
                for (int k = 0; k < s.digitCount(); k++) {
                    slot += s.weight(x, k) * digit(s, k, e);
                }
                assertEquals(ReferenceIndex.linearIndex(shapes.get(x), e), slot,
                        () -> shapes + " " + s + " at " + Arrays.toString(e));
            }
        });
    }

    @Property(tries = 300)
    void theBoxesCoverEveryIndexOnceAndTheirNestsAddressIt(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        long[] dims = randomDims(r);
        ArrayShape a = randomShape(r, dims);
        ArrayShape b = randomShape(r, dims);
        Optional<SlotFormula> fa = SlotFormula.of(a);
        Optional<SlotFormula> fb = SlotFormula.of(b);
        if (fa.isEmpty() || fb.isEmpty()) {
            return;
        }
        Optional<DigitSpace> space = DigitSpace.of(dims, List.of(fa.get(), fb.get()));
        if (space.isEmpty()) {
            return;
        }
        DigitSpace s = space.get();
        long count = ArrayShape.of(ElementType.F32, dims).elementCount();
        // every element once: the nests' (slot in a, slot in b) pairs are exactly the elements' pairs
        List<String> expected = new ArrayList<>();
        ArrayShape.of(ElementType.F32, dims).forEachIndex(e ->
                expected.add(ReferenceIndex.linearIndex(a, e) + ":" + ReferenceIndex.linearIndex(b, e)));
        List<String> walked = new ArrayList<>();
        for (long[][] box : s.boxes()) {
            StridedNest n = StridedNest.ofBox(s, box, new long[] {7, 11});
            walk(n, slots -> walked.add((slots[0] - 7) + ":" + (slots[1] - 11)));
        }
        assertEquals(count, walked.size(), () -> a + " and " + b + ": " + s);
        expected.sort(null);
        walked.sort(null);
        assertEquals(expected, walked, () -> a + " and " + b + ": " + s);
    }

    @Property(tries = 500)
    void aNormalisedNestVisitsTheSlotsOfItsLoopsInTheirOrder(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        int depth = r.nextInt(6);
        int operands = 1 + r.nextInt(3);
        long[] extents = new long[depth];
        long[][] strides = new long[operands][depth];
        long[] offsets = new long[operands];
        boolean[] apart = new boolean[depth];
        for (int x = 0; x < operands; x++) {
            offsets[x] = r.nextInt(9);
        }
        // loops that are often contiguous: each stride the next inner one's times its extent, sometimes not
        for (int j = depth - 1; j >= 0; j--) {
            extents[j] = r.nextInt(12) == 0 ? 0 : r.nextInt(4) == 0 ? 1 : 2 + r.nextInt(3);
            apart[j] = r.nextInt(6) == 0;
            for (int x = 0; x < operands; x++) {
                strides[x][j] = j == depth - 1 || r.nextInt(3) == 0 ? r.nextInt(4)
                        : strides[x][j + 1] * Math.max(1, extents[j + 1]);
            }
        }
        StridedNest n = StridedNest.of(extents, strides, offsets, apart);
        List<String> raw = new ArrayList<>();
        walk(extents, strides, offsets, slots -> raw.add(Arrays.toString(slots)));
        List<String> normal = new ArrayList<>();
        walk(n, slots -> normal.add(Arrays.toString(slots)));
        String what = Arrays.toString(extents) + " " + Arrays.deepToString(strides) + " apart " + Arrays.toString(apart) + " -> " + n;
        assertEquals(raw, normal, what);
        assertEquals(raw.size(), n.elements(), what);
        int inputs = 0;
        for (int k = 0; k < n.depth(); k++) {
            assertTrue(n.extent(k) > 1, what);
            assertEquals(inputs, n.firstInput(k), what + ": loop " + k + " starts where the one outside it ends");
            inputs = n.firstInput(k) + n.inputCount(k);
            if (k > 0 && !apart[n.firstInput(k)]) {
                boolean contiguous = true;
                for (int x = 0; x < operands; x++) {
                    contiguous &= n.stride(x, k - 1) == n.stride(x, k) * n.extent(k);
                }
                assertFalse(contiguous, what + ": loops " + (k - 1) + " and " + k + " left unmerged");
            }
        }
        if (n.depth() > 0) {
            assertEquals(depth, inputs, what + ": the loops' inputs cover every input loop");
        }
    }

    @Property(tries = 300)
    void aCarryFormulaGivesTheReferenceSlot(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        long[] dims = randomDims(r);
        ArrayShape s = randomShape(r, dims);
        Optional<CarryFormula> f = CarryFormula.of(s);
        f.ifPresent(c -> s.forEachIndex(e ->
                assertEquals(ReferenceIndex.linearIndex(s, e), c.slot(e), () -> s + " " + c + " at " + Arrays.toString(e))));
        long[] strides = new long[dims.length];
        for (int d = 0; d < dims.length; d++) {
            strides[d] = r.nextInt(20) - 5;
        }
        CarryFormula strided = CarryFormula.strided(strides);
        assertEquals(0, strided.carries());
        s.forEachIndex(e -> {
            long want = 0;
            for (int d = 0; d < e.length; d++) {
                want += e[d] * strides[d];
            }
            assertEquals(want, strided.slot(e));
        });
    }

    @Test
    void powerOfTwoTilesHaveACarryFormulaAndOthersNone() {
        CarryFormula t = CarryFormula.of(ArrayShape.parse("f32[16,256]{1,0:T(8,128)}")).orElseThrow();
        assertEquals(1, t.carries());
        assertEquals(128, t.stride(0));   // a row moves 128 slots inside a tile
        assertEquals(7, t.midShift(1));   // the column's second digit is j >>> 7 (a tile of 128)
        assertTrue(CarryFormula.of(ArrayShape.parse("bf16[16,256]{1,0:T(8,128)(2,1)}")).isPresent());
        assertTrue(CarryFormula.of(ArrayShape.parse("f32[6,6]{1,0:T(3,3)}")).isEmpty());
        assertTrue(CarryFormula.of(ArrayShape.parse("f32[4,6]{0,1}")).orElseThrow().isPlain(0));
    }

    @Test
    void rowMajorAgainstColumnMajorIsOneDigitADimensionWithBothStrides() {
        ArrayShape rm = ArrayShape.parse("f32[3,5]{1,0}");
        ArrayShape cm = ArrayShape.parse("f32[3,5]{0,1}");
        DigitSpace s = DigitSpace.of(rm.dimensions(), List.of(SlotFormula.of(rm).orElseThrow(),
                SlotFormula.of(cm).orElseThrow())).orElseThrow();
        assertEquals(2, s.digitCount());
        assertEquals(List.of(5L, 1L), List.of(s.weight(0, 0), s.weight(0, 1)));
        assertEquals(List.of(1L, 3L), List.of(s.weight(1, 0), s.weight(1, 1)));
        assertEquals(1, s.boxes().size());
        // a tile of 2 rows over 3 rows: the row splits into two digits, and two boxes cover the rows
        ArrayShape tiled = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
        DigitSpace t = DigitSpace.of(rm.dimensions(), List.of(SlotFormula.of(rm).orElseThrow(),
                SlotFormula.of(tiled).orElseThrow())).orElseThrow();
        assertEquals(4, t.digitCount());
        assertEquals(4, t.boxes().size());   // rows {0,1} | {2} times columns {0..3} | {4}
    }

    @Test
    void normalisingMergesContiguousLoopsAndDropsOnes() {
        // a 4x1x6 row-major walk with a second operand of the same strides: one loop of 24
        StridedNest n = StridedNest.of(new long[] {4, 1, 6}, new long[][] {{6, 99, 1}, {6, 0, 1}}, new long[] {0, 3});
        assertEquals(1, n.depth());
        assertEquals(24, n.extent(0));
        assertEquals(3, n.inputCount(0));
        assertTrue(n.isRuns());
        // the second operand column-major: no merge, strides kept per operand
        StridedNest t = StridedNest.of(new long[] {4, 6}, new long[][] {{6, 1}, {1, 4}}, new long[] {0, 0});
        assertEquals(2, t.depth());
        assertEquals(4, t.stride(1, 1));
        assertFalse(t.isRuns());
        assertTrue(StridedNest.of(new long[] {3, 0}, new long[][] {{1, 1}}, new long[] {0}).isEmpty());
    }

    // ---- walks of nests, element by element ----------------------------------------------------

    interface SlotsVisitor {
        void visit(long[] slots);
    }

    static void walk(StridedNest n, SlotsVisitor v) {
        if (n.isEmpty()) {
            return;
        }
        long[][] strides = new long[n.operandCount()][];
        long[] offsets = new long[n.operandCount()];
        for (int x = 0; x < n.operandCount(); x++) {
            strides[x] = n.strides(x);
            offsets[x] = n.offset(x);
        }
        walk(n.extents(), strides, offsets, v);
    }

    static void walk(long[] extents, long[][] strides, long[] offsets, SlotsVisitor v) {
        for (long e : extents) {
            if (e == 0) {
                return;
            }
        }
        int depth = extents.length;
        long[] idx = new long[depth];
        while (true) {
            long[] slots = offsets.clone();
            for (int x = 0; x < slots.length; x++) {
                for (int k = 0; k < depth; k++) {
                    slots[x] += idx[k] * strides[x][k];
                }
            }
            v.visit(slots);
            int k = depth - 1;
            while (k >= 0 && ++idx[k] == extents[k]) {
                idx[k] = 0;
                k--;
            }
            if (k < 0) {
                return;
            }
        }
    }
}
