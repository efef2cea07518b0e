package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static dev.tegula.vector.PlannerFixtures.*;
import dev.tegula.ffm.Array;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.PlannerFixtures;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.vector.Wisdom;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Strips;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.ReferenceRelayout;
import dev.tegula.vector.TestPlans;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.KernelTrace;
import dev.tegula.vector.kernels.Tuning;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What runs is what the plan names: candidate walks of transposes (tiles, blocks, strips, staging,
 * panels, streaming stores), narrow rows, zips, runs, the fused f32 → bf16 conversion and the widening ones, a spread of each kernel's
 * candidates per case, run the kernel they name and no other, on one thread and cut between three, and matches the reference.
 * vector/pom.xml runs this class at the machine's widest vectors, at {@code -XX:UseAVX=2} and with
 * the scalar kernels.
 */
class WalkRunnerTest {
    private static final String[] CASES = {
        "f32[67,1041]{1,0}|f32[67,1041]{0,1}",                       // tiles
        "bf16[100,96]{1,0}|bf16[100,96]{0,1}",                       // tiles of 2-byte elements
        "f32[6,1000]{1,0}|f32[6,1000]{0,1}",                         // narrow: interleave
        "f32[1000,6]{1,0}|f32[1000,6]{0,1}",                         // narrow: deinterleave
        "bf16[12,300]{1,0}|bf16[12,300]{0,1}",                       // narrow 2-byte rows
        "bf16[64,256]{1,0}|bf16[64,256]{1,0:T(8,128)(2,1)}",         // zip
        "bf16[64,256]{1,0:T(8,128)(2,1)}|bf16[64,256]{1,0}",         // unzip
        "f32[32,16,16,32]{3,2,1,0}|f32[32,16,16,32]{0,1,2,3}",       // panels
        "f32[64,256]{1,0}|f32[64,256]{1,0:T(8,128)}",                 // runs
        "s8[30,40]{1,0}|s8[30,40]{0,1}",                             // 1-byte transpose, element by element
        "f32[96,80]{1,0}|bf16[96,80]{0,1}",                          // fused conversion, tiles
        "f32[64,256]{1,0}|bf16[64,256]{1,0:T(8,128)(2,1)}",          // fused conversion, zip
        "f32[40,50]{1,0}|bf16[40,50]{1,0}",                          // fused conversion, runs
        "bf16[64,256]{1,0}|f32[64,256]{1,0:T(8,128)}",                // widening, runs
        "f16[40,50]{1,0}|f32[40,50]{0,1}",                           // widening, transpose
        "f8e4m3fn[96,80]{1,0}|f64[96,80]{0,1}",                      // widening, transpose through the buffer
        "bf16[64,256]{1,0:T(8,128)(2,1)}|f32[64,256]{1,0}",          // widening, bf16 pairs
        "s4[30,40]{1,0:E(4)}|f32[30,40]{1,0}",                       // widening, packed 4-bit runs
        "f32[30,40]{1,0}|f64[30,40]{0,1}",                           // widening, f32 -> f64 transpose
        "s4[300]{0}|s4[300]{0:E(4)}",                                // pack
        "s4[300]{0:E(4)}|s4[300]{0}",                                // unpack
    };

    /** Candidates of each kernel run per case: spread over the families (orders, blocks, strips, staging, splits). */
    private static final int PER_KERNEL = 24;

    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(3);
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void candidatesRunTheKernelTheyName() {
        Set<Kernel> seen = EnumSet.noneOf(Kernel.class);
        for (String c : CASES) {
            String[] p = c.split("\\|");
            ArrayShape from = ArrayShape.parse(p[0]);
            ArrayShape to = ArrayShape.parse(p[1]);
            try (Arena arena = Arena.ofShared()) {
                MemorySegment src = arena.allocate((from.bufferSize() + 3) / 4 * 4);
                Random r = new Random(c.hashCode());
                for (long i = 0; i < src.byteSize(); i += 4) {
                    src.set(ValueLayout.JAVA_INT_UNALIGNED, i, r.nextInt());
                }
                MemorySegment ref = arena.allocate(to.bufferSize());
                ReferenceRelayout.copy(from, src, to, ref);
                MemorySegment fast = arena.allocate(to.bufferSize());
                RelayoutPlan estimate = TestPlans.estimate(from, to, 3);
                if (!(TestPlans.strategy(estimate) instanceof RelayoutStrategy.Nests nests)) {
                    Kernel k = ((RelayoutStrategy.Pack4) TestPlans.strategy(estimate)).kernel();
                    assertEquals(Set.of(k), ran(estimate, src, fast, ref, null, 1), c);
                    seen.add(k);
                    continue;
                }
                List<Walk> estimates = TestPlans.walks(estimate);
                for (int n = 0; n < estimates.size(); n++) {
                    for (Walk w : sample(CandidateFamilies.all(nests.nests().get(n), nests.elements(), 3, 20_000))) {
                        List<Walk> walks = new ArrayList<>(estimates);
                        walks.set(n, w);
                        Set<Kernel> named = new HashSet<>();
                        walks.forEach(x -> named.add(x.kernel()));
                        RelayoutPlan plan = TestPlans.of(from, to, nests, walks, 3);
                        assertEquals(named, ran(plan, src, fast, ref, null, 1), () -> c + " one thread: " + w);
                        assertEquals(named, ran(plan, src, fast, ref, pool, 3), () -> c + " three threads: " + w);
                        seen.add(w.kernel());
                    }
                }
            }
        }
        // the cases reach every kernel this machine's vectors allow
        Set<Kernel> expected = EnumSet.of(Kernel.COPY_RUNS, Kernel.TRANSPOSE_ELEMENTS, Kernel.CONVERT_RUNS,
                Kernel.PACK_4, Kernel.UNPACK_4, Kernel.WIDEN_RUNS, Kernel.WIDEN_TRANSPOSE);
        if (Tuning.VECTOR) {
            expected.addAll(EnumSet.of(Kernel.ZIP_2, Kernel.UNZIP_2, Kernel.INTERLEAVE, Kernel.DEINTERLEAVE,
                    Kernel.PANELS, Kernel.TILES_8, Kernel.CONVERT_ZIP_2, Kernel.WIDEN_PAIRS));
        }
        if (Tuning.TILE == 16) {
            expected.addAll(EnumSet.of(Kernel.TILES_16, Kernel.TILES_32, Kernel.CONVERT_TILES_16));
        }
        assertTrue(seen.containsAll(expected), () -> "ran " + seen + ", expected at least " + expected);
    }

