package dev.tegula.vector;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Sharing a plan's work between threads: whether a segment may be used by other threads, and
 * waiting for submitted parts. Stateless and thread-safe.
 */
final class Tasks {
    /** Below this many bytes a loop nest (or a pack) is not split between threads. */
    static final long MIN_PARALLEL_BYTES = 1L << 21;

    private static final Thread PROBE = new Thread(() -> { });

    private Tasks() {
    }

    /** {@return true if the segment may be used from threads other than the caller's (shared or global arena)} */
    static boolean sharable(MemorySegment seg) {
        return seg.isAccessibleBy(PROBE);
    }

    /**
     * Waits for every future; rethrows the first failure (a checked cause wrapped in
     * {@link IllegalStateException}) with the later ones suppressed.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    static void await(List<Future<?>> futures) {
        RuntimeException failure = null;
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
