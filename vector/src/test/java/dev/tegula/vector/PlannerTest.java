package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.plan.CandidateFamilies;
import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.LoopNest;
import dev.tegula.vector.plan.MeasuredSearch;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Tasks;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRules;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.CandidateTimer;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
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

/**
 * The planner's modes, its wisdom and its cache: a measuring plan times candidates and keeps the
 * fastest, wisdom answers later plans without timing, wisdom that does not fit (another machine, a
 * walk that does not fit the nest, a corrupt file) is ignored, and every plan gives the reference
 * result.
 */
class PlannerTest {
    private static final ArrayShape FROM = shape("f32[16,256,256]{2,1,0}");
    private static final ArrayShape TO = shape("f32[16,256,256]{0,1,2}");

    private static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    @Test
    void theFinalRoundRunsTwiceWhenTheJitIsQuiet() {
        long[] clock = {0};
        int rounds = CandidateTimer.finalRounds(() -> 42, () -> clock[0], () -> clock[0] += 1_000_000);
        assertEquals(CandidateTimer.TIMED_ROUNDS, rounds);
    }

    @Test
    void theFinalRoundRunsAgainWhileTheJitFinishesCompilations() {
        // the JIT's total compilation time moves during the first three rounds only
        long[] jit = {100};
        int[] ran = {0};
        int rounds = CandidateTimer.finalRounds(() -> jit[0], () -> 0, () -> {
            if (++ran[0] <= 3) {
                jit[0] += 7;
            }
        });
        assertEquals(4, rounds);
        assertEquals(4, ran[0]);
    }

