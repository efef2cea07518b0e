package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A relayout of more than 4 GiB, so that every offset in the planner and kernels must be a
 * {@code long}: {@code u8[70000,70000]} (4.56 GiB) row-major into column-major, then the same source
 * into {@code {1,0:T(8,128)}} (tile padding included) in the same destination memory. Element
 * {@code (i, j)} holds {@code (13 i + 7 j) mod 251}, not symmetric, so a transpose that swaps the
 * wrong way shows; the result is compared with that formula and with the source read through
 * {@link ArrayShape#linearIndex} on a few thousand sampled positions (corners and the last tile
 * included), and padding slots are checked to be zero. Two 4.6 GiB buffers in a confined arena,
 * released at the end.
 */
class LargeRelayoutTest {
    private static final long N = 70_000;

    @Test
    @Timeout(180)
    void moreThanFourGibibytesRowMajorToColumnMajorAndTiled() {
        ArrayShape from = ArrayShape.parse("u8[70000,70000]{1,0}");
        ArrayShape columnMajor = ArrayShape.parse("u8[70000,70000]{0,1}");
        ArrayShape tiled = ArrayShape.parse("u8[70000,70000]{1,0:T(8,128)}");
        assertTrue(from.bufferSize() > (4L << 30));
        try (Arena arena = Arena.ofConfined()) {
            Array src = Array.allocate(arena, from);
            fill(src.segment());
            MemorySegment dstMemory = arena.allocate(Math.max(columnMajor.bufferSize(), tiled.bufferSize()), 4096);
            for (ArrayShape to : new ArrayShape[] {columnMajor, tiled}) {
                Array dst = Array.wrap(dstMemory, to);
                RelayoutPlan plan = Relayout.plan(from, to);
                plan.execute(src, dst);
                check(src, dst, plan);
            }
        }
    }

    /** Row i is the pattern {@code p[k] = 7k mod 251} from offset {@code 217 i mod 251}: value {@code (13 i + 7 j) mod 251}. */
    private static void fill(MemorySegment s) {
        MemorySegment pattern = MemorySegment.ofArray(new byte[(int) N + 251]);
        for (int k = 0; k < pattern.byteSize(); k++) {
            pattern.set(ValueLayout.JAVA_BYTE, k, (byte) (7 * k % 251));
        }
        for (long i = 0; i < N; i++) {
            MemorySegment.copy(pattern, 217 * i % 251, s, i * N, N);   // 7 * 217 = 13 (mod 251)
        }
    }

    private static long expected(long i, long j) {
        return (13 * i + 7 * j) % 251;
    }

    private static void check(Array src, Array dst, RelayoutPlan plan) {
        ArrayShape to = dst.shape();
        String what = to + " via " + plan.describe();
        Random r = new Random(42);
        long[][] corners = {{0, 0}, {0, N - 1}, {N - 1, 0}, {N - 1, N - 1}, {N / 2, N / 3}, {69_999, 69_888}};
        for (int k = 0; k < 4000 + corners.length; k++) {
            long i = k < corners.length ? corners[k][0] : r.nextLong(N);
            long j = k < corners.length ? corners[k][1] : r.nextLong(N);
            long fromSlot = src.shape().linearIndex(i, j);
            long toSlot = to.linearIndex(i, j);
            long want = src.segment().get(ValueLayout.JAVA_BYTE, fromSlot) & 0xFF;
            assertEquals(expected(i, j), want, "source (" + i + "," + j + ")");
            assertEquals(want, dst.segment().get(ValueLayout.JAVA_BYTE, toSlot) & 0xFF,
                    () -> what + " at (" + i + "," + j + "), slot " + toSlot);
            assertEquals(want, dst.getLong(i, j), what);
        }
        // padding slots (tiled: the columns 70000..70015 of the last tile column) hold zero
        long slots = to.slotCount();
        for (int k = 0; k < 2000; k++) {
            long slot = k < 16 ? slots - 1 - k : r.nextLong(slots);
            if (!to.isElementSlot(slot)) {
                assertEquals(0, dst.segment().get(ValueLayout.JAVA_BYTE, slot), what + " padding slot " + slot);
            }
        }
        assertTrue(slots >= N * N);
    }
}
