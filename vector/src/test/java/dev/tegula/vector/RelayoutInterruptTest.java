package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing a shared arena while a relayout reads or writes its memory makes the JVM interrupt the
 * thread it finds inside the access (to wake it for the exception it delivers). A relayout that
 * interrupted no thread leaves none interrupted: not the caller, with or without an executor, and
 * not the executor's threads; an interrupt the caller had before the call is kept.
 */
@Timeout(120)
class RelayoutInterruptTest {
    private static final int TRIES = 200;
    /** 4 MiB arrays, large enough to be shared between threads: a bulk copy and a transpose. */
    private static final ArrayShape FROM = ArrayShape.parse("f32[1024,1024]{1,0}");
    private static final List<ArrayShape> TO = List.of(FROM, ArrayShape.parse("f32[1024,1024]{0,1}"));

    @Test
    void closingASharedArenaDuringCopyLeavesTheCallerNotInterrupted() throws Exception {
        race(null, 1);
    }

    @Test
    void closingASharedArenaDuringAParallelCopyLeavesNoThreadInterrupted() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "interrupt-test");
            t.setDaemon(true);
            return t;
        });
        Watched watched = new Watched(pool);
        try {
            race(watched, 2);
            assertEquals(List.of(), watched.leftInterrupted, "tasks that ended with their thread interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterruptTheCallerAlreadyHadIsKept() {
        try (Arena arena = Arena.ofShared()) {
            Array src = Array.allocate(arena, FROM);
            Array dst = Array.allocate(arena, TO.get(1));
            Thread.currentThread().interrupt();
            try {
                Relayout.copy(src, dst);
                assertTrue(Thread.currentThread().isInterrupted(), "the caller's own interrupt was lost");
            } finally {
                Thread.interrupted();
            }
        }
    }

    /**
     * Copies between two arrays of one shared arena {@link #TRIES} times while another thread closes
     * the arena at a different moment each time, and checks the caller's interrupt flag after each.
     */
    private static void race(ExecutorService executor, int parallelism) throws Exception {
        assertFalse(Thread.currentThread().isInterrupted());
        // warm the kernels up, so that the closes land inside compiled loops as well as interpreted ones
        try (Arena arena = Arena.ofShared()) {
            Array src = Array.allocate(arena, FROM);
            for (ArrayShape to : TO) {
                Array dst = Array.allocate(arena, to);
                for (int i = 0; i < 10; i++) {
                    copy(src, dst, executor, parallelism);
                }
            }
        }
        int left = 0;
        int closedDuring = 0;
        for (int i = 0; i < TRIES; i++) {
            Arena arena = Arena.ofShared();
            Array src = Array.allocate(arena, FROM);
            Array dst = Array.allocate(arena, TO.get(i % TO.size()));
            long delayNanos = 20_000L * (i % 50);
            Thread closer = Thread.ofPlatform().start(() -> {
                LockSupport.parkNanos(delayNanos);
                arena.close();
            });
            try {
                while (closer.isAlive()) {
                    copy(src, dst, executor, parallelism);
                }
            } catch (IllegalStateException closed) {
                closedDuring++;
            }
            if (Thread.interrupted()) {
                left++;
            }
            closer.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertEquals(0, left, "copies after which the caller was left interrupted, of " + TRIES + " ("
                + closedDuring + " ended by the close)");
        assertTrue(closedDuring > 0, "no copy was ended by a close: the race was not run");
    }

    private static void copy(Array src, Array dst, ExecutorService executor, int parallelism) {
        if (executor == null) {
            Relayout.copy(src, dst);
        } else {
            Relayout.copy(src, dst, executor, parallelism);
        }
    }

    /** An executor that runs tasks on a pool and notes every task after which its thread was interrupted. */
    private static final class Watched extends AbstractExecutorService {
        private final ExecutorService pool;
        final List<String> leftInterrupted = new CopyOnWriteArrayList<>();
        private final AtomicInteger count = new AtomicInteger();

        Watched(ExecutorService pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            int n = count.incrementAndGet();
            pool.execute(() -> {
                task.run();
                if (Thread.interrupted()) {
                    leftInterrupted.add("task " + n);
                }
            });
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }
    }
}
