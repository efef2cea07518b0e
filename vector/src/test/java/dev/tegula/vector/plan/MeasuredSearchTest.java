package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.tegula.vector.PlannerFixtures.*;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.PlannerFixtures;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.vector.TestPlans;
import dev.tegula.vector.Wisdom;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measuring planner's search ({@link MeasuredSearch}): it times candidates and keeps the fastest, runs a final round on the whole nest, times more candidates exhaustively, the families of each pass and the panel family. */
class MeasuredSearchTest {

    @Test
    void measuringTimesCandidatesAndKeepsTheFastestPerByte() {
        RelayoutPlan plan = new PlanCache(8, Wisdom.inMemory()).plan(FROM, TO, Planning.MEASURE, 1);
        assertEquals(PlanOrigin.MEASURED, plan.report().origin());
        assertEquals(Planning.MEASURE, plan.planning());
        List<PlanMeasurement> ms = plan.report().measurements();
        // the scalar kernels have a single walk for this nest; the vector kernels many
        assertTrue(ms.size() >= (Kernel.tileEdges().length == 0 ? 1 : 2), () -> "timed " + ms);
        List<PlanMeasurement> chosen = ms.stream().filter(PlanMeasurement::chosen).toList();
        assertEquals(1, chosen.size(), ms::toString);
        assertEquals(plan.walks().get(0), chosen.get(0).candidate());
        double best = perByte(chosen.get(0));
        // the chosen one won the last family it was timed in; no timed candidate is more than
        // marginally faster than it (families are timed in rounds of their own)
        assertTrue(ms.stream().allMatch(m -> m.bytes() > 0 && m.nanos() > 0), ms::toString);
        assertTrue(best <= ms.stream().mapToDouble(PlannerFixtures::perByte).max().orElseThrow());
        long candidates = ms.stream().map(PlanMeasurement::candidate).distinct().count();
        assertTrue(plan.describe().contains("measured: fastest of " + candidates + " timed candidates"),
                plan.describe());
        RelayoutProperties.checkPlan(FROM, TO, plan);
    }

    @Test
    void theFinalRoundRunsTheEstimateAndThePartsFastestOnTheWholeNestAndKeepsItsFastestOrTheEstimate() {
        ArrayShape from = shape("f32[64,256,256]{2,1,0}");
        ArrayShape to = shape("f32[64,256,256]{1,2,0}");
        RelayoutPlan plan = new PlanCache(8, null).plan(from, to, Planning.MEASURE, 1);
        List<PlanMeasurement> ms = plan.report().measurements();
        List<PlanMeasurement> parts = ms.stream().filter(m -> !m.finalRound()).toList();
        List<PlanMeasurement> finals = ms.stream().filter(PlanMeasurement::finalRound).toList();
        if (parts.size() == 1) {
            assertTrue(finals.isEmpty(), ms::toString);   // one walk: nothing to choose between
            return;
        }
        // 32 MiB read and written: a part is about 16 MiB, a final-round run the whole nest
        assertTrue(parts.stream().allMatch(m -> m.bytes() < 32L << 20), parts::toString);
        assertTrue(finals.stream().allMatch(m -> m.bytes() == 32L << 20), finals::toString);
        String estimate = Relayout.plan(from, to).walks().get(0);
        assertTrue(finals.stream().anyMatch(m -> m.candidate().equals(estimate)), estimate + " not in " + finals);
        assertTrue(finals.size() >= 2 && finals.size() <= 2 + MeasuredSearch.FINALISTS, finals::toString);
        // the finalists besides the estimate and the parts' winner are the fastest parts
        assertTrue(parts.stream().filter(PlanMeasurement::chosen).findAny().isEmpty(), parts::toString);
        List<PlanMeasurement> chosen = finals.stream().filter(PlanMeasurement::chosen).toList();
        assertEquals(1, chosen.size(), finals::toString);
        assertEquals(plan.walks().get(0), chosen.get(0).candidate());
        PlanMeasurement fastest = finals.stream().min(java.util.Comparator.comparingDouble(PlannerFixtures::perByte))
                .orElseThrow();
        PlanMeasurement ofEstimate = finals.stream().filter(m -> m.candidate().equals(estimate)).findFirst()
                .orElseThrow();
        if (CandidateTimer.beatsEstimate(perByte(fastest), perByte(ofEstimate))) {
            assertEquals(perByte(fastest), perByte(chosen.get(0)), 0.0, finals::toString);
            assertFalse(plan.describe().contains("the estimate kept"), plan.describe());
        } else {
            assertEquals(estimate, chosen.get(0).candidate(), finals::toString);
            assertEquals(fastest != ofEstimate, plan.describe().contains("the estimate kept (no walk ran 5% faster)"),
                    plan.describe());
        }
        assertTrue(plan.describe().contains(finals.size() + " of them on the whole relayout"), plan.describe());
        RelayoutProperties.checkPlan(from, to, plan);
    }

    @Test
    void exhaustiveTimesMoreCandidatesThanMeasure() {
        PlanCache cache = new PlanCache(8, null);
        ArrayShape from = shape("bf16[1024,1024]{1,0}");
        ArrayShape to = shape("bf16[1024,1024]{0,1}");
        long measured = parts(cache.plan(from, to, Planning.MEASURE, 1));
        RelayoutPlan all = cache.plan(from, to, Planning.EXHAUSTIVE, 1);
        assertTrue(Kernel.tileEdges().length == 0 || parts(all) > measured, parts(all) + " vs " + measured);
        assertEquals(CandidateFamilies.all(TestPlans.nests(TestPlans.estimate(from, to, 1)).nests().get(0),
                Elements.same(2), 1, MeasuredSearch.EXHAUSTIVE_LIMIT)
                .size(), parts(all));
        RelayoutProperties.checkPlan(from, to, all);
    }

