package dev.tegula.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Sharing a plan's work between threads, in one place: how a range is cut into parts, running the
 * parts and waiting for them (whether a segment may be used by other threads is
 * {@link dev.tegula.ffm.internal.ThreadAccess}'s answer). Stateless and thread-safe.
 */
final class Tasks {
    /** Below this many bytes a loop nest (or a pack) is not split between threads. */
    static final long MIN_PARALLEL_BYTES = 1L << 21;

    private Tasks() {
    }

    /** A part of a range: indices {@code [from, to)}. */
    @FunctionalInterface
    interface Part {
        void run(long from, long to);
    }


    /**
     * Runs {@code [0, extent)} as {@code tasks} parts of nearly equal size, each boundary a multiple
     * of {@code align} (where the parts stay non-empty), each part a task of {@code executor};
     * returns when all are done. One task (or no executor) runs the whole range on the calling thread.
     *
     * @throws IllegalStateException if interrupted while waiting (the interrupt flag is set again)
     */
    static void forEachPart(ExecutorService executor, int tasks, long extent, long align, Part part) {
        int n = executor == null ? 1 : (int) Math.max(1, Math.min(tasks, extent));
        if (n == 1) {
            part.run(0, extent);
            return;
        }
        long a = extent / n >= align ? align : 1;
        List<Future<?>> futures = new ArrayList<>(n);
        long lo = 0;
        for (int k = 0; k < n; k++) {
            long hi = k == n - 1 ? extent : extent * (k + 1) / n / a * a;
            long from = lo;
            futures.add(executor.submit(() -> part.run(from, hi)));
            lo = hi;
        }
        await(futures, null);
    }

    /**
     * Waits for every future; rethrows {@code failure} or else the first failure (a checked cause
     * wrapped in {@link IllegalStateException}) with the later ones suppressed.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    static void await(List<Future<?>> futures, RuntimeException failure) {
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
