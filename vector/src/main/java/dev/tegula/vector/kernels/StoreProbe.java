package dev.tegula.vector.kernels;

import dev.tegula.ffm.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The probe of the two store bandwidths the estimate compares: a block that sits in the caches
 * written out to a destination in memory with plain stores ({@link MemorySegment#copy}, as a
 * staged transpose copies its block out) and with streaming stores ({@link StreamStores#copy2d}).
 * The block is {@link #BLOCK_ROWS} rows of {@link #ROW_BYTES} bytes; the destination
 * {@link #DESTINATION_BYTES}, the smallest the estimate streams, written whole each pass, so most of
 * its lines leave the caches before the next pass. Each pass copies the block out whole, one JDK
 * copy per block or one call of the routine per {@link #UNIT_BLOCKS} blocks (the copying is the
 * JDK's and the routine's own code, fast from the first call: no loop of the probe's waits for
 * the JIT). Each way runs {@link #PASSES} times, in turn, streaming
 * first (its stores take the destination's lines out of the caches, so the plain pass after it
 * finds none there). Each unit of {@link #UNIT_BLOCKS} blocks is timed, and each way's bandwidth is
 * that of its units' fastest writes: the very first pass also takes the page faults of the destination's first touch
 * (it is not filled first), and a pass the scheduler cut into loses only the blocks it was cut in. Some tens of megabytes written, once per JVM. Stateless; thread-safe.
 */
public final class StoreProbe {
    private StoreProbe() {
    }

    /** Bytes of each row of the block. */
    static final long ROW_BYTES = 2048;
    /** Rows of the block. */
    static final long BLOCK_ROWS = 64;
    /** Bytes of the destination each pass writes. */
    public static final long DESTINATION_BYTES = 32L << 20;
    /**
     * Blocks of each timed unit: written with one call of the streaming routine (the block read again
     * for each), so the cost of a call, high while the JIT has not compiled the call's path, is
     * shared by a MiB of stores.
     */
    static final int UNIT_BLOCKS = 8;
    /** Passes of each way. */
    static final int PASSES = 2;

    /**
     * {@return the bytes per nanosecond written with plain stores and with streaming stores (0 where
     * the streaming routine is not there), in that order}
     */
    public static double[] measure() {
        long block = ROW_BYTES * BLOCK_ROWS;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(block, 64);
            MemorySegment dst = HostMemory.allocate(arena, DESTINATION_BYTES, 4096);
            for (long i = 0; i < block; i += 8) {
                src.set(java.lang.foreign.ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            boolean streams = StreamStores.available();
            long[] plain = unrun(dst);
            long[] streamed = unrun(dst);
            for (int p = 0; p < PASSES; p++) {
                if (streams) {
                    pass(src, dst, true, streamed);
                }
                pass(src, dst, false, plain);
            }
            return new double[] {rate(plain), streams ? rate(streamed) : 0};
        }
    }

    /** {@return one time per block of the destination, each longer than any run} */
    private static long[] unrun(MemorySegment dst) {
        long[] t = new long[(int) (dst.byteSize() / (ROW_BYTES * BLOCK_ROWS * UNIT_BLOCKS))];
        java.util.Arrays.fill(t, Long.MAX_VALUE);
        return t;
    }

    /**
     * Writes the whole destination once, block by block, keeping in {@code best} each unit's
     * ({@link #UNIT_BLOCKS} blocks) fastest write so far: a pass the scheduler cut into (on a
     * loaded machine) loses only the units it was cut in, which another pass wrote at speed.
     */
    private static void pass(MemorySegment src, MemorySegment dst, boolean streaming, long[] best) {
        long block = ROW_BYTES * BLOCK_ROWS;
        long t0 = System.nanoTime();
        for (int i = 0; i < best.length; i++) {
            long at = i * block * UNIT_BLOCKS;
            if (streaming) {
                StreamStores.copy2d(src, 0, 0, dst, at, block, UNIT_BLOCKS, block);
            } else {
                for (int k = 0; k < UNIT_BLOCKS; k++) {
                    MemorySegment.copy(src, 0, dst, at + k * block, block);
                }
            }
            long t1 = System.nanoTime();
            best[i] = Math.min(best[i], t1 - t0);
            t0 = t1;
        }
    }

    /** {@return bytes per nanosecond of the blocks' fastest writes, summed} */
    private static double rate(long[] best) {
        long nanos = 0;
        for (long t : best) {
            nanos += t;
        }
        return Math.round(100.0 * best.length * ROW_BYTES * BLOCK_ROWS * UNIT_BLOCKS / Math.max(1, nanos)) / 100.0;
    }
}
