package dev.tegula.vector.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sharing a plan's work between threads, in one place: how a range is cut into parts, running the
 * parts and waiting for them (whether a segment may be used by other threads is
 * {@link dev.tegula.ffm.internal.ThreadAccess}'s answer). Stateless and thread-safe.
 */
public final class Tasks {
    /** Below this many bytes a loop nest (or a pack) is not split between threads. */
    public static final long MIN_PARALLEL_BYTES = 1L << 21;

    private Tasks() {
    }

    /** A part of a range: indices {@code [from, to)}. */
    @FunctionalInterface
    public interface Part {
        void run(long from, long to);
    }

    /** Each thread's half (or part) is cut into this many pieces, the grain at which a thread done early takes work. */
    public static final int PIECES_PER_PART = 8;

    /**
     * Runs {@code [0, extent)} in {@code tasks} tasks of {@code executor} and returns when every index
     * has been run once. Each task owns one of {@code tasks} far apart parts of nearly equal size
     * and goes through it from its start, a piece at a time (about a {@link #PIECES_PER_PART}th of
     * the part); a task whose own part is done takes pieces from the far end of the part with the
     * most left, so a slower thread or a task started late does not hold up the whole. Part and
     * piece boundaries are multiples of {@code align} (where the parts stay non-empty). One task (or
     * no executor) runs the whole range on the calling thread, in one call of {@code part}.
     *
     * @throws IllegalStateException if interrupted while waiting (the interrupt flag is set again)
     */
    public static void forEachPart(ExecutorService executor, int tasks, long extent, long align, Part part) {
        int n = executor == null ? 1 : (int) Math.max(1, Math.min(tasks, extent));
        if (n == 1) {
            part.run(0, extent);
            return;
        }
        long a = extent / n >= align ? align : 1;
        Range[] ranges = new Range[n];
        long lo = 0;
        for (int k = 0; k < n; k++) {
            long hi = k == n - 1 ? extent : extent * (k + 1) / n / a * a;
            long piece = Math.max(a, (hi - lo) / PIECES_PER_PART / a * a);
            ranges[k] = new Range(lo, hi, piece, a);
            lo = hi;
        }
        List<Future<?>> futures = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            Range own = ranges[k];
            futures.add(executor.submit(() -> {
                long[] got = new long[2];
                while (own.take(true, got)) {
                    part.run(got[0], got[1]);
                }
                Range other;
                while ((other = mostLeft(ranges)) != null) {
                    if (other.take(false, got)) {
                        part.run(got[0], got[1]);
                    }
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

    /** One task's part {@code [front, back)}: its owner takes pieces at the front, others at the back. */
    private static final class Range {
        private final ReentrantLock lock = new ReentrantLock();
        private final long piece;
        private final long align;
        private long front;
        private long back;

        Range(long front, long back, long piece, long align) {
            this.align = align;
            this.front = front;
            this.back = back;
            this.piece = piece;
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
         * Takes the next piece into {@code got} ({@code [got[0], got[1])}): at the front for the
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
                    front = back - front <= piece ? back : front + piece;
                    got[1] = front;
                } else {
                    got[1] = back;
                    long cut = (back - piece) / align * align;
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
