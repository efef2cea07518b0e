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
 * its lines leave the caches before the next pass. Each pass copies the block out whole, one call
 * per block (the copying is the JDK's and the routine's own code, fast from the first call: no
 * loop of the probe's waits for the JIT). Each way runs {@link #PASSES} times, in turn, streaming
 * first (its stores take the destination's lines out of the caches, so the plain pass after it
 * finds none there), and keeps its faster pass: the very first pass also takes the page faults of
 * the destination's first touch (it is not filled first), so the second pass of that way counts. Some tens of megabytes written, once per JVM. Stateless; thread-safe.
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
            long plain = Long.MAX_VALUE;
            long streamed = Long.MAX_VALUE;
            for (int p = 0; p < PASSES; p++) {
                if (streams) {
                    streamed = Math.min(streamed, pass(src, dst, true));
                }
                plain = Math.min(plain, pass(src, dst, false));
            }
            return new double[] {rate(plain), streams ? rate(streamed) : 0};
        }
    }

    /** {@return nanoseconds to write the whole destination once, block by block} */
    private static long pass(MemorySegment src, MemorySegment dst, boolean streaming) {
        long block = ROW_BYTES * BLOCK_ROWS;
        long t0 = System.nanoTime();
        for (long at = 0; at + block <= dst.byteSize(); at += block) {
            if (streaming) {
                StreamStores.copy2d(src, 0, block, dst, at, block, 1, block);
            } else {
                MemorySegment.copy(src, 0, dst, at, block);
            }
        }
        return Math.max(1, System.nanoTime() - t0);
    }

    private static double rate(long nanos) {
        return Math.round(100.0 * DESTINATION_BYTES / nanos) / 100.0;
    }
}
