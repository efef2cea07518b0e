package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tegula.vector.plan.Tasks;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.testing.Permutations;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Threads and relayouts: many threads reading one shared-arena array; a parallel relayout (an
 * executor, parallelism 2, a shared arena, more than {@link Tasks#MIN_PARALLEL_BYTES} so the
 * work is really split) equals the oracle; parallel relayouts racing with readers of the source
 * still equal the oracle and the readers see the source unchanged; and a relayout whose destination
 * (or source) arena another thread closes mid-way ends with {@link IllegalStateException} from FFM,
 * or completes if the close came too late, never crashing the JVM or hanging. Every wait has a timeout.
 */
@Timeout(120)
class RelayoutConcurrencyTest {

    private static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    /** Fills a segment with a pattern that differs at every 4-byte word (cheap for large buffers). */
    private static void pattern(MemorySegment s, long seed) {
        long n = s.byteSize() / 4;
        for (long i = 0; i < n; i++) {
            s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) ((i + seed) * 0x9E3779B1L));
        }
    }

    private static MemorySegment reference(Arena arena, ArrayShape from, MemorySegment src, ArrayShape to) {
        MemorySegment ref = arena.allocate(to.bufferSize(), 64);
        ReferenceRelayout.copy(from, src, to, ref);
        return ref;
    }

    /** A two-thread pool that counts the tasks it is given. */
    private static final class CountingPool extends ThreadPoolExecutor {
        final AtomicInteger tasks = new AtomicInteger();

        CountingPool() {
            super(2, 2, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        }

        @Override
        public void execute(Runnable command) {
            tasks.incrementAndGet();
            super.execute(command);
        }
    }

    @Test
    void manyThreadsReadOneSharedArray() throws Exception {
        ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(8);
        try (Arena arena = Arena.ofShared()) {
            for (String text : List.of("f32[256,384]{0,1}", "bf16[64,512]{1,0:T(8,128)(2,1)}", "s4[96,80]{1,0:E(4)}",
                    "f64[8,8,8,8,8]{0,2,4,1,3}")) {
                Array a = Array.allocate(arena, shape(text));
                pattern(a.segment(), 7);
                long[] expected = a.toLongArray();   // integer codes of the values, read once on this thread
                Array view = a.permute(Permutations.reversed(a.shape().rank()));
                List<Future<?>> results = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    long seed = t;
                    results.add(readers.submit(() -> {
                        Random r = new Random(seed);
                        long[] dims = a.shape().dimensions();
                        for (int k = 0; k < 20_000; k++) {
                            long[] idx = new long[dims.length];
                            long flat = 0;
                            for (int d = 0; d < dims.length; d++) {
                                idx[d] = r.nextLong(dims[d]);
                                flat = flat * dims[d] + idx[d];
                            }
                            assertEquals(expected[(int) flat], a.getLong(idx), text);
                            long[] rev = new long[idx.length];
                            for (int d = 0; d < idx.length; d++) {
                                rev[d] = idx[idx.length - 1 - d];
                            }
                            assertEquals(expected[(int) flat], view.getLong(rev), text);
                        }
                        assertTrue(java.util.Arrays.equals(expected, a.toLongArray()), text);
                        return null;
                    }));
                }
                for (Future<?> f : results) {
                    f.get(60, TimeUnit.SECONDS);
                }
            }
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void parallelRelayoutSplitsTheWorkAndEqualsTheOracle() throws Exception {
        CountingPool pool = new CountingPool();
        try (Arena arena = Arena.ofShared()) {
            String[][] cases = {
                {"f32[4,512,512]{2,1,0}", "f32[4,512,512]{1,2,0}"},                 // 4 MiB of batched transposes
                {"bf16[2048,1024]{1,0}", "bf16[2048,1024]{1,0:T(8,128)(2,1)}"},     // 4 MiB tile pack
                {"u8[48,256,256]{2,1,0:T(8,128)}", "u8[48,256,256]{0,1,2}"},         // 3 MiB unpack + transpose
            };
            for (String[] c : cases) {
                ArrayShape from = shape(c[0]);
                ArrayShape to = shape(c[1]);
                assertTrue(to.bufferSize() > Tasks.MIN_PARALLEL_BYTES, c[1]);
                Array src = Array.allocate(arena, from);
                pattern(src.segment(), 1);
                Array dst = Array.allocate(arena, to);
                dst.segment().fill((byte) 0x5A);
                int before = pool.tasks.get();
                Relayout.copy(src, dst, pool, 2);
                assertTrue(pool.tasks.get() - before >= 2, () -> c[0] + " -> " + c[1] + " was not split: "
                        + Relayout.plan(from, to).describe());
                assertEquals(-1, reference(arena, from, src.segment(), to).mismatch(dst.segment()), c[1]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Bulk runs under a single outer loop (rows of a view, 520 elements apart, into a dense array): the
     * two tasks take the two halves of that loop, the second starting mid-way, and every row lands
     * where it belongs.
     */
    @Test
    void bulkRunsUnderOneLoopAreSplitAndExact() throws Exception {
        CountingPool pool = new CountingPool();
        try (Arena arena = Arena.ofShared()) {
            Array big = Array.allocate(arena, shape("f32[2048,520]{1,0}"));
            pattern(big.segment(), 3);
            Array src = big.slice(1, 0, 512);
            Array dst = Array.allocate(arena, shape("f32[2048,512]{1,0}"));
            assertTrue(dst.shape().bufferSize() > Tasks.MIN_PARALLEL_BYTES);
            Relayout.copy(src, dst, pool, 2);
            assertTrue(pool.tasks.get() >= 2, () -> "not split: " + Relayout.plan(src, dst).describe());
            for (long i = 0; i < 2048; i++) {
                long row = i;
                assertEquals(-1, big.segment().asSlice(4 * 520 * i, 4 * 512).mismatch(dst.segment().asSlice(4 * 512 * i, 4 * 512)),
                        () -> "row " + row);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A plain two-dimensional transpose is one loop nest that the kernels do not split (its only
     * outer loop is the transpose partner): with an executor it runs on the calling thread, and is
     * still exact. Pinned so that a change in either direction is noticed (docs/reliability.md).
     */
    @Test
    void twoDimensionalTransposeIsSplitAndExact() throws Exception {
        CountingPool pool = new CountingPool();
        try (Arena arena = Arena.ofShared()) {
            ArrayShape from = shape("f32[1024,1024]{1,0}");
            ArrayShape to = shape("f32[1024,1024]{0,1}");
            Array src = Array.allocate(arena, from);
            pattern(src.segment(), 2);
            Array dst = Array.allocate(arena, to);
            Relayout.copy(src, dst, pool, 2);
            assertEquals(2, pool.tasks.get(), Relayout.plan(from, to).describe());
            assertEquals(-1, reference(arena, from, src.segment(), to).mismatch(dst.segment()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void parallelRelayoutsRacingWithReadersOfTheSource() throws Exception {
        CountingPool pool = new CountingPool();
        ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(2);
        try (Arena arena = Arena.ofShared()) {
            ArrayShape from = shape("f32[1024,768]{1,0}");
            ArrayShape to = shape("f32[1024,768]{1,0:T(8,128)}");   // 3 MiB tile pack: split between the pool's threads
            Array src = Array.allocate(arena, from);
            pattern(src.segment(), 3);
            MemorySegment ref = reference(arena, from, src.segment(), to);
            float[] expected = src.toFloatArray();
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong reads = new AtomicLong();
            List<Future<?>> readTasks = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                long seed = t;
                readTasks.add(readers.submit(() -> {
                    Random r = new Random(seed);
                    while (!done.get()) {
                        int i = r.nextInt(1024);
                        int j = r.nextInt(768);
                        float v = src.getFloat(i, j);
                        if (Float.floatToRawIntBits(v) != Float.floatToRawIntBits(expected[i * 768 + j])) {
                            fail("source changed at (" + i + "," + j + ")");
                        }
                        reads.incrementAndGet();
                    }
                    return null;
                }));
            }
            try {
                for (int round = 0; round < 6; round++) {
                    Array dst = Array.allocate(arena, to);
                    Relayout.copy(src, dst, pool, 2);
                    assertEquals(-1, ref.mismatch(dst.segment()), "round " + round);
                }
            } finally {
                done.set(true);
            }
            for (Future<?> f : readTasks) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertTrue(reads.get() > 0);
        } finally {
            pool.shutdownNow();
            readers.shutdownNow();
        }
    }

    /**
     * Another thread closes the destination (or source) arena while a relayout runs, after a delay
     * that varies from round to round: the relayout either finishes first or fails with
     * {@link IllegalStateException}; the JVM does not crash and nothing hangs.
     */
    @Test
    void arenaClosedMidwayEndsWithIllegalStateException() throws Exception {
        CountingPool pool = new CountingPool();
        ExecutorService runner = java.util.concurrent.Executors.newSingleThreadExecutor();
        ExecutorService closer = java.util.concurrent.Executors.newSingleThreadExecutor();
        ArrayShape from = shape("f32[2048,2048]{1,0}");   // 16 MiB: a few milliseconds to transpose
        ArrayShape to = shape("f32[2048,2048]{0,1}");
        int failures = 0;
        int completions = 0;
        try (Arena keep = Arena.ofShared()) {
            Array src0 = Array.allocate(keep, from);
            pattern(src0.segment(), 5);
            for (int round = 0; round < 24; round++) {
                boolean closeSource = round % 4 == 3;
                boolean parallel = round % 2 == 0;
                Arena victim = Arena.ofShared();
                Array src = closeSource ? Array.allocate(victim, from) : src0;
                if (closeSource) {
                    MemorySegment.copy(src0.segment(), 0, src.segment(), 0, from.bufferSize());
                }
                Array dst = Array.allocate(closeSource ? keep : victim, to);
                long delayMicros = (round * 397L) % 8000;
                CountDownLatch started = new CountDownLatch(1);
                Future<?> relayout = runner.submit(() -> {
                    started.countDown();
                    if (parallel) {
                        Relayout.copy(src, dst, pool, 2);
                    } else {
                        Relayout.copy(src, dst);
                    }
                    return null;
                });
                Future<?> close = closer.submit(() -> {
                    started.await();
                    TimeUnit.MICROSECONDS.sleep(delayMicros);
                    closeWhenPossible(victim);
                    return null;
                });
                try {
                    relayout.get(60, TimeUnit.SECONDS);
                    completions++;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (!(cause instanceof IllegalStateException)) {
                        throw new AssertionError("round " + round + ": expected IllegalStateException, got " + cause, cause);
                    }
                    failures++;
                }
                close.get(60, TimeUnit.SECONDS);
                assertTrue(!victim.scope().isAlive(), "round " + round + ": the arena was not closed");
            }
        } finally {
            pool.shutdownNow();
            runner.shutdownNow();
            closer.shutdownNow();
        }
        System.getLogger(RelayoutConcurrencyTest.class.getName()).log(System.Logger.Level.INFO,
                "arena closed mid-relayout: {0} relayouts failed with IllegalStateException, {1} finished first",
                failures, completions);
        assertEquals(24, failures + completions);
        assertTrue(failures > 0, "no round closed the arena while the relayout ran: delays too long?");
    }

    /** Closes a shared arena, retrying while FFM reports it busy (a thread is inside an access that pins it). */
    private static void closeWhenPossible(Arena arena) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                arena.close();
                return;
            } catch (IllegalStateException busy) {
                if (!arena.scope().isAlive() || attempt > 10_000) {
                    throw busy;
                }
                Thread.sleep(1);
            }
        }
    }

}
