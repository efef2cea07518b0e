package dev.tegula.vector.plan;

import dev.tegula.ffm.internal.ThreadAccess;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.Planning;
import dev.tegula.vector.kernels.Elements;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * The measuring planner's search over the largest nest's candidates ({@link CandidateFamilies}),
 * timed by a {@link CandidateTimer}. The kernels are first run until two runs agree and the JIT
 * finished no compilation during the second (so it has compiled them), then every candidate of a
 * family runs {@link CandidateTimer#TIMED_ROUNDS} times, interleaved with the others. A measuring
 * planner ({@link Planning#MEASURE}) tries the families one after the other (loop orders, staging,
 * stores, strips and band orders, blocks, touches, tiles, thread splits), each starting from the best walk so far, in
 * {@link #MEASURE_PASSES} passes (the best of one family depends on the others'; the later passes
 * try only blocks next to the best walk's, {@link #families}), then panels; an exhaustive one
 * ({@link Planning#EXHAUSTIVE}) times every combination. A timing on a sample can mislead (a walk that
 * is fast on 16 MiB need not be fast on the whole, whose pages, TLB reach and cache sets differ), so
 * a final round runs the estimate, the samples' winner and the {@link #FINALISTS} next fastest walks
 * of the samples on the whole nest and keeps the fastest, unless that ran less than
 * {@link CandidateTimer#MARGIN} faster than the estimate, which is then kept: a measured plan is
 * never one that ran slower than the estimate on the same buffers, and leaves the estimate only for
 * a clear gain. Stateless and thread-safe.
 */
public final class MeasuredSearch {
    private MeasuredSearch() {
    }

    /** Passes of a measuring planner over the families of candidates. */
    public static final int MEASURE_PASSES = 2;
    /** Walks of the samples (the fastest per byte) that run in the final round beside the estimate. */
    public static final int FINALISTS = 3;
    /** Most candidates an exhaustive planner times. */
    public static final int EXHAUSTIVE_LIMIT = 4096;

    /** A family of candidates: walks like the given one of the nest, varying one parameter. */
    public interface Family extends BiFunction<LoopNest, Walk, List<Walk>> {
    }

    /**
     * {@return the walks with the largest nest's measured on {@code src} and {@code dst}}, the other
     * nests' estimates kept, the choice remembered in the request's memory
     */
    static PlannedWalks run(PlanRequest r, RelayoutStrategy strategy, List<Walk> walks, int largest, MemorySegment src,
                            MemorySegment dst) {
        boolean shared = ThreadAccess.fromAnyThread(src) && ThreadAccess.fromAnyThread(dst);
        int t = shared ? r.threads() : 1;
        ExecutorService pool = r.executor();
        if (t > 1 && pool == null) {
            pool = Executors.newFixedThreadPool(t, task -> {
                Thread th = new Thread(task, "tegula-plan");
                th.setDaemon(true);
                return th;
            });
        }
        // timed on what execution runs the kernels on: views that end with this call (ThreadAccess.openCall)
        try (ThreadAccess.CallViews views = ThreadAccess.openCall()) {
            CandidateTimer timer = new CandidateTimer(views.view(src), views.view(dst),
                    (int) (r.to().slotBits() / 8), (int) (r.from().slotBits() / 8), t > 1 ? pool : null, t, largest);
            Walk estimate = walks.get(largest);
            LoopNest base = ((RelayoutStrategy.Nests) strategy).nests().get(largest);
            Walk best = search(timer, base, estimate, r.planning(), t);
            if (timer.measurements(best).isEmpty()) {
                timer.fastest(List.of(best));   // a single candidate: timed all the same, for the plan's table
            }
            List<Walk> finalists = timer.finalists(best, estimate, FINALISTS);
            if (finalists.size() > 1) {
                best = timer.finalRound(finalists, estimate);
            }
            List<Walk> chosen = new ArrayList<>(walks);
            chosen.set(largest, best);
            if (r.memory() != null) {
                r.memory().remember(r, Planner.toText(chosen));
            }
            return new PlannedWalks(strategy, chosen, r.planning(), PlanOrigin.MEASURED, timer.measurements(best));
        } finally {
            if (pool != r.executor()) {
                pool.shutdownNow();
            }
        }
    }

    /** {@return the fastest walk on the samples, from the estimate's nest, by family or exhaustively} */
    private static Walk search(CandidateTimer timer, LoopNest base, Walk estimate, Planning planning, int threads) {
        Elements elements = estimate.elements();
        timer.warmUp(estimate);
        // the families below vary a walk without panels (blocks, strips, staging); where the
        // estimate goes panel by panel they start from its rule without panels, and the
        // estimate's panels join the panel family after them
        Walk best = estimate.paneled() ? Estimate.withoutPanels(base, elements) : estimate;
        if (planning == Planning.EXHAUSTIVE) {
            return timer.fastest(CandidateFamilies.all(base, elements, threads, EXHAUSTIVE_LIMIT));
        }
        // passes: a family timed early (staging, say) is timed again once the later ones (strips,
        // blocks) have moved the best walk, as their best values depend on each other
        for (int pass = 0; pass < MEASURE_PASSES; pass++) {
            best = timeEach(timer, base, best, families(threads, pass));
        }
        // then panels (4-D and deeper transposes); where one wins, its loop order, tile and thread
        // split are timed again (a panel has no blocks or strips)
        List<Walk> panels = withFirst(best, panelCandidates(base, best, estimate));
        if (panels.size() > 1) {
            best = timer.fastest(panels);
            if (best.paneled()) {
                int[] order = best.order();
                best = timeEach(timer, base, best, panelFamilies(threads));
                if (!Arrays.equals(order, best.order())) {
                    best = timer.fastest(withFirst(best, CandidateFamilies.panels(base, best)));
                }
            }
        }
        return best;
    }

    /** {@return the best walk after timing each family in turn, each starting from the best so far} */
    private static Walk timeEach(CandidateTimer timer, LoopNest base, Walk best, List<Family> families) {
        for (Family family : families) {
            List<Walk> candidates = family.apply(base, best);
            if (candidates.size() > 1) {
                best = timer.fastest(withFirst(best, candidates));
            }
        }
        return best;
    }

    /**
     * {@return the panel family: panels of every size in {@code best}'s loop order, tile and thread
     * split ({@link CandidateFamilies#panels}), and where the estimate goes panel by panel, the
     * estimate and panels in its loop order and tile too} The best loop order of walks without
     * panels need not be the best with panels: a 4-D reversal on two threads found another order
     * best without panels in half of the processes and then timed panels in that order only, where
     * the others timed faster panels in the estimate's order.
     */
    public static List<Walk> panelCandidates(LoopNest base, Walk best, Walk estimate) {
        List<Walk> out = new ArrayList<>(CandidateFamilies.panels(base, best));
        if (estimate.paneled()) {
            out.add(estimate);
            if (!Arrays.equals(estimate.order(), best.order()) || estimate.tile() != best.tile()) {
                out.addAll(CandidateFamilies.panels(base, estimate));
            }
        }
        return out;   // withFirst keeps one of each walk
    }

    /**
     * {@return the families of candidates of pass {@code pass} of a measuring planner, in the order
     * timed}: loop orders, staging, stores, strips and band orders, blocks, touches, tiles and (threads) split; blocks
     * every way in the first pass, and next to the best walk's in the later ones
     * ({@link CandidateFamilies#blocksNear}: the first pass has ranked the whole grid, and timing all
     * of it again took a good sample of the plan's time)
     */
    public static List<Family> families(int threads, int pass) {
        List<Family> families = new ArrayList<>();
        families.add(CandidateFamilies::orders);
        families.add(CandidateFamilies::stages);
        families.add(CandidateFamilies::stores);
        families.add(CandidateFamilies::strips);
        families.add(pass == 0 ? CandidateFamilies::blocks : CandidateFamilies::blocksNear);
        families.add(CandidateFamilies::touches);
        families.add(CandidateFamilies::tiles);
        if (threads > 1) {
            families.add(CandidateFamilies::splits);
        }
        return families;
    }

    /** {@return the candidate families that vary a walk with panels besides its panel size: loop order, tile, stores and (threads) split} */
    private static List<Family> panelFamilies(int threads) {
        List<Family> families = new ArrayList<>();
        families.add(CandidateFamilies::orders);
        families.add(CandidateFamilies::tiles);
        families.add(CandidateFamilies::stores);
        if (threads > 1) {
            families.add(CandidateFamilies::splits);
        }
        return families;
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
}