    @Test
    void thePanelFamilyAlsoHoldsPanelsInTheEstimatesLoopOrder() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no panels
        }
        Reversal rev = reversal("f32[64,64,64,64]{3,2,1,0}");
        LoopNest base = rev.nests().nests().get(0);
        Elements b = rev.nests().elements();
        Walk estimate = rev.estimate();
        assertTrue(estimate.paneled(), estimate.toString());
        int[] other = {1, 2, 0, 3};
        assertFalse(java.util.Arrays.equals(other, estimate.order()), estimate.toString());
        // the best walk without panels in another loop order: panels in both orders
        Walk best = WalkRules.make(base, b, new Walk.Spec(other, 0,
                new Walk.Blocked(estimate.tile(), 128, 128, Strips.SOURCE, Bands.SOURCE), 0));
        List<Walk> family = MeasuredSearch.panelCandidates(base, best, estimate).stream().filter(Walk::paneled).toList();
        assertTrue(family.contains(estimate), family::toString);
        for (int[] order : new int[][] {other, estimate.order()}) {
            assertEquals(5 + 6 + 7, family.stream().filter(w -> java.util.Arrays.equals(order, w.order()))
                    .map(Walk::toString).distinct().count(), () -> java.util.Arrays.toString(order) + ": " + family);
        }
        // in the estimate's own loop order and tile: that order's panels only
        Walk same = WalkRules.make(base, b, new Walk.Spec(estimate.order(), 0,
                new Walk.Blocked(estimate.tile(), 128, 128, Strips.SOURCE, Bands.SOURCE), 0));
        List<Walk> own = MeasuredSearch.panelCandidates(base, same, estimate).stream().filter(Walk::paneled).toList();
        assertTrue(own.stream().allMatch(w -> java.util.Arrays.equals(estimate.order(), w.order())), own::toString);
    }

    @Test
    void measuringAPanelledEstimateAlsoVariesTheWalksWithoutPanels() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no panels
        }
        ArrayShape from = shape("f32[32,64,64,32]{3,2,1,0}");
        ArrayShape to = from.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3));
        RelayoutPlan plan = new PlanCache(8, null).plan(from, to, Planning.MEASURE, 1);
        List<String> plain = plan.report().measurements().stream().map(PlanMeasurement::candidate)
                .filter(c -> !c.contains("panel=") && c.contains("block=")).distinct().toList();
        List<String> paneled = plan.report().measurements().stream().map(PlanMeasurement::candidate)
                .filter(c -> c.contains("panel=")).distinct().toList();
        // blocks, strips and staging are timed on walks without panels (several of them), then panels
        assertTrue(plain.size() >= 5, plain::toString);
        assertTrue(plain.stream().map(c -> c.replaceAll(".*block=(\\S+).*", "$1")).distinct().count() >= 3,
                plain::toString);
        assertTrue(paneled.size() >= 2, paneled::toString);
        String estimate = TestPlans.estimate(from, to, 1)
                .walks().get(0);
        assertTrue(paneled.contains(estimate), () -> estimate + " not in " + paneled);
        RelayoutProperties.checkPlan(from, to, plan);
    }

    @Test
    void theSecondPassTimesOnlyTheBlocksNextToTheBestWalks() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels take no blocks
        }
        // f32 2048² transposed: source rows 2048 slots apart, destination rows 2048 apart
        LoopNest base = new LoopNest(new long[] {2048, 2048}, new long[] {1, 2048}, new long[] {2048, 1}, 0, 0);
        Walk estimate = Estimate.of(base, Elements.same(4));
        Walk.Blocked e = (Walk.Blocked) estimate.form();
        Walk w = WalkRules.make(base, Elements.same(4), estimate.spec().withForm(
                new Walk.Blocked(e.tile(), 256, 64, e.strips(), e.bands())));
        // the fifth family of a pass: orders, staging, stores, strips, blocks (then touches, tiles)
        List<Walk> grid = MeasuredSearch.families(1, 0).get(4).apply(base, w);
        List<Walk> near = MeasuredSearch.families(1, 1).get(4).apply(base, w);
        assertEquals(36, grid.size(), grid::toString);   // 32 to 1024 on each side
        java.util.Set<String> blocks = new java.util.TreeSet<>();
        for (Walk c : near) {
            blocks.add(((Walk.Blocked) c.form()).blockI() + "x" + ((Walk.Blocked) c.form()).blockJ());
            assertEquals(w.toString().replaceAll("block=\\S+", ""), c.toString().replaceAll("block=\\S+", ""));
        }
        assertEquals(new java.util.TreeSet<>(List.of("128x32", "128x64", "128x128", "256x32", "256x64", "256x128",
                "512x32", "512x64", "512x128")), blocks);
        assertEquals(w.toString(), near.get(0).toString());   // the best walk itself is timed again, first
        // a walk at the edge of the grid has fewer neighbours; a walk without blocks has none
        Walk corner = WalkRules.make(base, Elements.same(4), w.spec().withForm(
                new Walk.Blocked(e.tile(), 1024, 32, e.strips(), e.bands())));
        assertEquals(4, CandidateFamilies.blocksNear(base, corner).size());
        LoopNest copy = new LoopNest(new long[] {2048, 2048}, new long[] {2048, 1}, new long[] {2048, 1}, 0, 0);
        Walk rows = Estimate.of(copy, Elements.same(4));
        assertEquals(List.of(rows.toString()), CandidateFamilies.blocksNear(copy, rows).stream().map(Walk::toString).toList());
    }
}
