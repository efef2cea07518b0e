package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sharing a range between tasks: every index runs exactly once, boundaries keep the alignment, and
 * a task done with its own part takes the rest of a part whose task is held up. Every wait has a
 * timeout.
 */
@Timeout(60)
class TasksTest {

    private record Run(long from, long to, String thread) {
    }

    private static List<Run> runAll(ExecutorService executor, int tasks, long extent, long align) {
        List<Run> runs = Collections.synchronizedList(new ArrayList<>());
        Tasks.forEachChunk(executor, tasks, extent, align,
                (from, to) -> runs.add(new Run(from, to, Thread.currentThread().getName())));
        return runs;
    }

    /** Asserts the runs cover {@code [0, extent)} once, without overlap or empty runs. */
    private static void assertCoversOnce(List<Run> runs, long extent) {
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort((a, b) -> Long.compare(a.from(), b.from()));
        long at = 0;
        for (Run r : sorted) {
            assertEquals(at, r.from(), "runs " + sorted);
            assertTrue(r.to() > r.from(), "empty run " + r);
            at = r.to();
        }
        assertEquals(extent, at, "runs " + sorted);
    }

    @Test
    void everyIndexRunsOnceAndInnerBoundariesAreAligned() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (long extent : new long[] {1, 2, 63, 64, 65, 1000, 4096, 100_003}) {
                for (int tasks : new int[] {1, 2, 3, 7}) {
                    for (long align : new long[] {1, 64}) {
                        List<Run> runs = runAll(pool, tasks, extent, align);
                        assertCoversOnce(runs, extent);
                        if (extent / Math.min(tasks, extent) >= align) {
                            for (Run r : runs) {
                                assertEquals(0, r.from() % align, "from of " + r + ", extent " + extent + ", tasks " + tasks);
                                assertTrue(r.to() == extent || r.to() % align == 0, "to of " + r + ", extent " + extent);
                            }
                        }
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void oneTaskOrNoExecutorRunsTheWholeRangeInOneCall() {
        assertEquals(List.of(new Run(0, 1000, Thread.currentThread().getName())), runAll(null, 4, 1000, 64));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Run> runs = runAll(pool, 1, 1000, 64);
            assertEquals(1, runs.size());
            assertEquals(0, runs.getFirst().from());
            assertEquals(1000, runs.getFirst().to());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTaskDoneWithItsShareTakesTheRestOfAShareHeldUp() throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            long extent = 64 * 64;
            AtomicLong done = new AtomicLong();
            AtomicLong held = new AtomicLong();
            CountDownLatch bothStarted = new CountDownLatch(2);
            CountDownLatch restDone = new CountDownLatch(1);
            Set<String> started = ConcurrentHashMap.newKeySet();
            List<Run> runs = Collections.synchronizedList(new ArrayList<>());
            boolean[] released = new boolean[1];
            Tasks.forEachChunk(pool, 2, extent, 64, (from, to) -> {
                runs.add(new Run(from, to, Thread.currentThread().getName()));
                if (from == 0) {
                    held.set(to - from);    // before the task counts itself started
                }
                try {
                    if (started.add(Thread.currentThread().getName())) {
                        // each task's first call is at the front of its own part
                        bothStarted.countDown();
                        assertTrue(bothStarted.await(30, TimeUnit.SECONDS), "both tasks started");
                    }
                    if (from == 0) {
                        // the first chunk of the first share waits until every other index has run
                        released[0] = restDone.await(30, TimeUnit.SECONDS);
                    } else if (done.addAndGet(to - from) == extent - held.get()) {
                        restDone.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(released[0], "the other task did not run the held-up share's chunks: " + runs);
            assertCoversOnce(runs, extent);
            String holder = runs.stream().filter(r -> r.from() == 0).findFirst().orElseThrow().thread();
            assertEquals(1, runs.stream().filter(r -> r.thread().equals(holder)).count(),
                    "the held-up task ran only its first chunk: " + runs);
            assertTrue(runs.stream().anyMatch(r -> !r.thread().equals(holder) && r.from() < extent / 2),
                    "the other task ran chunks of the held-up task's share: " + runs);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSingleThreadExecutorRunsEveryChunkOnItsOneThread() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            List<Run> runs = runAll(pool, 4, 10_000, 64);
            assertCoversOnce(runs, 10_000);
            assertEquals(1, runs.stream().map(Run::thread).distinct().count(), "runs " + runs);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailingChunkFailsTheWholeAfterTheOtherTasksEnd() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            AtomicLong ran = new AtomicLong();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tasks.forEachChunk(pool, 2, 1000, 1, (from, to) -> {
                        if (from == 0) {
                            throw new IllegalArgumentException("part at 0");
                        }
                        ran.addAndGet(to - from);
                    }));
            assertEquals("part at 0", e.getMessage());
            assertTrue(ran.get() > 0);
        } finally {
            pool.shutdownNow();
        }
    }
}
