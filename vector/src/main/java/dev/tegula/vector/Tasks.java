package dev.tegula.vector;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Sharing a plan's work between threads: waiting for submitted parts (whether a segment may be used
 * by other threads is {@link dev.tegula.ffm.internal.ThreadAccess}'s answer). Stateless and thread-safe.
 */
final class Tasks {
    /** Below this many bytes a loop nest (or a pack) is not split between threads. */
    static final long MIN_PARALLEL_BYTES = 1L << 21;

    private Tasks() {
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
