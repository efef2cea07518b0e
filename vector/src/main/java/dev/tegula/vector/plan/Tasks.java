package dev.tegula.vector.plan;

import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sharing a plan's work between threads, in one place: how a range is cut into shares and chunks,
 * running the chunks and waiting for them (whether a segment may be used by other threads is
 * {@link dev.tegula.ffm.internal.ThreadAccess}'s answer). Stateless and thread-safe.
 */
public final class Tasks {
    /** Below this many bytes a loop nest (or a pack) is not split between threads. */
    public static final long MIN_PARALLEL_BYTES = 1L << 21;

    private Tasks() {
    }

    /** Work on a chunk of a range: indices {@code [from, to)}. */
    @FunctionalInterface
    public interface Chunk {
        void run(long from, long to);
    }

    /** Each task's share is cut into this many chunks, the grain at which a task done early takes work. */
    public static final int CHUNKS_PER_SHARE = 8;

    /**
     * Runs {@code [0, extent)} in {@code tasks} tasks of {@code executor} and returns when every index
     * has been run once. Each task owns a share, one of {@code tasks} far apart ranges of nearly equal
     * size, and goes through it from its start, a chunk at a time (about a {@link #CHUNKS_PER_SHARE}th
     * of the share); a task whose own share is done takes chunks from the far end of the share with
     * the most left, so a slower thread or a task started late does not hold up the whole. Share and
     * chunk boundaries are multiples of {@code align} (where the shares stay non-empty). One task (or
     * no executor) runs the whole range on the calling thread, in one call of {@code chunk}.
     *
     * <p>{@code memory} names the segments the chunks access: a task whose thread the JVM
     * interrupted because an arena of theirs was closed under it ends with the interrupt cleared
     * ({@link ThreadAccess#restoreInterrupt}), so the executor's threads are left as they were found.
     * The calling thread's own status is its caller's to restore.
     *
     * @throws IllegalStateException if interrupted while waiting (the interrupt flag is set again)
     */
    public static void forEachChunk(ExecutorService executor, int tasks, long extent, long align, Chunk chunk,
                                    MemorySegment... memory) {
        int n = executor == null ? 1 : (int) Math.max(1, Math.min(tasks, extent));
        if (n == 1) {
            chunk.run(0, extent);
            return;
        }
        long a = extent / n >= align ? align : 1;
        Range[] ranges = new Range[n];
        long lo = 0;
        for (int k = 0; k < n; k++) {
            long hi = k == n - 1 ? extent : extent * (k + 1) / n / a * a;
            long grain = Math.max(a, (hi - lo) / CHUNKS_PER_SHARE / a * a);
            ranges[k] = new Range(lo, hi, grain, a);
            lo = hi;
        }
        List<Future<?>> futures = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            Range own = ranges[k];
            futures.add(executor.submit(() -> {
                boolean before = ThreadAccess.interruptedNow();
                try {
                    long[] got = new long[2];
                    while (own.take(true, got)) {
                        chunk.run(got[0], got[1]);
                    }
                    Range other;
                    while ((other = mostLeft(ranges)) != null) {
                        if (other.take(false, got)) {
                            chunk.run(got[0], got[1]);
                        }
                    }
                } finally {
                    ThreadAccess.restoreInterrupt(before, memory);
                }
            }));
        }
        await(futures, null);
    }

    /** {@return the range with the most indices left, or null when all are done} */
    private static Range mostLeft(Range[] ranges) {
        Range best = null;
        long most = 0;
        for (Range r : ranges) {
            long left = r.left();
            if (left > most) {
                most = left;
                best = r;
            }
        }
        return best;
    }

    /** One task's share {@code [front, back)}: its owner takes chunks at the front, others at the back. */
    private static final class Range {
        private final ReentrantLock lock = new ReentrantLock();
        private final long grain;
        private final long align;
        private long front;
        private long back;

        Range(long front, long back, long grain, long align) {
            this.align = align;
            this.front = front;
            this.back = back;
            this.grain = grain;
        }

        long left() {
            lock.lock();
            try {
                return back - front;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Takes the next chunk into {@code got} ({@code [got[0], got[1])}): at the front for the
         * owner, else at the back (cut on a multiple of the alignment); false when none is left.
         */
        boolean take(boolean atFront, long[] got) {
            lock.lock();
            try {
                if (front >= back) {
                    return false;
                }
                if (atFront) {
                    got[0] = front;
                    front = back - front <= grain ? back : front + grain;
                    got[1] = front;
                } else {
                    got[1] = back;
                    long cut = (back - grain) / align * align;
                    back = cut <= front ? front : cut;
                    got[0] = back;
                }
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits for every future; rethrows {@code failure} or else the first failure (a checked cause
     * wrapped in {@link IllegalStateException}) with the later ones suppressed.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    public static void await(List<Future<?>> futures, RuntimeException failure) {
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                RuntimeException r = c instanceof RuntimeException re ? re : new IllegalStateException(c);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for relayout tasks", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