    @Test
    void theFinalRoundStopsAtItsLimitAndItsTimeBudget() {
        long[] jit = {0};
        assertEquals(CandidateTimer.FINAL_MAX_ROUNDS, CandidateTimer.finalRounds(() -> jit[0], () -> 0, () -> jit[0]++));
        long[] clock = {0};
        long step = CandidateTimer.FINAL_EXTRA_BUDGET_NANOS / 2 + 1;
        assertEquals(2, CandidateTimer.finalRounds(() -> jit[0], () -> clock[0], () -> {
            jit[0]++;
            clock[0] += step;
        }));
        // no compilation time reported (-1): the plain two rounds
        assertEquals(CandidateTimer.TIMED_ROUNDS, CandidateTimer.finalRounds(() -> -1, () -> 0, () -> { }));
    }

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
        assertTrue(best <= ms.stream().mapToDouble(PlannerTest::perByte).max().orElseThrow());
        long candidates = ms.stream().map(PlanMeasurement::candidate).distinct().count();
        assertTrue(plan.describe().contains("measured: fastest of " + candidates + " timed candidates"),
                plan.describe());
        RelayoutProperties.checkPlan(FROM, TO, plan);
    }

    @Test
    void aPartGivesEachThreadAtLeastOneBlockAlongTheLoopTheThreadsShare() {
        // 1024 source rows of 8192 f32: 64 KiB read and written per source row, so a part of about
        // 16 MiB holds 256 of them, 128 per thread, under the blocks of up to 1024 rows
        ArrayShape from = shape("f32[1024,8192]{1,0}");
        ArrayShape to = shape("f32[1024,8192]{0,1}");
        RelayoutPlan plan = new PlanCache(8, null).plan(from, to, Planning.MEASURE, 2);
        long perSourceRow = 8192L * 8;
        long perSourceColumn = 1024L * 8;
        long whole = 1024L * 8192 * 8;
        java.util.regex.Pattern blocked = java.util.regex.Pattern.compile("split=(\\d) .*block=(\\d+)x(\\d+)");
        int checked = 0;
        for (PlanMeasurement m : plan.report().measurements()) {
            java.util.regex.Matcher b = blocked.matcher(m.candidate());
            if (m.finalRound() || !b.find()) {
                continue;   // the final round runs the whole nest; walks without blocks have no floor
            }
            // loop 0 is the source-contiguous loop (blocks of blockI), loop 1 the innermost (blockJ)
            long floor = b.group(1).equals("0")
                    ? 2 * Long.parseLong(b.group(2)) * perSourceColumn
                    : 2 * Long.parseLong(b.group(3)) * perSourceRow;
            assertTrue(m.bytes() >= Math.min(whole, floor), () -> m + ": under " + Math.min(whole, floor) + " bytes");
            checked++;
        }
        assertTrue(checked > 0 || Kernel.tileEdges().length == 0, plan.report().measurements()::toString);
        RelayoutProperties.checkPlan(from, to, plan);
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
        PlanMeasurement fastest = finals.stream().min(java.util.Comparator.comparingDouble(PlannerTest::perByte))
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
    void anotherWalkReplacesTheEstimateOnlyByTakingLessThanNineteenTwentiethsOfItsTime() {
        assertTrue(CandidateTimer.beatsEstimate(0.94, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(0.96, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(1.0, 1.0));
        assertFalse(CandidateTimer.beatsEstimate(1.2, 1.0));
        assertTrue(CandidateTimer.beatsEstimate(4.0, 8.0));
    }

    /** {@return how many candidates the plan timed on parts (every candidate once; the final round aside)} */
    private static long parts(RelayoutPlan plan) {
        return plan.report().measurements().stream().filter(m -> !m.finalRound()).count();
    }

    private static double perByte(PlanMeasurement m) {
        return (double) m.nanos() / m.bytes();
    }

    @Test
    void exhaustiveTimesMoreCandidatesThanMeasure() {
        PlanCache cache = new PlanCache(8, null);
        ArrayShape from = shape("bf16[1024,1024]{1,0}");
        ArrayShape to = shape("bf16[1024,1024]{0,1}");
        long measured = parts(cache.plan(from, to, Planning.MEASURE, 1));
        RelayoutPlan all = cache.plan(from, to, Planning.EXHAUSTIVE, 1);
        assertTrue(Kernel.tileEdges().length == 0 || parts(all) > measured, parts(all) + " vs " + measured);
        assertEquals(CandidateFamilies.all(TestPlans.estimate(from, to, 1)
                .strategy() instanceof RelayoutStrategy.Nests n ? n.nests().get(0) : null, Elements.same(2), 1, MeasuredSearch.EXHAUSTIVE_LIMIT)
                .size(), parts(all));
        RelayoutProperties.checkPlan(from, to, all);
    }

    @Test
    void estimateAndSmallAutoPlansTimeNothing() {
        PlanCache cache = new PlanCache(8, Wisdom.inMemory());
        RelayoutPlan estimate = cache.plan(FROM, TO, Planning.ESTIMATE, 1);
        assertEquals(PlanOrigin.ESTIMATE, estimate.report().origin());
        assertTrue(estimate.report().measurements().isEmpty());
        RelayoutPlan auto = cache.plan(FROM, TO, Planning.AUTO, 1);   // 4 MiB: under AUTO's threshold
        assertEquals(PlanOrigin.ESTIMATE, auto.report().origin());
        assertEquals(Planning.ESTIMATE, auto.planning());
        assertEquals(0, cache.wisdom().size());
    }

    @Test
    void wisdomAnswersALaterPlanWithoutTiming(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        Wisdom w = Wisdom.at(file);
        RelayoutPlan measured = new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 2);
        assertEquals(1, w.size());
        assertTrue(Files.readString(file).startsWith("# Tegula relayout wisdom 1\nplan\t"), Files.readString(file));
        // a new process: the file read again
        RelayoutPlan again = new PlanCache(8, Wisdom.at(file)).plan(FROM, TO, Planning.MEASURE, 2);
        assertEquals(PlanOrigin.WISDOM, again.report().origin());
        assertTrue(again.report().measurements().isEmpty());
        assertEquals(measured.walks(), again.walks());
        assertTrue(again.describe().contains("from wisdom"), again.describe());
        // another thread count is another key: measured again
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, Wisdom.at(file)).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // export and import
        Path out = dir.resolve("exported.txt");
        w.exportTo(out);
        Wisdom fresh = Wisdom.inMemory();
        assertEquals(1, fresh.importFrom(out));
        assertEquals(PlanOrigin.WISDOM, new PlanCache(8, fresh).plan(FROM, TO, Planning.EXHAUSTIVE, 2).report().origin());
        RelayoutProperties.checkPlan(FROM, TO, again);
    }

    @Test
    void wisdomOfAnotherMachineIsKeptButNotUsed(@TempDir Path dir) throws IOException {
        Wisdom w = Wisdom.inMemory();
        new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        Path out = dir.resolve("w.txt");
        w.exportTo(out);
        String text = Files.readString(out);
        String cpu = Wisdom.cpuModel();
        Files.writeString(out, text.replace("plan\t" + cpu + "\t", "plan\tSome Other CPU 9000\t"));
        Wisdom other = Wisdom.inMemory();
        assertEquals(0, other.importFrom(out));
        assertEquals(1, other.size());
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, other).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
    }

    @Test
    void wisdomWhoseWalkDoesNotFitIsIgnored(@TempDir Path dir) throws IOException {
        Wisdom w = Wisdom.inMemory();
        RelayoutPlan first = new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        Path out = dir.resolve("w.txt");
        w.exportTo(out);
        String walk = first.walks().get(0);
        for (String bad : new String[] {"order=2,1,0 split=0", "order=0,0,2 split=0 tile=16 block=64x64 strips=source bands=source",
            "order=0,1,2 split=7 tile=16 block=64x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=50x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=512x512 strips=staged bands=source",
            "order=0,1,2 split=0 tile=12 block=64x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=64x64 strips=sideways bands=source",
            "order=x split=0", "nonsense"}) {
            Files.writeString(out, Files.readString(dir.resolve("w.txt")).replace("0:" + walk, "0:" + bad));
            Wisdom edited = Wisdom.inMemory();
            edited.importFrom(out);
            RelayoutPlan p = new PlanCache(8, edited).plan(FROM, TO, Planning.MEASURE, 1);
            assertEquals(PlanOrigin.MEASURED, p.report().origin(), bad);
            w.exportTo(out);
        }
    }

    @Test
    void corruptWisdomFilesAreIgnored(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        Files.writeString(file, "plan\tonly\tthree\n\u0000\u0001binary\nplan\ta\tb\tc\tnot-a-number\td\te\tf\tg\th\n"
                + "plan\tcpu\t512\tjdk\t1\tf32[2]{0}\tf32[2]{0}\t-\t-\t0:order=0 split=0\n");
        Wisdom w = Wisdom.at(file);
        assertEquals(1, w.size());   // the one well-formed line (of another machine)
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // a file over the size limit is not read at all
        Path big = dir.resolve("big.txt");
        try (var ch = Files.newByteChannel(big, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.position(Wisdom.MAX_FILE_BYTES);
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}));
        }
        assertEquals(0, Wisdom.at(big).size());
        assertThrows(IOException.class, () -> Wisdom.inMemory().importFrom(big));
    }

    @Test
    void wisdomCanBeTurnedOffOrMoved() {
        String old = System.getProperty(Wisdom.PROPERTY);
        try {
            System.setProperty(Wisdom.PROPERTY, "off");
            assertEquals(null, Wisdom.defaultFile());
            System.setProperty(Wisdom.PROPERTY, "/tmp/elsewhere/w.txt");
            assertEquals(Path.of("/tmp/elsewhere/w.txt"), Wisdom.defaultFile());
            System.clearProperty(Wisdom.PROPERTY);
            assertTrue(Wisdom.defaultFile().endsWith(Path.of("tegula", "relayout-wisdom.txt")), Wisdom.defaultFile().toString());
        } finally {
            if (old == null) {
                System.clearProperty(Wisdom.PROPERTY);
            } else {
                System.setProperty(Wisdom.PROPERTY, old);
            }
        }
    }

    @Test
    void stagedWalksCutTheDestinationIntoPiecesAndMatchTheReference() {
        // 16 MiB: each index of the outermost loop writes 256 KiB of destination, so a 3 MiB stage is
        // 12 indices and the relayout takes six pieces (the last one short)
        ArrayShape from = shape("f32[64,256,256]{2,1,0}");
        for (ArrayShape to : new ArrayShape[] {shape("f32[64,256,256]{1,2,0}"), shape("f32[64,256,256]{0,1,2}"),
            shape("bf16[64,256,256]{1,2,0}")}) {
            RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
            RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
            Elements b = nests.elements();
            LoopNest base = nests.nests().get(0);
            List<Walk> staged = CandidateFamilies.stages(base, TestPlans.walks(estimate).get(0)).stream()
                    .filter(w -> w.stage() > 0).toList();
            assertFalse(staged.isEmpty(), to.toString());
            for (Walk w : staged) {
                long unit = WalkRules.stageUnit(w.nest(), w.split()) * (to.slotBits() / 8);
                assertTrue(unit > 0 && unit <= w.stage(), w.toString());
                RelayoutPlan plan = TestPlans.of(from, to, nests, List.of(w), 1);
                RelayoutProperties.checkPlan(from, to, plan);
            }
        }
    }

    @Test
    void theEstimateGoesPanelByPanelWhereBothSidesRowsLieFarApartAroundASmallPair() {
        // 4-D reversals: the transposed pair holds 32x32 elements, source rows and destination rows
        // lie 512 KiB (f32) or 256 KiB (bf16) apart
        ArrayShape f32 = shape("f32[32,64,64,32]{3,2,1,0}");
        ArrayShape bf16 = shape("bf16[32,64,64,32]{3,2,1,0}");
        for (ArrayShape from : new ArrayShape[] {f32, bf16}) {
            ArrayShape to = from.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3));
            RelayoutPlan estimate = TestPlans.estimate(from, to, 2);
            Walk w = TestPlans.walks(estimate).get(0);
            if (Tuning.TILE == 0) {
                assertFalse(w.paneled(), w.toString());
                continue;
            }
            assertTrue(w.paneled(), w.toString());
            int[] loops = Walk.panelLoops(w.nest());
            // the inner panel loop continues the source rows: the smaller source stride of the two
            assertTrue(w.nest().srcStrides()[loops[1]] < w.nest().srcStrides()[loops[0]], w.toString());
            long pair = 32 * 32 * (from.slotBits() / 8);
            assertEquals(Estimate.ESTIMATE_PANEL_BYTES, ((Walk.Paneled) w.form()).outer() * ((Walk.Paneled) w.form()).inner() * pair, w.toString());
            // beside a walk with panels, the panel family offers the estimate's rule without panels
            RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
            Elements b = nests.elements();
            List<Walk> family = CandidateFamilies.panels(nests.nests().get(0), w);
            assertTrue(family.stream().anyMatch(c -> !c.paneled() && c.tile() > 0 && c.form() instanceof Walk.Blocked), family::toString);
            RelayoutProperties.checkPlan(from, to, estimate);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                RelayoutProperties.checkPlan(from, to, estimate, pool, 2);
            } finally {
                pool.shutdownNow();
            }
        }
        // near rows (a 3-D transpose keeps one loop besides the pair; a small 4-D one has rows near): no panels
        assertFalse(TestPlans.estimate(FROM, TO, 1).walkList().get(0)
                .paneled());
        ArrayShape small = shape("f32[32,4,4,32]{3,2,1,0}");
        assertFalse(TestPlans.estimate(small, small.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3)), 1).walkList()
                .get(0).paneled());
    }

    /** An f32 4-D reversal, its nests, its estimate's walk and the panel walks of that walk's panel family. */
    private record Reversal(ArrayShape from, ArrayShape to, RelayoutStrategy.Nests nests, Walk estimate,
                            List<Walk> panels) {
    }

    private static Reversal reversal(String source) {
        ArrayShape from = shape(source);
        ArrayShape to = from.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3));
        RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
        RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
        List<Walk> panels = CandidateFamilies.panels(nests.nests().get(0), TestPlans.walks(estimate).get(0))
                .stream().filter(Walk::paneled).toList();
        return new Reversal(from, to, nests, TestPlans.walks(estimate).get(0), panels);
    }

    @Test
    void threadsSharingAPanelLoopAreCutOnWholePanels() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no panels
        }
        // a 4-D reversal: dimensions 0 and 3 make the transposed pair, 1 and 2 the panel loops (16 each)
        Reversal rev = reversal("f32[32,16,16,32]{3,2,1,0}");
        Walk any = rev.panels().getFirst();
        int[] loops = Walk.panelLoops(any.nest());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int k = 0; k < 2; k++) {
                Walk w = WalkRules.make(rev.nests().nests().get(0), rev.nests().elements(),
                        new Walk.Spec(any.order(), loops[k], new Walk.Paneled(any.tile(), 4, 2), 0));
                long panel = k == 0 ? 4 : 2;
                assertEquals(panel, w.splitBlock(), w.toString());
                assertEquals(panel, w.alignment(), w.toString());
                // four tasks share 16 indices: each part (4) and piece holds whole panels, where eighths
                // of a part would be single indices
                List<long[]> runs = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
                Tasks.forEachPart(pool, 4, w.splitExtent(), w.alignment(),
                        (lo, hi) -> runs.add(new long[] {lo, hi}));
                assertTrue(runs.size() >= 4, w.toString());
                for (long[] r : runs) {
                    assertEquals(0, r[0] % panel, w + ": run " + r[0] + ".." + r[1]);
                    assertEquals(0, r[1] % panel, w + ": run " + r[0] + ".." + r[1]);
                }
                RelayoutPlan plan = TestPlans.of(rev.from(), rev.to(), rev.nests(), List.of(w), 4);
                RelayoutProperties.checkPlan(rev.from(), rev.to(), plan, pool, 4);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void panelCandidatesShareTheLoopThePanelIsNarrowerAlong() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no panels
        }
        List<Walk> panels = reversal("f32[64,64,64,64]{3,2,1,0}").panels();
        // panels of 256 KiB, 512 KiB and 1 MiB of 16 KiB pairs (16, 32 and 64 indices), each cut every
        // way between the two loops in powers of two
        assertEquals(5 + 6 + 7, panels.size(), panels::toString);
        for (Walk w : panels) {
            int[] loops = Walk.panelLoops(w.nest());
            Walk.Paneled p = (Walk.Paneled) w.form();
            long narrow = Math.min(p.outer(), p.inner());
            assertEquals(narrow, w.splitBlock(), w.toString());
            if (p.outer() != p.inner()) {
                assertEquals(p.outer() < p.inner() ? loops[0] : loops[1], w.split(), w.toString());
            }
        }
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
        List<Walk> grid = MeasuredSearch.families(1, 0).get(3).apply(base, w);
        List<Walk> near = MeasuredSearch.families(1, 1).get(3).apply(base, w);
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

    @Test
    void onlyALoopWhoseDestinationRegionIsDenseCanBeStaged() {
        // loops in destination order: dst strides 4096, 64, 1 (dense) -> every loop's region is a block
        LoopNest dense = new LoopNest(new long[] {8, 64, 64}, new long[] {1, 512, 8}, new long[] {4096, 64, 1}, 0, 0);
        assertEquals(4096, WalkRules.stageUnit(dense, 0));
        assertEquals(0, WalkRules.stageUnit(dense, 1));   // one index of the middle loop: 64 slots, 4096 apart
        // a padded destination (rows 72 slots apart for 64 elements): nothing is a dense block
        LoopNest padded = new LoopNest(new long[] {8, 64}, new long[] {64, 1}, new long[] {72, 1}, 0, 0);
        assertEquals(0, WalkRules.stageUnit(padded, 0));
    }

    @Test
    void cacheKeepsAtMostItsCapacityAndClears() {
        PlanCache cache = new PlanCache(2, null);
        RelayoutPlan a = cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}"));
        assertSame(a, cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}")));
        cache.plan(shape("f32[5,8]{1,0}"), shape("f32[5,8]{0,1}"));
        cache.plan(shape("f32[6,8]{1,0}"), shape("f32[6,8]{0,1}"));
        assertEquals(2, cache.size());
        assertNotSame(a, cache.plan(shape("f32[4,8]{1,0}"), shape("f32[4,8]{0,1}")));   // evicted, made again
        cache.clear();
        assertEquals(0, cache.size());
        assertEquals(2, cache.capacity());
        assertThrows(IllegalArgumentException.class, () -> new PlanCache(-1, null));
        assertThrows(IllegalArgumentException.class, () -> cache.plan(FROM, TO, Planning.ESTIMATE, 0));
    }

    @Test
    void aViewPlanServesViewsAtOtherOffsets() {
        try (Arena arena = Arena.ofConfined()) {
            Array big = Array.allocate(arena, shape("f32[64,100]{1,0}"));
            for (long i = 0; i < 64 * 100; i++) {
                big.segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            }
            PlanCache cache = new PlanCache(8, null);
            Array left = big.slice(1, 0, 40);
            Array right = big.slice(1, 50, 90);
            Array d1 = Array.allocate(arena, shape("f32[64,40]{0,1}"));
            Array d2 = Array.allocate(arena, shape("f32[64,40]{0,1}"));
            RelayoutPlan p = cache.plan(left, d1, Planning.ESTIMATE, 1, null);
            assertSame(p, cache.plan(right, d2, Planning.ESTIMATE, 1, null));
            p.execute(left, d1);
            p.execute(right, d2);
            for (long i = 0; i < 64; i++) {
                for (long j = 0; j < 40; j++) {
                    assertEquals(i * 100 + j, d1.getFloat(i, j));
                    assertEquals(i * 100 + 50 + j, d2.getFloat(i, j));
                }
            }
            // other strides do not fit the plan
            Array everyOther = big.slice(1, 0, 80, 2);
            assertThrows(IllegalArgumentException.class, () -> p.execute(everyOther, d1));
            assertThrows(IllegalStateException.class, () -> p.execute(left.segment(), d1.segment()));
        }
    }

    @Test
    void measuringOnArraysWritesTheRelayoutAndSplitsBetweenThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Arena arena = Arena.ofShared()) {
            Array src = Array.allocate(arena, FROM);
            for (long i = 0; i < FROM.elementCount(); i++) {
                src.segment().setAtIndex(ValueLayout.JAVA_INT, i, (int) (i * 2654435761L));
            }
            Array dst = Array.allocate(arena, TO);
            RelayoutPlan plan = new PlanCache(4, null).plan(src, dst, Planning.MEASURE, 2, pool);
            assertEquals(2, plan.threads());
            assertFalse(plan.report().measurements().isEmpty());
            plan.execute(src, dst, pool, 2);
            MemorySegment ref = arena.allocate(TO.bufferSize());
            ReferenceRelayout.copy(FROM, src.segment(), TO, ref);
            assertEquals(-1, ref.mismatch(dst.segment()));
        } finally {
            pool.shutdownNow();
        }
    }
}