    /**
     * {@return every kernel's candidates, {@link #PER_KERNEL} at most of each (spread over the list),
     * and the panel walks among them}
     */
    private static List<Walk> sample(List<Walk> all) {
        List<Walk> out = new ArrayList<>();
        for (Kernel k : Kernel.values()) {
            List<Walk> of = all.stream().filter(w -> w.kernel() == k).toList();
            for (int i = 0; i < Math.min(PER_KERNEL, of.size()); i++) {
                out.add(of.get(i * of.size() / Math.min(PER_KERNEL, of.size())));
            }
        }
        return out;
    }

    /** {@return the kernels that ran while the plan ran} The destination must then equal {@code ref}. */
    private static Set<Kernel> ran(RelayoutPlan plan, MemorySegment src, MemorySegment fast, MemorySegment ref,
                                   ExecutorService executor, int threads) {
        fast.fill((byte) 0xA5);
        KernelTrace.start();
        try {
            TestPlans.execute(plan, src, fast, executor, threads);
        } catch (RuntimeException | Error e) {
            KernelTrace.stop();
            throw e;
        }
        Set<Kernel> ran = KernelTrace.stop();
        assertEquals(-1, ref.mismatch(fast), () -> plan.describe() + " on " + threads + " thread(s)");
        return ran;
    }

    /** A relayout ({@code "FROM|TO"}), its nests, the largest nest and the estimate's walk of it, on three threads. */
    private record Estimated(ArrayShape from, ArrayShape to, RelayoutStrategy.Nests nests, LoopNest base, Walk walk) {
        static Estimated of(String relayout) {
            String[] p = relayout.split("\\|");
            ArrayShape from = shape(p[0]);
            ArrayShape to = shape(p[1]);
            RelayoutPlan estimate = TestPlans.estimate(from, to, 3);
            RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
            return new Estimated(from, to, nests, nests.nests().get(0), TestPlans.walks(estimate).get(0));
        }

        /** Checks {@code x}'s text form round trip, then the plan of {@code x} against the reference on one thread and three. */
        void check(Walk x) {
            assertEquals(x.toString(), Walk.parse(x.toString(), base, nests.elements()).toString());
            RelayoutPlan plan = TestPlans.of(from, to, nests, List.of(x), 3);
            RelayoutProperties.checkPlan(from, to, plan, null, 1);
            RelayoutProperties.checkPlan(from, to, plan, pool, 3);
        }
    }

