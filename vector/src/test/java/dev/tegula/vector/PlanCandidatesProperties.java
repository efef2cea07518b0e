package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.plan.CandidateFamilies;
import dev.tegula.vector.plan.LoopNest;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRules;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Every candidate walk a planner may choose gives the reference relayout, byte for byte: random
 * relayouts (transposes of every rank up to 4, tiles, padding, f32 to bf16), and for each loop
 * nest random walks from its whole candidate space (loop orders, thread splits, tiles, blocks,
 * strips, staging, band orders), run on one thread and cut between three. vector/pom.xml runs it at
 * every vector width, so the 16x16, 8x8 and scalar kernels all meet every walk.
 */
class PlanCandidatesProperties {
    private static final ElementType[] TYPES = {ElementType.F32, ElementType.BF16, ElementType.S8, ElementType.F64,
        ElementType.F16, ElementType.C64};
    private static ExecutorService pool;

    @BeforeContainer
    static void startPool() {
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterContainer
    static void stopPool() {
        pool.shutdownNow();
    }

    @Property(tries = 300)
    void everyCandidateWalkMatchesReference(@ForAll("relayouts") Tuple.Tuple2<ArrayShape, ArrayShape> pair,
                                            @ForAll long seed) {
        ArrayShape from = pair.get1();
        ArrayShape to = pair.get2();
        RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
        if (!(TestPlans.strategy(estimate) instanceof RelayoutStrategy.Nests nests)) {
            return;
        }
        Elements b = nests.elements();
        Random r = new Random(seed);
        List<List<Walk>> spaces = new ArrayList<>();
        for (LoopNest base : nests.nests()) {
            List<Walk> all = CandidateFamilies.all(base, b, 3, 20_000);
            assertTrue(all.size() >= 1);
            spaces.add(all);
        }
        for (int round = 0; round < 4; round++) {
            List<Walk> walks = new ArrayList<>();
            for (int k = 0; k < spaces.size(); k++) {
                LoopNest base = nests.nests().get(k);
                List<Walk> all = spaces.get(k);
                Walk w = all.get(r.nextInt(all.size()));
                assertEquals(w.toString(), Walk.parse(w.toString(), base, b).toString(), "text form round trip");
                walks.add(w);
            }
            RelayoutPlan plan = TestPlans.of(from, to, nests, walks, 3);
            RelayoutProperties.checkPlan(from, to, plan, null, 1);
            RelayoutProperties.checkPlan(from, to, plan, pool, 3);
        }
    }

    /**
     * Walks with panels on 4- and 5-D transposes whose kernel loops hold whole tiles: every panel
     * walk of the candidate space, and panels of random sizes (the last panel of a loop short, one
     * panel index, a whole loop), on one thread and cut between three.
     */
    @Property(tries = 60)
    void everyPanelWalkMatchesReference(@ForAll("panelRelayouts") Tuple.Tuple2<ArrayShape, ArrayShape> pair,
                                        @ForAll long seed) {
        ArrayShape from = pair.get1();
        ArrayShape to = pair.get2();
        RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
        RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
        Elements b = nests.elements();
        LoopNest base = nests.nests().get(0);
        Random r = new Random(seed);
        List<Walk> panels = new ArrayList<>(CandidateFamilies.all(base, b, 3, 20_000).stream().filter(Walk::paneled).toList());
        if (Tuning.TILE == 0) {
            assertTrue(panels.isEmpty(), "no panels without vector tiles");
            return;
        }
        assertTrue(!panels.isEmpty(), "panel walks of " + base);
        for (Walk w : List.copyOf(panels)) {
            int[] loops = Walk.panelLoops(w.nest());
            long[] e = w.nest().extents();
            Walk odd = WalkRules.make(base, b, w.spec().withForm(new Walk.Paneled(w.tile(),
                    1 + r.nextInt((int) e[loops[0]]), 1 + r.nextInt((int) e[loops[1]]), r.nextBoolean())));
            if (odd != null) {
                panels.add(odd);
            }
        }
        for (int round = 0; round < 3; round++) {
            Walk w = panels.get(r.nextInt(panels.size()));
            assertEquals(w.toString(), Walk.parse(w.toString(), base, b).toString(), "text form round trip");
            RelayoutPlan plan = TestPlans.of(from, to, nests, List.of(w), 3);
            RelayoutProperties.checkPlan(from, to, plan, null, 1);
            RelayoutProperties.checkPlan(from, to, plan, pool, 3);
        }
    }

    /**
     * f32 or bf16 reversals of rank 4 and 5: the source's minor dimension and the destination's of
     * 32 or 64 elements, the others of 2 to 9, so that the nest keeps two loops or more besides the
     * transposed pair.
     */
    @Provide
    Arbitrary<Tuple.Tuple2<ArrayShape, ArrayShape>> panelRelayouts() {
        return Arbitraries.randomValue(r -> {
            ElementType t = r.nextBoolean() ? ElementType.F32 : ElementType.BF16;
            int rank = 4 + r.nextInt(2);
            long[] dims = new long[rank];
            for (int d = 0; d < rank; d++) {
                dims[d] = 2 + r.nextInt(8);
            }
            // source row-major (minor dimension rank-1), destination reversed (minor dimension 0): no
            // two dimensions adjacent in both, so the nest keeps a loop per dimension
            dims[rank - 1] = 32L << r.nextInt(2);
            dims[0] = 32L << r.nextInt(2);
            int[] dst = new int[rank];
            for (int k = 0; k < rank; k++) {
                dst[k] = k;
            }
            ArrayShape a = ArrayShape.of(t, dims);
            ArrayShape c = a.withLayout(dev.tegula.core.Layout.of(dst));
            return Tuple.of(a, c);
        });
    }

    /** Ranks 1 to 4, extents up to 70 (at most 40,000 elements), layouts as {@link RelayoutProperties} makes them; f32 pairs sometimes to bf16. */
    @Provide
    Arbitrary<Tuple.Tuple2<ArrayShape, ArrayShape>> relayouts() {
        return Arbitraries.randomValue(r -> {
            ElementType t = TYPES[r.nextInt(TYPES.length)];
            long[] dims = new long[1 + r.nextInt(4)];
            for (int d = 0; d < dims.length; d++) {
                dims[d] = 1 + r.nextInt(r.nextInt(4) == 0 ? 8 : 70);
            }
            while (elements(dims) > 40_000) {
                int big = 0;
                for (int d = 1; d < dims.length; d++) {
                    big = dims[d] > dims[big] ? d : big;
                }
                dims[big] = (dims[big] + 1) / 2;
            }
            ArrayShape a = RelayoutProperties.randomShape(t, dims, r);
            ArrayShape b = RelayoutProperties.randomShape(t, dims, r);
            if (t == ElementType.F32 && r.nextInt(3) == 0) {
                b = ArrayShape.of(ElementType.BF16, dims).withLayout(b.layout());
            }
            return Tuple.of(a, b);
        });
    }

    private static long elements(long[] dims) {
        long n = 1;
        for (long d : dims) {
            n *= d;
        }
        return n;
    }
}
