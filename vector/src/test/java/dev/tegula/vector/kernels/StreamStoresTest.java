package dev.tegula.vector.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tegula.ffm.internal.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming 2-D copy ({@link StreamStores}) against row-by-row {@link MemorySegment#copy}: every
 * destination and source alignment in a 64-byte line, every row length up to 300 bytes (heads, whole
 * lines and tails), several rows and strides, and every byte around the destination block untouched;
 * its checks; the off switch and the reasons it gives. vector/pom.xml runs this class at the machine's
 * widest vectors, at {@code -XX:UseAVX=2} and with the scalar kernels and
 * {@code -Dtegula.relayout.streamStores=false} (the plain copy).
 */
class StreamStoresTest {
    private static final int SPAN = 1024;

    /** Fills {@code s} with bytes of {@code seed}. */
    private static void fill(MemorySegment s, long seed) {
        Random r = new Random(seed);
        for (long k = 0; k < s.byteSize(); k++) {
            s.set(ValueLayout.JAVA_BYTE, k, (byte) r.nextInt());
        }
    }

    /** A source and garbage of random bytes (seeds {@code seed} and {@code seed + 1}), and two destinations, 64-byte aligned. */
    private record Buffers(MemorySegment src, MemorySegment dst, MemorySegment expected, MemorySegment garbage) {
        static Buffers of(Arena arena, long span, long seed) {
            Buffers b = new Buffers(arena.allocate(span, 64), arena.allocate(span, 64), arena.allocate(span, 64),
                    arena.allocate(span, 64));
            fill(b.src(), seed);
            fill(b.garbage(), seed + 1);
            return b;
        }
    }

    /** Copies with the routine and with plain row copies from the same start, and compares all of both destinations. */
    private static void check(MemorySegment src, long so, long ss, MemorySegment dst, MemorySegment expected,
                              MemorySegment garbage, long dO, long ds, long rows, long rowBytes) {
        MemorySegment.copy(garbage, 0, dst, 0, dst.byteSize());
        MemorySegment.copy(garbage, 0, expected, 0, expected.byteSize());
        for (long r = 0; r < rows; r++) {
            MemorySegment.copy(src, so + r * ss, expected, dO + r * ds, rowBytes);
        }
        StreamStores.copy2d(src, so, ss, dst, dO, ds, rows, rowBytes);
        long at = dst.mismatch(expected);
        assertEquals(-1, at, () -> "first differing byte " + at + " (dst offset " + dO + ", src offset " + so
                + ", rows " + rows + ", rowBytes " + rowBytes + ", strides " + ss + "/" + ds + ", streaming "
                + StreamStores.available() + ")");
    }

    @Test
    void everyAlignmentAndRowLengthCopiesLikePlainCopies() {
        try (Arena arena = Arena.ofConfined()) {
            Buffers x = Buffers.of(arena, SPAN, 1);
            MemorySegment src = x.src();
            MemorySegment dst = x.dst();
            MemorySegment expected = x.expected();
            MemorySegment garbage = x.garbage();
            for (int dA = 0; dA < 64; dA++) {
                for (int sA = 0; sA < 64; sA++) {
                    for (int n = 0; n <= 300; n++) {
                        // two rows: the second starts at another alignment (stride n + 5 and n + 3)
                        check(src, sA, n + 5, dst, expected, garbage, dA, n + 3, 2, n);
                    }
                }
            }
        }
    }

    @Test
    void manyRowsAtManyStridesCopyLikePlainCopies() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(64 * SPAN, 64);
            MemorySegment dst = arena.allocate(64 * SPAN, 64);
            MemorySegment expected = arena.allocate(64 * SPAN, 64);
            MemorySegment garbage = arena.allocate(64 * SPAN, 64);
            fill(src, 3);
            fill(garbage, 4);
            for (long rows : new long[] {1, 3, 16, 61}) {
                for (long rowBytes : new long[] {1, 63, 64, 128, 200, 640, 1000}) {
                    for (long extra : new long[] {0, 1, 48, 64, 4096 - 640}) {
                        long ds = rowBytes + extra;
                        long ss = rowBytes + (extra * 3) % 97;
                        if ((rows - 1) * Math.max(ss, ds) + rowBytes + 64 <= 64 * SPAN) {
                            check(src, 7, ss, dst, expected, garbage, 64 - rows % 64, ds, rows, rowBytes);
                            check(src, 0, ss, dst, expected, garbage, 0, ds, rows, rowBytes);
                        }
                    }
                }
            }
        }
    }

    @Test
    void heapSegmentsCopyLikePlainCopies() {
        MemorySegment src = MemorySegment.ofArray(new byte[4096]);
        MemorySegment dst = MemorySegment.ofArray(new long[512]);
        MemorySegment expected = MemorySegment.ofArray(new byte[4096]);
        MemorySegment garbage = MemorySegment.ofArray(new byte[4096]);
        fill(src, 5);
        fill(garbage, 6);
        check(src, 3, 700, dst, expected, garbage, 9, 1000, 4, 650);
    }

    @Test
    void badBlocksAreRefusedWithTheirValues() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(256);
            MemorySegment d = arena.allocate(256);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamStores.copy2d(s, 0, 8, d, 0, -8, 2, 8))
                    .getMessage().contains("dstStride -8"));
            assertThrows(IllegalArgumentException.class, () -> StreamStores.copy2d(s, 0, 8, d, 0, 8, -1, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> StreamStores.copy2d(s, 0, 100, d, 0, 8, 3, 57));
            assertThrows(IndexOutOfBoundsException.class, () -> StreamStores.copy2d(s, 0, 8, d, 250, 8, 1, 7));
            assertThrows(ArithmeticException.class,
                    () -> StreamStores.copy2d(s, 0, Long.MAX_VALUE / 2, d, 0, 8, 4, 8));
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> StreamStores.copy2d(s, 0, 8, d.asReadOnly(), 0, 8, 2, 8)).getMessage().contains("read-only"));
            StreamStores.copy2d(s, 0, 8, d, 256, 8, 0, 8);   // nothing to copy: no bounds to check
        }
    }

    @Test
    void blocksLargerThanOneCallCopyLikePlainCopies() {
        long call = StreamStores.CALL_BYTES;
        try (Arena arena = Arena.ofConfined()) {
            // rows longer than a call, and many short rows that take several calls, from odd offsets
            long[][] blocks = {{3, call + 100, call + 164, call + 228}, {2 * call / 1000 + 7, 1000, 1100, 1037}};
            for (long[] k : blocks) {
                long rows = k[0];
                long rowBytes = k[1];
                long ss = k[2];
                long ds = k[3];
                Buffers x = Buffers.of(arena, (rows - 1) * Math.max(ss, ds) + rowBytes + 128, 3);
                check(x.src(), 5, ss, x.dst(), x.expected(), x.garbage(), 19, ds, rows, rowBytes);
            }
        }
    }

    @Test
    void theSwitchAndOtherPlatformsSayWhyThereIsNoRoutine() {
        assertTrue(StreamStores.refusal("false", "Linux", "amd64").contains("tegula.relayout.streamStores=false"));
        assertTrue(StreamStores.refusal(" FALSE ", "Linux", "amd64").contains("=false"));
        assertTrue(StreamStores.refusal(null, "Linux", "aarch64").contains("aarch64"));
        assertTrue(StreamStores.refusal(null, "Mac OS X", "x86_64").contains("Mac OS X"));
        assertNull(StreamStores.refusal(null, "Linux", "amd64"));
        assertNull(StreamStores.refusal("true", "Linux", "x86_64"));
    }

    @Test
    void theRoutineIsThereUnlessSwitchedOffOrNotLinuxX8664() {
        assertEquals(StreamStores.available(), StreamStores.unavailableReason() == null);
        String planned = StreamStores.refusal(System.getProperty(StreamStores.PROPERTY), System.getProperty("os.name"),
                System.getProperty("os.arch"));
        if (planned != null) {
            assertFalse(StreamStores.available());
            assertEquals(planned, StreamStores.unavailableReason());
        } else {
            assumeTrue(Libc.hasMemoryCalls(), "no C library binding here");
            assertTrue(StreamStores.available(), StreamStores.unavailableReason());
        }
    }
}
