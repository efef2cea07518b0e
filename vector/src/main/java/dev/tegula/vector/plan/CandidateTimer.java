package dev.tegula.vector.plan;

import dev.tegula.vector.PlanMeasurement;
import java.lang.foreign.MemorySegment;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Times walks of one nest on samples of the buffers, and runs the final round on the whole: the
 * measuring planner's clock ({@link MeasuredSearch} decides what to time). Each candidate runs on a
 * sample of the nest: a range of its split loop worth about {@link #SAMPLE_BYTES} (more, up to
 * {@link #MAX_SAMPLE_BYTES}, to hold a block along that loop per thread), cut between the threads as
 * execution cuts it; successive runs take successive samples, so each runs on data that is not in
 * the caches, as in a whole relayout. The fastest of {@link #TIMED_ROUNDS} runs counts, per byte.
 * Not thread-safe: one planner call owns it.
 */
public final class CandidateTimer {
    /** Bytes (read and written) of the sample each candidate is timed on. */
    static final long SAMPLE_BYTES = 16L << 20;
    /** Bytes read and written a sample may grow to, to hold a whole block per thread ({@link #sample}). */
    static final long MAX_SAMPLE_BYTES = 64L << 20;
    /** Timed runs of each candidate; the fastest counts. */
    public static final int TIMED_ROUNDS = 2;
    /**
     * How much less time per byte than the estimate another walk must take in the final round to be
     * chosen over it. Timings taken while the JIT is still compiling, on a machine whose speed drifts
     * over seconds, rank near-equal walks at random: for bf16 8192² on one thread, measured plans that
     * left the estimate ran clearly slower than it in JMH forks (docs/relayout.md).
     */
    public static final double MARGIN = 0.05;
    /** Most bytes (read and written) of the range of the split loop a final-round run covers. */
    public static final long FINAL_BYTES = 1L << 30;
    /** Most rounds of the final round: past {@link #TIMED_ROUNDS} only while the JIT is compiling. */
    public static final int FINAL_MAX_ROUNDS = 6;
    /** Time after which the final round takes no round past {@link #TIMED_ROUNDS}. */
    public static final long FINAL_EXTRA_BUDGET_NANOS = 500_000_000L;

    private final MemorySegment src;
    private final MemorySegment dst;
    private final int b;
    private final int srcBytes;
    private final ExecutorService executor;
    private final int threads;
    private final int nest;
    private final Map<String, PlanMeasurement> seen = new LinkedHashMap<>();
    /** The walks timed so far, by their text. */
    private final Map<String, Walk> timed = new LinkedHashMap<>();
    /** The final round's timings, by walk text. */
    private final Map<String, PlanMeasurement> finals = new LinkedHashMap<>();
    /** Where the next sample starts, as a fraction of the split loop. */
    private double cursor;

    /**
     * A timer of walks of nest {@code nest} (its number in the plan) on {@code src} and {@code dst},
     * segments the kernels may use on this call's threads ({@code ThreadAccess.forThisCall}).
     *
     * @param b        bytes of a destination element
     * @param srcBytes bytes of a source element
     * @param executor where the other threads' samples run (null: one thread)
     */
    CandidateTimer(MemorySegment src, MemorySegment dst, int b, int srcBytes, ExecutorService executor, int threads,
                   int nest) {
        this.src = src;
        this.dst = dst;
        this.b = b;
        this.srcBytes = srcBytes;
        this.executor = executor;
        this.threads = threads;
        this.nest = nest;
    }

    /**
     * {@return the extent of the split loop that makes a sample of about {@link #SAMPLE_BYTES}, or
     * more, up to {@link #MAX_SAMPLE_BYTES}, where that gives each thread a whole block of the
     * walk along that loop (or its whole share of the loop where that is less)} A thinner sample
     * times a thinner walk than the whole runs (f32 → bf16 8192² transposed on two threads ran
     * several times slower on samples of 170 source rows than on the whole). Where a
     * block along the loop holds more than that bound (blocks of 512 slabs of 1 MiB), samples
     * stay at their size and cut the block: timing every candidate on the whole array took
     * seconds.
     */
    private long sample(Walk w) {
        long e = w.splitExtent();
        double perIndex = (double) w.nest().elements() * (b + srcBytes) / e;
        long p = (long) Math.ceil(SAMPLE_BYTES / perIndex);
        long floor = threads * Math.min(w.splitBlock(), Math.max(1, e / threads));
        if (floor > p && floor * perIndex <= MAX_SAMPLE_BYTES) {
            p = floor;
        }
        return Math.min(e, Math.max(p, threads));
    }

    private long bytes(Walk w) {
        long e = w.splitExtent();
        int n = executor == null ? 1 : (int) Math.max(1, Math.min(threads, e));
        long length = Math.max(1, Math.min(e / n, sample(w) / n));
        return (long) ((double) w.nest().elements() * (b + srcBytes) * length * n / e);
    }

    /**
     * Times one run of {@code w} on the next sample: samples follow each other through the buffers
     * (wrapping around), so a sample is not in the caches from its last run, as the data of a
     * whole relayout is not. With several threads, each thread's share of the sample lies in that
     * thread's own share of the split loop, as in a whole run (shares side by side would share
     * pages and lines that the threads of a whole run do not).
     */
    private long time(Walk w) {
        long p = sample(w);
        long e = w.splitExtent();
        int n = executor == null ? 1 : (int) Math.max(1, Math.min(threads, e));
        long share = e / n;
        long length = Math.max(1, Math.min(share, p / n));
        long align = w.alignment();
        long offset = (long) (cursor * share);
        if (offset + length > share) {
            offset = 0;
            cursor = 0;
        }
        cursor += (double) length / share;
        long at = offset;
        long t0 = System.nanoTime();
        Tasks.forEachChunk(executor, n, n, 1, (lo, hi) -> {
            for (long k = lo; k < hi; k++) {
                long from = Math.min(e, (k * share + at) / align * align);
                WalkRunner.run(w, src, dst, from, Math.min(e, from + length));
            }
        }, src, dst);
        return System.nanoTime() - t0;
    }

    /**
     * Runs {@code w} until two runs in a row are within a tenth of each other and the JIT
     * finished no compilation during the second (at most ten runs).
     */
    void warmUp(Walk w) {
        long last = time(w);
        for (int i = 0; i < 10; i++) {
            long jit = jitMillis();
            long now = time(w);
            if (Math.abs(now - last) * 10 <= last && jit == jitMillis()) {
                return;
            }
            last = now;
        }
    }

    /** {@return each walk's fastest of {@link #TIMED_ROUNDS} runs of {@code run}, the walks interleaved} */
    private static long[] fastestRuns(List<Walk> walks, ToLongFunction<Walk> run) {
        long[] best = noRuns(walks);
        for (int r = 0; r < TIMED_ROUNDS; r++) {
            runRound(walks, run, best);
        }
        return best;
    }

    /** {@return one time per walk, each longer than any run} */
    private static long[] noRuns(List<Walk> walks) {
        long[] best = new long[walks.size()];
        Arrays.fill(best, Long.MAX_VALUE);
        return best;
    }

    /** Runs each walk once, in order, keeping in {@code best} each walk's fastest run so far. */
    private static void runRound(List<Walk> walks, ToLongFunction<Walk> run, long[] best) {
        for (int i = 0; i < walks.size(); i++) {
            best[i] = Math.min(best[i], run.applyAsLong(walks.get(i)));
        }
    }

    /** {@return the fastest walk per byte} Each runs {@link #TIMED_ROUNDS} times, interleaved with the others. */
    Walk fastest(List<Walk> candidates) {
        long[] best = fastestRuns(candidates, this::time);
        int win = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Walk w = candidates.get(i);
            long bytes = bytes(w);
            PlanMeasurement m = new PlanMeasurement(nest, w.toString(), bytes, best[i], false, false);
            timed.putIfAbsent(w.toString(), w);
            PlanMeasurement old = seen.get(w.toString());
            if (old == null || perByte(m) < perByte(old)) {
                seen.put(w.toString(), m);
            }
            if (perByte(m) < perByte(bytes(candidates.get(win)), best[win])) {
                win = i;
            }
        }
        return candidates.get(win);
    }

    /**
     * {@return the walks of the final round}: the samples' winner, the estimate, and the next
     * fastest walks of the samples per byte, {@code others} of them at most besides those two
     */
    List<Walk> finalists(Walk winner, Walk estimate, int others) {
        List<Walk> out = new ArrayList<>(List.of(winner));
        if (!estimate.toString().equals(winner.toString())) {
            out.add(estimate);
        }
        List<PlanMeasurement> byTime = new ArrayList<>(seen.values());
        byTime.sort(Comparator.comparingDouble(CandidateTimer::perByte));
        int added = 0;
        for (PlanMeasurement m : byTime) {
            if (added == others) {
                break;
            }
            Walk w = timed.get(m.candidate());
            if (w != null && out.stream().noneMatch(o -> o.toString().equals(m.candidate()))) {
                out.add(w);
                added++;
            }
        }
        return out;
    }

    /**
     * {@return the fastest of {@code finalists} on the whole nest, or {@code estimate} (one of them)
     * where the fastest took more than {@code 1 - }{@link #MARGIN} of its time per byte} Each runs
     * {@link #TIMED_ROUNDS} times over the split loop's range (all of it, up to {@link #FINAL_BYTES}),
     * cut between the threads as execution cuts it, interleaved with the others; the fastest run
     * counts.
     */
    Walk finalRound(List<Walk> finalists, Walk estimate) {
        for (Walk w : finalists) {
            warmUp(w);
        }
        long[] best = noRuns(finalists);
        finalRounds(CandidateTimer::jitMillis, System::nanoTime, () -> runRound(finalists, this::timeWhole, best));
        int win = 0;
        int est = -1;
        for (int i = 0; i < finalists.size(); i++) {
            Walk w = finalists.get(i);
            finals.put(w.toString(), new PlanMeasurement(nest, w.toString(), wholeBytes(w), best[i], true, false));
            if (perByte(wholeBytes(w), best[i]) < perByte(wholeBytes(finalists.get(win)), best[win])) {
                win = i;
            }
            if (w.toString().equals(estimate.toString())) {
                est = i;
            }
        }
        if (est >= 0 && !beatsEstimate(perByte(wholeBytes(finalists.get(win)), best[win]),
                perByte(wholeBytes(estimate), best[est]))) {
            win = est;
        }
        return finalists.get(win);
    }

    /** {@return the range of the split loop a final-round run covers: all of it, up to {@link #FINAL_BYTES}} */
    private long wholeExtent(Walk w) {
        long e = w.splitExtent();
        double perIndex = (double) w.nest().elements() * (b + srcBytes) / e;
        return Math.min(e, Math.max(1, (long) (FINAL_BYTES / perIndex)));
    }

    private long wholeBytes(Walk w) {
        return (long) ((double) w.nest().elements() * (b + srcBytes) * wholeExtent(w) / w.splitExtent());
    }

    private long timeWhole(Walk w) {
        long t0 = System.nanoTime();
        WalkRunner.runWhole(w, src, dst, executor, threads, wholeExtent(w));
        return System.nanoTime() - t0;
    }

    private static double perByte(PlanMeasurement m) {
        return perByte(m.bytes(), m.nanos());
    }

    private static double perByte(long bytes, long nanos) {
        return (double) nanos / Math.max(1, bytes);
    }

    /**
     * {@return every timed candidate's fastest run on the samples, then the final round's, the
     * chosen one marked (in the final round, where there was one)}
     */
    List<PlanMeasurement> measurements(Walk chosen) {
        List<PlanMeasurement> out = new ArrayList<>();
        for (PlanMeasurement m : seen.values()) {
            out.add(finals.isEmpty() ? marked(m, chosen) : m);
        }
        for (PlanMeasurement m : finals.values()) {
            out.add(marked(m, chosen));
        }
        return out;
    }

    private static PlanMeasurement marked(PlanMeasurement m, Walk chosen) {
        return m.candidate().equals(chosen.toString())
                ? new PlanMeasurement(m.nest(), m.candidate(), m.bytes(), m.nanos(), m.finalRound(), true) : m;
    }

    /**
     * Runs the final round's {@code round} (each finalist once) {@link #TIMED_ROUNDS} times, then
     * again while the JIT finished a compilation during the last round (its total compilation time
     * moved), up to {@link #FINAL_MAX_ROUNDS} rounds and while the rounds so far took under
     * {@link #FINAL_EXTRA_BUDGET_NANOS}. A finalist whose code the JIT was still replacing (after a
     * deoptimisation, say: frequent in a JVM that has run many shapes) ran many times slower than it
     * will, and two such rounds chose a walk at half the estimate's speed. {@code jitMillis} is -1
     * where the JVM does not report compilation time: no extra rounds then.
     *
     * @return the number of rounds run
     */
    public static int finalRounds(LongSupplier jitMillis, LongSupplier nanoClock, Runnable round) {
        long start = nanoClock.getAsLong();
        int rounds = 0;
        while (true) {
            long jit = jitMillis.getAsLong();
            round.run();
            rounds++;
            if (rounds < TIMED_ROUNDS) {
                continue;
            }
            boolean compiled = jit >= 0 && jitMillis.getAsLong() != jit;
            if (!compiled || rounds >= FINAL_MAX_ROUNDS
                    || nanoClock.getAsLong() - start >= FINAL_EXTRA_BUDGET_NANOS) {
                return rounds;
            }
        }
    }

    /** {@return the JIT's total compilation time so far in milliseconds, or -1 where the JVM does not report it} */
    public static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /**
     * {@return whether a walk that took {@code perByte} (time per byte) in the final round is chosen over
     * the estimate, which took {@code estimatePerByte}}: only by taking less than {@code 1 - }{@link #MARGIN}
     * of the estimate's time.
     */
    public static boolean beatsEstimate(double perByte, double estimatePerByte) {
        return perByte < estimatePerByte * (1 - MARGIN);
    }
}
