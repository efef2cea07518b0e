package dev.tegula.jmh;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.Planning;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.Wisdom;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What one process gets from a relayout over time: a fresh JVM runs the case's {@code ESTIMATE} plan
 * for a while, then makes a {@code MEASURE} plan (timing its candidates in this process), then runs the
 * {@code ESTIMATE} plan and the {@code MEASURE} plan again, on the same buffers; it prints the median
 * GB/s of each second, so that the JIT's phases and the machine's drift show, and each stretch's
 * median. JMH forks give one number per fork; this shows what lies under it.
 *
 * <p>Usage: {@code ./run bench --steady [--seconds S] [--pages huge|4k] [--threads 1|2] CASE}, one case
 * (a name of {@link RelayoutCases}) per process. GB/s: the case's bytes ({@link RelayoutCases.Case#bytes})
 * per second.
 */
public final class SteadyState {
    private SteadyState() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = 4;
        int threads = 1;
        String pages = "huge";
        String name = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--pages" -> pages = args[++i];
                default -> name = args[i];
            }
        }
        if (name == null || threads < 1 || seconds < 1) {
            System.err.println("usage: ./run bench --steady [--seconds S] [--pages huge|4k] [--threads N] CASE");
            System.exit(2);
        }
        RelayoutCases.Case c;
        try {
            c = RelayoutCases.parse(RelayoutBench.resolve(name));
        } catch (IllegalArgumentException e) {
            System.err.println("steady: " + e.getMessage());
            System.exit(2);
            return;
        }
        ArrayShape from = c.from();
        ArrayShape to = c.to();
        System.setProperty(HostMemory.PROPERTY, String.valueOf(pages.equals("huge")));
        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment src = HostMemory.allocate(arena, from.bufferSize(), 4096);
            MemorySegment dst = HostMemory.allocate(arena, to.bufferSize(), 4096);
            RelayoutBench.fillSource(src);
            dst.fill((byte) 1);
            RelayoutPlan estimate = Relayout.plan(from, to, Planning.ESTIMATE, threads);
            System.out.printf(Locale.ROOT, "# %s, %s pages, %d thread(s); GB/s of %d MiB per second, medians%n",
                    name, pages, threads, c.bytes() >> 20);
            System.out.println("# ESTIMATE: " + estimate.describe());
            stretch("ESTIMATE, fresh JVM", estimate, src, dst, pool, threads, seconds, c.bytes());
            long t0 = System.nanoTime();
            RelayoutPlan measured = new PlanCache(4, Wisdom.inMemory())
                    .plan(Array.wrap(src, from), Array.wrap(dst, to), Planning.MEASURE, threads, pool);
            System.out.printf(Locale.ROOT, "# MEASURE (planned in %.0f ms): %s%n", (System.nanoTime() - t0) / 1e6,
                    measured.describe());
            stretch("ESTIMATE, after measuring", estimate, src, dst, pool, threads, seconds, c.bytes());
            stretch("MEASURE", measured, src, dst, pool, threads, seconds, c.bytes());
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /** Runs {@code plan} for {@code seconds}, printing each second's median GB/s and the stretch's. */
    private static void stretch(String label, RelayoutPlan plan, MemorySegment src, MemorySegment dst,
                                ExecutorService pool, int threads, int seconds, long bytes) {
        List<Double> all = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int s = 0; s < seconds; s++) {
            List<Double> second = new ArrayList<>();
            long end = System.nanoTime() + 1_000_000_000L;
            do {
                long t0 = System.nanoTime();
                if (pool == null) {
                    plan.execute(src, dst);
                } else {
                    plan.execute(src, dst, pool, threads);
                }
                second.add(bytes / (double) (System.nanoTime() - t0));
            } while (System.nanoTime() < end);
            all.addAll(second);
            line.append(String.format(Locale.ROOT, " %.2f", median(second)));
        }
        System.out.printf(Locale.ROOT, "%-26s median %6.2f GB/s; by second:%s%n", label, median(all), line);
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
