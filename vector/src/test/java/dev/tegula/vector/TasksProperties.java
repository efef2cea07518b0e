package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TasksProperties {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

    @AfterContainer
    static void shutDown() {
        POOL.shutdownNow();
    }

    @Property(tries = 300)
    void chunksCoverTheRangeOnceInAlignedPiecesOfAtLeastTheMinimum(@ForAll @LongRange(min = 0, max = 5000) long extent,
                                                                   @ForAll @IntRange(min = 1, max = 4) int workers,
                                                                   @ForAll @IntRange(min = 1, max = 64) int align,
                                                                   @ForAll @LongRange(min = 0, max = 700) long minChunk) {
        List<long[]> parts = Collections.synchronizedList(new ArrayList<>());
        Tasks.forEachChunk(POOL, workers, extent, align, minChunk, (lo, hi) -> parts.add(new long[] {lo, hi}));
        List<long[]> sorted = new ArrayList<>(parts);
        sorted.sort((x, y) -> Long.compare(x[0], y[0]));
        long at = 0;
        for (long[] p : sorted) {
            assertEquals(at, p[0], "parts leave a gap or overlap");
            assertTrue(p[1] > p[0] || extent == 0, "an empty part");
            at = p[1];
        }
        assertEquals(extent, at);
        if (sorted.size() > 1) {
            // every boundary but the range's end keeps the alignment where each worker's share allows it
            boolean aligned = extent / Math.min(workers, extent) >= align;
            for (long[] p : sorted.subList(0, sorted.size() - 1)) {
                if (aligned) {
                    assertEquals(0, p[1] % align, () -> "boundary " + p[1] + " of align " + align);
                }
            }
            // chunks (more parts than workers) hold at least the minimum, all but the last
            if (sorted.size() > workers) {
                for (long[] p : sorted.subList(0, sorted.size() - 1)) {
                    assertTrue(p[1] - p[0] >= minChunk, () -> (p[1] - p[0]) + " < " + minChunk);
                }
            }
        }
    }

    @Test
    void aSlowerWorkerTakesFewerChunks() throws Exception {
        // 64 chunks of one index; the worker that first takes index 0 sleeps on each of its chunks
        ConcurrentHashMap<String, AtomicInteger> taken = new ConcurrentHashMap<>();
        ThreadLocal<Boolean> slow = ThreadLocal.withInitial(() -> false);
        AtomicInteger first = new AtomicInteger();
        int saved = Tasks.CHUNKS_PER_WORKER;
        try {
            Tasks.CHUNKS_PER_WORKER = 32;
            Tasks.forEachChunk(POOL, 2, 64, 1, 1, (lo, hi) -> {
                if (lo == 0 && first.getAndIncrement() == 0) {
                    slow.set(true);
                }
                taken.computeIfAbsent(Thread.currentThread().getName(), k -> new AtomicInteger()).incrementAndGet();
                if (slow.get()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        } finally {
            Tasks.CHUNKS_PER_WORKER = saved;
        }
        List<Integer> counts = taken.values().stream().map(AtomicInteger::get).sorted().toList();
        assertEquals(64, counts.stream().mapToInt(Integer::intValue).sum());
        assertEquals(2, counts.size(), counts::toString);
        // with equal parts each would take 32; the sleeping one takes a few
        assertTrue(counts.get(0) < 16, counts::toString);
    }
}
