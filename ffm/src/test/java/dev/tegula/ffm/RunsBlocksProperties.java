package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * {@link Runs} over N operands with either inner loop, against the slots the layouts define
 * ({@link Array#slot}, and for dense arrays {@link ArrayShape#linearIndex}): every element is visited
 * once, element {@code k} of an inner loop lies at {@code slot(x) + k·slotStride(x)} in every operand
 * (bytes: {@code offset(x) + k·stride(x)}), no inner loop is longer than the caller allows, a logical
 * walk keeps its order, and runs have stride 1.
 */
class RunsBlocksProperties {

    @Property(tries = 250)
    void everyOperandsInnerLoopsLieAtTheSlotsItsLayoutDefines(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims = RunsProperties.randomDims(r);
            int m = 1 + r.nextInt(4);
            Array[] ops = new Array[m];
            for (int x = 0; x < m; x++) {
                ops[x] = RunsProperties.randomArray(r, arena, dims);
            }
            int[] order = RunsProperties.randomOrder(r, dims.length);
            Runs.InnerLoop inner = r.nextInt(3) == 0 ? Runs.InnerLoop.RUNS
                    : Runs.InnerLoop.strided(r.nextBoolean() ? Long.MAX_VALUE : 1 + r.nextInt(9));
            check(ops, order, inner);
        }
    }

    @Test
    void rowMajorAgainstColumnMajorGivesRowsWithAStrideEach() {
        try (Arena arena = Arena.ofConfined()) {
            Array y = Array.allocate(arena, ArrayShape.parse("f32[6,10]{1,0}"));
            Array x = Array.allocate(arena, ArrayShape.parse("f32[6,10]{0,1}"));
            Array t = Array.allocate(arena, ArrayShape.parse("f32[6,10]{1,0:T(2,4)}"));
            Runs r = Runs.blocks(1 << 20, y, x);
            int blocks = 0;
            while (r.next()) {
                assertEquals(10, r.length());          // a whole row of y
                assertEquals(4, r.stride(0));          // y: the next element
                assertEquals(6 * 4, r.stride(1));      // x: the next column, 6 rows on
                assertEquals(1, r.slotStride(0));
                assertEquals(6, r.slotStride(1));
                blocks++;
            }
            assertEquals(6, blocks);
            // the buffer size cuts each row
            Runs cut = Runs.blocks(4, y, x);
            long total = 0;
            int count = 0;
            while (cut.next()) {
                assertTrue(cut.length() <= 4);
                total += cut.length();
                count++;
            }
            assertEquals(60, total);
            assertEquals(6 * 3, count);               // 4 + 4 + 2 a row
            // runs of the same pair: one element each
            Runs runs = Runs.of(y, x);
            int ones = 0;
            while (runs.next()) {
                assertEquals(1, runs.length());
                ones++;
            }
            assertEquals(60, ones);
            // three operands, one of them tiled: blocks stay within what all three walk with one stride
            Runs three = Runs.blocks(1 << 20, y, x, t);
            while (three.next()) {
                assertTrue(three.length() <= 4, "a tile row of T(2,4) is 4 elements");
            }
        }
    }

    @Test
    void refusesAClosedArenaAndAnotherThreadAtOnce() throws Exception {
        Arena arena = Arena.ofConfined();
        Array a = Array.allocate(arena, ArrayShape.parse("f32[4,6]{1,0}"));
        AtomicReference<Throwable> fromOther = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                Runs.of(a);
            } catch (Throwable t) {
                fromOther.set(t);
            }
        });
        other.start();
        other.join();
        assertTrue(fromOther.get() instanceof WrongThreadException, String.valueOf(fromOther.get()));
        assertEquals(ThreadAccess.WRONG_THREAD, fromOther.get().getMessage());
        Runs before = Runs.of(a);
        arena.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Runs.of(a));
        assertEquals(ThreadAccess.CLOSED, e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Runs.blocks(8, a, a));
        assertEquals(ThreadAccess.CLOSED, e.getMessage());
        e = assertThrows(IllegalStateException.class, before::reset);
        assertEquals(ThreadAccess.CLOSED, e.getMessage());
    }

    @Test
    void refusesPackedLayoutsSayingToRelayout() {
        try (Arena arena = Arena.ofConfined()) {
            Array packed = Array.allocate(arena, ArrayShape.parse("s4[5,7]{1,0:E(4)}"));
            Array plain = Array.allocate(arena, ArrayShape.parse("s4[5,7]{1,0}"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Runs.blocks(16, plain, packed));
            assertTrue(e.getMessage().contains("E(4)") && e.getMessage().contains("relayout"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> Runs.InnerLoop.strided(0));
            assertTrue(e.getMessage().startsWith("maxLength: 0"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Runs.of(new Array[0]));
        }
    }

    /** Walks the inner loops and checks them against every operand's own slots. */
    static void check(Array[] ops, int[] order, Runs.InnerLoop inner) {
        long[] dims = ops[0].shape().dimensions();
        int rank = dims.length;
        long total = Arrays.stream(dims).reduce(1, Math::multiplyExact);
        String what = Arrays.stream(ops).map(x -> x.shape().toString()).collect(Collectors.joining(" and "))
                + " order " + Arrays.toString(order) + " " + inner;
        Runs runs = Runs.of(ops, order, Runs.Padding.SKIP, inner);
        assertEquals(ops.length, runs.operandCount());
        boolean[] seen = new boolean[(int) total];
        long[] idx = new long[rank];
        long visited = 0;
        long previousOrdinal = -1;
        long[] strides = new long[ops.length];
        for (int x = 0; x < ops.length; x++) {
            strides[x] = runs.slotStride(x);
            if (!inner.strided()) {
                assertEquals(1, strides[x], what + ": a run steps one slot");
            }
            assertEquals(strides[x] * ops[x].shape().slotBits() / 8, runs.stride(x), what);
        }
        int[] identity = java.util.stream.IntStream.range(0, rank).toArray();
        while (runs.next()) {
            long len = runs.length();
            assertTrue(len >= 1 && len <= inner.maxLength(), what + ": length " + len);
            for (long k = 0; k < len; k++) {
                runs.index(k, idx);
                if (k == 0) {
                    for (int d = 0; d < rank; d++) {
                        assertEquals(idx[d], runs.index(d), what);
                    }
                }
                int o = (int) RunsProperties.ordinal(idx, dims, identity);
                assertFalse(seen[o], what + ": " + Arrays.toString(idx) + " visited twice");
                seen[o] = true;
                visited++;
                if (order != null) {
                    long ord = RunsProperties.ordinal(idx, dims, order);
                    assertEquals(previousOrdinal + 1, ord, what + ": walk order at " + Arrays.toString(idx));
                    previousOrdinal = ord;
                }
                for (int x = 0; x < ops.length; x++) {
                    Array a = ops[x];
                    assertEquals(strides[x], runs.slotStride(x), what + ": the stride is the walk's");
                    long s = runs.slot(x) + k * runs.slotStride(x);
                    assertEquals(a.slot(idx), s, what + " operand " + x + " at " + Arrays.toString(idx));
                    assertEquals(runs.offset(x) + k * runs.stride(x), s * a.shape().slotBits() / 8, what);
                    if (a.isDense()) {
                        assertEquals(a.shape().linearIndex(idx), s, what);
                    }
                }
            }
        }
        assertEquals(total, visited, what + ": elements covered");
        assertEquals(0, runs.length(), what);
    }
}