    @Test
    void streamedRunsAndPanelsWriteWhatPlainStoresWrite() {
        // runs of 1 to 148 bytes (heads and tails of 64-byte lines at every start), the loop around
        // them walked by the kernel; and 4-D reversals panel by panel
        String[] runs = {
            "f32[5,7,37]{2,1,0}|f32[5,7,37]{2,0,1}", "bf16[9,4,100]{2,1,0}|bf16[9,4,100]{2,0,1}",
            "s8[6,5,67]{2,1,0}|s8[6,5,67]{2,0,1}", "s8[3,70,1]{2,1,0}|s8[3,70,1]{2,0,1}",
            "f32[64,256]{1,0}|f32[64,256]{1,0:T(8,128)}", "f64[4,33,16]{2,1,0}|f64[4,33,16]{2,0,1}",
        };
        int streamed = 0;
        for (String c : runs) {
            Estimated e = Estimated.of(c);
            for (Walk o : CandidateFamilies.orders(e.base(), e.walk())) {
                for (Walk x : CandidateFamilies.stores(e.base(), o)) {
                    if (x.form().streamed()) {
                        assertEquals(Kernel.COPY_RUNS, x.kernel(), x.toString());
                        e.check(x);
                        streamed++;
                    }
                }
            }
        }
        Reversal rev = reversal("f32[32,16,16,32]{3,2,1,0}");
        Reversal rev2 = reversal("bf16[64,8,4,32]{3,2,1,0}");
        for (Reversal r : List.of(rev, rev2)) {
            LoopNest base = r.nests().nests().get(0);
            for (Walk panel : r.panels()) {
                for (Walk x : CandidateFamilies.stores(base, panel)) {
                    if (x.form().streamed()) {
                        assertTrue(x.paneled(), x.toString());
                        assertEquals(x.toString(), Walk.parse(x.toString(), base, r.nests().elements()).toString());
                        RelayoutPlan plan = TestPlans.of(r.from(), r.to(), r.nests(), List.of(x), 3);
                        RelayoutProperties.checkPlan(r.from(), r.to(), plan, null, 1);
                        RelayoutProperties.checkPlan(r.from(), r.to(), plan, pool, 3);
                        streamed++;
                    }
                }
            }
        }
        // where the routine is there, each case had walks that stream; elsewhere none are offered
        if (dev.tegula.vector.kernels.StreamStores.available()) {
            assertTrue(streamed >= runs.length + (Tuning.TILE > 0 ? 2 : 0), "streamed walks checked: " + streamed);
        } else {
            assertEquals(0, streamed);
        }
    }

    @Test
    void walksThatTouchTheNextStripsRowsMatchTheReference() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no blocks
        }
        // odd extents (remainders on both sides), 2- and 4-byte elements, every strip kind but destination
        String[] cases = {"f32[67,1041]{1,0}|f32[67,1041]{0,1}", "bf16[100,96]{1,0}|bf16[100,96]{0,1}",
            "f32[3,70,90]{2,1,0}|f32[3,70,90]{1,2,0}"};
        int touched = 0;
        for (String c : cases) {
            Estimated e = Estimated.of(c);
            for (Walk st : CandidateFamilies.strips(e.base(), e.walk())) {
                List<Walk> blocks = CandidateFamilies.blocks(e.base(), st);
                for (Walk w : blocks.subList(0, Math.min(2, blocks.size()))) {
                    Walk x = WalkRules.make(e.base(), e.nests().elements(),
                            w.spec().withForm(((Walk.Blocked) w.form()).withTouch(true)));
                    if (((Walk.Blocked) w.form()).strips() == Strips.DESTINATION) {
                        assertEquals(null, x, w.toString());
                        continue;
                    }
                    assertTrue(CandidateFamilies.touches(e.base(), w).stream().anyMatch(t -> t.toString().equals(x.toString())));
                    e.check(x);
                    touched++;
                }
            }
        }
        assertTrue(touched >= 9, "walks with touches checked: " + touched);
    }

    @Test
    void streamingStoresGoOnlyWithRunsTheKernelWalksAndNoStagedRegion() {
        ArrayShape from = shape("f32[64,32,48]{2,1,0}");
        ArrayShape to = shape("f32[64,32,48]{2,0,1}");
        RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
        RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
        LoopNest base = nests.nests().get(0);
        Elements e = nests.elements();
        Walk w = TestPlans.walks(estimate).get(0);
        Walk.Spec streamed = w.spec().withForm(Walk.Plain.STREAMED).withStage(0);
        assertEquals(Kernel.COPY_RUNS, WalkRules.make(base, e, streamed).kernel());
        // threads sharing the runs' own loop: each call would be one run, one fence
        assertEquals(null, WalkRules.make(base, e, streamed.withSplit(base.depth() - 1)));
        // a staged region is meant to stay in the caches
        assertEquals(null, WalkRules.make(base, e, streamed.withSplit(0).withStage(1L << 20)));
        // a transpose streams through its strips or panels, not as runs
        ArrayShape t = shape("f32[64,96]{0,1}");
        RelayoutPlan te = TestPlans.estimate(shape("f32[64,96]{1,0}"), t, 1);
        RelayoutStrategy.Nests tn = (RelayoutStrategy.Nests) TestPlans.strategy(te);
        Walk tw = TestPlans.walks(te).get(0);
        assertEquals(null, WalkRules.make(tn.nests().get(0), tn.elements(), tw.spec().withForm(Walk.Plain.STREAMED)));
        assertThrows(IllegalArgumentException.class, () -> Walk.parse(w + " stores=sideways", base, e));
        assertThrows(IllegalArgumentException.class,
                () -> Walk.parse("order=0,1 split=0 tile=16 block=64x64 strips=source bands=source stores=streamed",
                        tn.nests().get(0), tn.elements()));
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
                Tasks.forEachChunk(pool, 4, w.splitExtent(), w.alignment(),
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
}
