package dev.tegula.vector;

import dev.tegula.ffm.internal.ThreadAccess;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * Makes {@link RelayoutPlan}s: the strategy and loop nests from the two shapes, then one
 * {@link Walk} per nest, by rule ({@link Planning#ESTIMATE}), from {@link Wisdom}, or by timing
 * candidates ({@link Planning#MEASURE}, {@link Planning#EXHAUSTIVE}).
 *
 * <p>Measuring times each candidate on a part of the largest nest: a range of its split loop worth
 * about {@link #PART_BYTES} (more, up to {@link #MAX_PART_BYTES}, to hold a block along that loop
 * per thread), cut between the plan's threads as execution cuts it; successive runs
 * take successive parts, so each runs on data that is not in the caches, as in a whole relayout.
 * The kernels are first run until two runs agree and the JIT finished no compilation during the
 * second (so it has compiled them), then every candidate of a family runs {@link #TIMED_ROUNDS}
 * times, interleaved with the others; the fastest run counts, per byte. A measuring planner tries
 * the families one after the other (loop orders, staging, strips and band orders, blocks, tiles,
 * thread splits), each starting from the best walk so far, in two passes (the best of one family
 * depends on the others'; the second tries only blocks next to the best walk's, {@link #families});
 * an exhaustive one times every combination. A timing on a part can mislead (a walk that is fast on 16 MiB need not be fast
 * on the whole, whose pages, TLB reach and cache sets differ), so a final round runs the estimate,
 * the parts' winner and the {@link #FINALISTS} next fastest walks of the parts on the whole nest (up to
 * {@link #FINAL_BYTES}), each first warmed up on parts as the estimate is, then {@link #TIMED_ROUNDS}
 * times each, interleaved (more rounds while the JIT is still compiling: {@link #finalRounds}), and
 * keeps the fastest, unless that ran less than {@link #MARGIN} faster than the estimate, which is
 * then kept: a measured plan is never one that ran slower than the estimate on the same buffers,
 * and leaves the estimate only for a clear gain. Other nests (partial tiles) keep the estimate.
 * Stateless and thread-safe.
 */
final class Planner {
    private Planner() {
    }

    /** Bytes (read and written) of the part each candidate is timed on. */
    static final long PART_BYTES = 16L << 20;
    /** Bytes read and written a part may grow to, to hold a whole block per thread ({@code Timer.part}). */
    static final long MAX_PART_BYTES = 64L << 20;
    /** Passes of a measuring planner over the families of candidates. */
    static final int MEASURE_PASSES = 2;
    /** Timed runs of each candidate; the fastest counts. */
    static final int TIMED_ROUNDS = 2;
    /**
     * How much less time per byte than the estimate another walk must take in the final round to be
     * chosen over it. Timings taken while the JIT is still compiling, on a machine whose speed drifts
     * over seconds, rank near-equal walks at random: for bf16 8192² on one thread, measured plans that
     * left the estimate ran 27% slower than it in JMH forks (docs/relayout.md).
     */
    static final double MARGIN = 0.05;
    /** Walks of the parts (the fastest per byte) that run in the final round beside the estimate. */
    static final int FINALISTS = 3;
    /** Most bytes (read and written) of the range of the split loop a final-round run covers. */
    static final long FINAL_BYTES = 1L << 30;
    /** Most rounds of the final round: past {@link #TIMED_ROUNDS} only while the JIT is compiling. */
    static final int FINAL_MAX_ROUNDS = 6;
    /** Time after which the final round takes no round past {@link #TIMED_ROUNDS}. */
    static final long FINAL_EXTRA_BUDGET_NANOS = 500_000_000L;
    /** Most candidates an exhaustive planner times. */
    static final int EXHAUSTIVE_LIMIT = 4096;
    /** Nests under this many bytes are never measured. */
    static final long MIN_MEASURED_BYTES = 1L << 20;

    /**
     * {@return a plan} {@code src} and {@code dst} are the buffers to measure on (at their views'
     * offsets) or null (measuring then allocates buffers of the two shapes, dense sides only).
     *
     * @param srcStrides the source's slot strides if it is a strided view, else null
     * @param dstStrides the destination's, likewise
     * @param executor   where a measuring planner runs the other threads' parts (null: it makes its own)
     */
    static RelayoutPlan plan(ArrayShape from, ArrayShape to, long[] srcStrides, long[] dstStrides, Planning planning,
                             int threads, MemorySegment src, MemorySegment dst, ExecutorService executor, Wisdom wisdom) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads: " + threads + " is not positive");
        }
        RelayoutChecks.checkCompatible(from, to);
        boolean views = srcStrides != null || dstStrides != null;
        SlotTerms srcTerms = srcStrides != null ? SlotTerms.strided(from.dimensions(), 0, srcStrides) : SlotTerms.of(from);
        SlotTerms dstTerms = dstStrides != null ? SlotTerms.strided(to.dimensions(), 0, dstStrides) : SlotTerms.of(to);
        RelayoutStrategy strategy = RelayoutStrategy.choose(from, to, srcTerms, dstTerms, views);
        long bytes = Math.max(from.bufferSize(), to.bufferSize());
        Planning mode = planning.resolve(bytes);
        if (!(strategy instanceof RelayoutStrategy.Nests nests)) {
            return new RelayoutPlan(from, to, strategy, List.of(), srcStrides, dstStrides, Planning.ESTIMATE, threads,
                    "estimate", List.of());
        }
        int b = nests.walkBytes((int) (to.slotBits() / 8));
        List<Walk> walks = new ArrayList<>();
        int largest = 0;
        for (int i = 0; i < nests.nests().size(); i++) {
            walks.add(Candidates.estimate(nests.nests().get(i), b));
            if (nests.nests().get(i).elements() > nests.nests().get(largest).elements()) {
                largest = i;
            }
        }
        long nestBytes = walks.isEmpty() ? 0 : walks.get(largest).nest().elements() * Math.abs(b);
        if (mode == Planning.ESTIMATE || nestBytes < MIN_MEASURED_BYTES) {
            return new RelayoutPlan(from, to, strategy, walks, srcStrides, dstStrides, Planning.ESTIMATE, threads,
                    "estimate", List.of());
        }
        String key = Wisdom.key(threads, from.toString(), to.toString(), srcStrides, dstStrides);
        String known = wisdom == null ? null : wisdom.lookup(key);
        if (known != null) {
            List<Walk> fromWisdom = fromWisdom(known, nests.nests(), walks, b);
            if (fromWisdom != null) {
                return new RelayoutPlan(from, to, strategy, fromWisdom, srcStrides, dstStrides, mode, threads, "wisdom",
                        List.of());
            }
        }
        if (src == null || dst == null) {
            if (views) {
                return new RelayoutPlan(from, to, strategy, walks, srcStrides, dstStrides, Planning.ESTIMATE, threads,
                        "estimate", List.of());
            }
            try (Arena arena = Arena.ofShared()) {
                MemorySegment s = HostMemory.allocate(arena, from.bufferSize(), 4096);
                MemorySegment d = HostMemory.allocate(arena, to.bufferSize(), 4096);
                // pages of their own (an untouched page reads as the shared zero page, from cache)
                s.fill((byte) 0x3C);
                d.fill((byte) 0);
                return measured(from, to, strategy, nests, walks, largest, b, srcStrides, dstStrides, mode, threads, s, d,
                        executor, wisdom, key);
            }
        }
        return measured(from, to, strategy, nests, walks, largest, b, srcStrides, dstStrides, mode, threads, src, dst,
                executor, wisdom, key);
    }

    private static RelayoutPlan measured(ArrayShape from, ArrayShape to, RelayoutStrategy strategy,
                                         RelayoutStrategy.Nests nests, List<Walk> walks, int largest, int b,
                                         long[] srcStrides, long[] dstStrides, Planning mode, int threads,
                                         MemorySegment src, MemorySegment dst, ExecutorService executor, Wisdom wisdom,
                                         String key) {
        boolean shared = ThreadAccess.fromAnyThread(src) && ThreadAccess.fromAnyThread(dst);
        int t = shared ? threads : 1;
        ExecutorService pool = executor;
        if (t > 1 && pool == null) {
            pool = Executors.newFixedThreadPool(t, r -> {
                Thread th = new Thread(r, "tegula-plan");
                th.setDaemon(true);
                return th;
            });
        }
        try {
            // timed on what execution runs the kernels on (ThreadAccess.forThisCall)
            Timer timer = new Timer(nests.convert(), ThreadAccess.forThisCall(src), ThreadAccess.forThisCall(dst),
                    (int) (to.slotBits() / 8), (int) (from.slotBits() / 8), t > 1 ? pool : null, t, largest);
            LoopNest base = nests.nests().get(largest);
            Walk estimate = walks.get(largest);
            timer.warmUp(estimate);
            // the families below vary a walk without panels (blocks, strips, staging); where the
            // estimate goes panel by panel they start from its rule without panels, and the
            // estimate's panels join the panel family after them
            Walk best = estimate.paneled() ? Candidates.estimateWithoutPanels(base, b) : estimate;
            if (mode == Planning.EXHAUSTIVE) {
                best = timer.fastest(Candidates.all(base, b, t, EXHAUSTIVE_LIMIT));
            } else {
                // two passes: a family timed early (staging, say) is timed again once the later ones
                // (strips, blocks) have moved the best walk, as their best values depend on each other
                for (int pass = 0; pass < MEASURE_PASSES; pass++) {
                    for (BiFunction<LoopNest, Walk, List<Walk>> family : families(b, t, pass)) {
                        List<Walk> candidates = family.apply(base, best);
                        if (candidates.size() > 1) {
                            best = timer.fastest(withFirst(best, candidates));
                        }
                    }
                }
                // then panels (4-D and deeper transposes); where one wins, its loop order, tile and
                // thread split are timed again (a panel has no blocks or strips)
                List<Walk> panels = withFirst(best, panelCandidates(base, best, estimate, b));
                if (panels.size() > 1) {
                    best = timer.fastest(panels);
                    if (best.paneled()) {
                        int[] order = best.order();
                        for (BiFunction<LoopNest, Walk, List<Walk>> family : panelFamilies(b, t)) {
                            List<Walk> candidates = family.apply(base, best);
                            if (candidates.size() > 1) {
                                best = timer.fastest(withFirst(best, candidates));
                            }
                        }
                        if (!java.util.Arrays.equals(order, best.order())) {
                            best = timer.fastest(withFirst(best, Candidates.panels(base, best, b)));
                        }
                    }
                }
            }
            if (timer.measurements(best).isEmpty()) {
                timer.fastest(List.of(best));   // a single candidate: timed all the same, for the plan's table
            }
            List<Walk> finalists = timer.finalists(best, walks.get(largest), FINALISTS);
            if (finalists.size() > 1) {
                best = timer.finalRound(finalists, walks.get(largest));
            }
            List<Walk> chosen = new ArrayList<>(walks);
            chosen.set(largest, best);
            if (wisdom != null) {
                wisdom.remember(key, toText(chosen));
            }
            return new RelayoutPlan(from, to, strategy, chosen, srcStrides, dstStrides, mode, threads, "measured",
                    timer.measurements(best));
        } finally {
            if (pool != executor) {
                pool.shutdownNow();
            }
        }
    }

    /**
     * {@return the panel family: panels of every size in {@code best}'s loop order, tile and thread
     * split ({@link Candidates#panels}), and where the estimate goes panel by panel, the estimate and
     * panels in its loop order and tile too} The best loop order of walks without panels need not be
     * the best with panels: f32 64⁴ (3,2,1,0) on two threads, planned in a JVM that had planned for
     * one thread, found order 1,2,0,3 best without panels in 5 of 10 processes and then timed panels
     * in that order only (chosen: 15.0–15.9 GB/s read + written in the final round), where others
     * timed 4×4 panels in the estimate's order 2,1,0,3 at 16.9–21.3 (Intel Xeon, 512-bit vectors).
     */
    static List<Walk> panelCandidates(LoopNest base, Walk best, Walk estimate, int b) {
        List<Walk> out = new ArrayList<>(Candidates.panels(base, best, b));
        if (estimate.paneled()) {
            out.add(estimate);
            if (!java.util.Arrays.equals(estimate.order(), best.order()) || estimate.tile() != best.tile()) {
                out.addAll(Candidates.panels(base, estimate, b));
            }
        }
        return out;   // withFirst keeps one of each walk
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
    static int finalRounds(LongSupplier jitMillis, LongSupplier nanoClock, Runnable round) {
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
    static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /**
     * {@return the families of candidates of pass {@code pass} of a measuring planner, in the order
     * timed}: loop orders, staging, strips and band orders, blocks, tiles and (threads) split; blocks
     * every way in the first pass, and next to the best walk's in the later ones
     * ({@link Candidates#blocksNear}: the first pass has ranked the whole grid; timing all of it
     * again took 160-200 ms of a 2.4 s plan of f32 8192² transposed, Intel Xeon, 512-bit vectors)
     */
    static List<BiFunction<LoopNest, Walk, List<Walk>>> families(int b, int threads, int pass) {
        List<BiFunction<LoopNest, Walk, List<Walk>>> families = new ArrayList<>();
        families.add((n, w) -> Candidates.orders(n, w, b));
        families.add((n, w) -> Candidates.stages(n, w, b));
        families.add((n, w) -> Candidates.strips(n, w, b));
        families.add(pass == 0 ? (n, w) -> Candidates.blocks(n, w, b) : (n, w) -> Candidates.blocksNear(n, w, b));
        families.add((n, w) -> Candidates.tiles(n, w, b));
        if (threads > 1) {
            families.add((n, w) -> Candidates.splits(n, w, b));
        }
        return families;
    }

    /** {@return the candidate families that vary a walk with panels besides its panel size: loop order, tile and (threads) split} */
    private static List<BiFunction<LoopNest, Walk, List<Walk>>> panelFamilies(int b, int threads) {
        List<BiFunction<LoopNest, Walk, List<Walk>>> families = new ArrayList<>();
        families.add((n, w) -> Candidates.orders(n, w, b));
        families.add((n, w) -> Candidates.tiles(n, w, b));
        if (threads > 1) {
            families.add((n, w) -> Candidates.splits(n, w, b));
        }
        return families;
    }

    /**
     * {@return whether a walk that took {@code perByte} (time per byte) in the final round is chosen over
     * the estimate, which took {@code estimatePerByte}}: only by taking less than {@code 1 - }{@link #MARGIN}
     * of the estimate's time.
     */
    static boolean beatsEstimate(double perByte, double estimatePerByte) {
        return perByte < estimatePerByte * (1 - MARGIN);
    }

    /** {@return the candidates with {@code first} at their head (it is timed again beside them), each walk once} */
    private static List<Walk> withFirst(Walk first, List<Walk> candidates) {
        Map<String, Walk> out = new LinkedHashMap<>();
        out.put(first.toString(), first);
        for (Walk w : candidates) {
            out.putIfAbsent(w.toString(), w);
        }
        return new ArrayList<>(out.values());
    }

    /** {@return the walks in wisdom's text: {@code NEST:WALK} items separated by {@code ;}, the estimate's nests left out} */
    static String toText(List<Walk> walks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < walks.size(); i++) {
            b.append(b.isEmpty() ? "" : ";").append(i).append(':').append(walks.get(i));
        }
        return b.toString();
    }

    /** {@return the estimate walks with wisdom's walks in place, or null (with a warning) if wisdom's do not fit these nests} */
    private static List<Walk> fromWisdom(String text, List<LoopNest> nests, List<Walk> estimate, int b) {
        List<Walk> out = new ArrayList<>(estimate);
        try {
            for (String item : text.split(";")) {
                int colon = item.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("walk item '" + item + "' has no nest number");
                }
                int nest = Integer.parseInt(item.substring(0, colon).trim());
                if (nest < 0 || nest >= nests.size()) {
                    throw new IllegalArgumentException("nest " + nest + " of " + nests.size());
                }
                out.set(nest, Walk.parse(item.substring(colon + 1), nests.get(nest), b));
            }
            return out;
        } catch (RuntimeException e) {
            Wisdom.warn("wisdom entry not used: " + e.getMessage());
            return null;
        }
    }

    /** Times walks of one nest on parts of the buffers. */
    private static final class Timer {
        private final boolean convert;
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
        /** Where the next part starts, as a fraction of the split loop. */
        private double cursor;

        Timer(boolean convert, MemorySegment src, MemorySegment dst, int b, int srcBytes, ExecutorService executor,
              int threads, int nest) {
            this.convert = convert;
            this.src = src;
            this.dst = dst;
            this.b = b;
            this.srcBytes = srcBytes;
            this.executor = executor;
            this.threads = threads;
            this.nest = nest;
        }

        /**
         * {@return the extent of the split loop that makes a part of about {@link #PART_BYTES}, or
         * more, up to {@link #MAX_PART_BYTES}, where that gives each thread a whole block of the
         * walk along that loop (or its whole share of the loop where that is less)} A thinner piece
         * times a thinner walk than the whole runs: f32 → bf16 8192² transposed on two threads ran
         * at 5.0 GB/s read + written on pieces of 170 source rows and at 19.4 on the whole. Where a
         * block along the loop holds more than that bound (blocks of 512 slabs of 1 MiB), parts
         * stay at their size and cut the block: timing every candidate on the whole array took
         * seconds.
         */
        private long part(Walk w) {
            long e = w.splitExtent();
            double perIndex = (double) w.nest().elements() * (b + srcBytes) / e;
            long p = (long) Math.ceil(PART_BYTES / perIndex);
            long floor = threads * Math.min(w.splitBlock(), Math.max(1, e / threads));
            if (floor > p && floor * perIndex <= MAX_PART_BYTES) {
                p = floor;
            }
            return Math.min(e, Math.max(p, threads));
        }

        private long bytes(Walk w) {
            long e = w.splitExtent();
            int n = executor == null ? 1 : (int) Math.max(1, Math.min(threads, e));
            long piece = Math.max(1, Math.min(e / n, part(w) / n));
            return (long) ((double) w.nest().elements() * (b + srcBytes) * piece * n / e);
        }

        /**
         * Times one run of {@code w} on the next part: parts follow each other through the buffers
         * (wrapping around), so a part is not in the caches from its last run, as the data of a
         * whole relayout is not. With several threads, each thread's piece of the part lies in that
         * thread's own share of the split loop, as in a whole run (pieces side by side would share
         * pages and lines that the threads of a whole run do not).
         */
        private long time(Walk w) {
            long p = part(w);
            long e = w.splitExtent();
            int n = executor == null ? 1 : (int) Math.max(1, Math.min(threads, e));
            long share = e / n;
            long piece = Math.max(1, Math.min(share, p / n));
            long align = RelayoutPlan.alignment(w);
            long offset = (long) (cursor * share);
            if (offset + piece > share) {
                offset = 0;
                cursor = 0;
            }
            cursor += (double) piece / share;
            long at = offset;
            long t0 = System.nanoTime();
            Tasks.forEachPart(executor, n, n, 1, (lo, hi) -> {
                for (long k = lo; k < hi; k++) {
                    long from = Math.min(e, (k * share + at) / align * align);
                    Stage.run(w, convert, src, dst, b, from, Math.min(e, from + piece));
                }
            });
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
        private static long[] fastestRuns(List<Walk> walks, java.util.function.ToLongFunction<Walk> run) {
            long[] best = noRuns(walks);
            for (int r = 0; r < TIMED_ROUNDS; r++) {
                runRound(walks, run, best);
            }
            return best;
        }

        /** {@return one time per walk, each longer than any run} */
        private static long[] noRuns(List<Walk> walks) {
            long[] best = new long[walks.size()];
            java.util.Arrays.fill(best, Long.MAX_VALUE);
            return best;
        }

        /** Runs each walk once, in order, keeping in {@code best} each walk's fastest run so far. */
        private static void runRound(List<Walk> walks, java.util.function.ToLongFunction<Walk> run, long[] best) {
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
         * {@return the walks of the final round}: the parts' winner, the estimate, and the next
         * fastest walks of the parts per byte, {@code others} of them at most besides those two
         */
        List<Walk> finalists(Walk winner, Walk estimate, int others) {
            List<Walk> out = new ArrayList<>(List.of(winner));
            if (!estimate.toString().equals(winner.toString())) {
                out.add(estimate);
            }
            List<PlanMeasurement> byTime = new ArrayList<>(seen.values());
            byTime.sort(java.util.Comparator.comparingDouble(Timer::perByte));
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
            finalRounds(Planner::jitMillis, System::nanoTime, () -> runRound(finalists, this::timeWhole, best));
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
            Tasks.forEachPart(executor, threads, wholeExtent(w), RelayoutPlan.alignment(w),
                    (lo, hi) -> Stage.run(w, convert, src, dst, b, lo, hi));
            return System.nanoTime() - t0;
        }

        private static double perByte(PlanMeasurement m) {
            return perByte(m.bytes(), m.nanos());
        }

        private static double perByte(long bytes, long nanos) {
            return (double) nanos / Math.max(1, bytes);
        }

        /**
         * {@return every timed candidate's fastest run on the parts, then the final round's, the
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
    }
}
