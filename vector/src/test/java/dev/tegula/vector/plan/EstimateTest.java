package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static dev.tegula.vector.PlannerFixtures.*;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.vector.MachineFacts;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.PlannerFixtures;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.vector.TestPlans;
import dev.tegula.vector.Wisdom;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Kernel;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.StreamStores;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import org.junit.jupiter.api.Test;

/** The estimate's rules ({@link Estimate}): split loops, blocks, strips and staging of transposes. */
class EstimateTest {

    @Test
    void threadsShareTheLongLoopOfANarrowTranspose() {
        // f32[8,4096] transposed: 4096 source columns (contiguous in the source) into runs of 8;
        // cutting the 8 between threads would leave each thread a part of every run
        Walk interleave = Estimate.of(nest(new long[] {4096, 8}, new long[] {1, 4096}, new long[] {8, 1}), Elements.same(4));
        assertEquals(4096, interleave.nest().extents()[interleave.split()], interleave.toString());
        // f32[4096,8] transposed: runs of 8 split into 8 rows of 4096 (contiguous in the destination)
        Walk deinterleave = Estimate.of(nest(new long[] {8, 4096}, new long[] {1, 8}, new long[] {4096, 1}), Elements.same(4));
        assertEquals(4096, deinterleave.nest().extents()[deinterleave.split()], deinterleave.toString());
        // rows of 64 bytes and more take tiles, and the threads share the destination rows as before
        Walk square = Estimate.of(nest(new long[] {4096, 16}, new long[] {1, 4096}, new long[] {16, 1}), Elements.same(4));
        assertEquals(square.nest().depth() - 1, square.split(), square.toString());
    }

    @Test
    void estimateStagesFarDestinationRowsAndShrinksBlocksForFarSourceRows() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no blocks
        }
        // where streaming stores were measured faster here, both 256 MiB destinations stream 512 x 64 blocks out
        boolean streams = StreamStores.available() && MachineFacts.here().streamingHelps();
        // f32[256,512,512] (2,1,0), in destination order: destination rows 1 MiB apart: staged 512 x 64
        Walk far = Estimate.of(nest(new long[] {512, 512, 256}, new long[] {1, 512, 262144},
                new long[] {131072, 256, 1}), Elements.same(4));
        assertEquals(streams ? Strips.STREAMED : Strips.STAGED, ((Walk.Blocked) far.form()).strips(), far.toString());
        assertEquals(Estimate.STAGED_BLOCK_I, ((Walk.Blocked) far.form()).blockI());
        assertEquals(Estimate.STAGED_BLOCK_J, ((Walk.Blocked) far.form()).blockJ());
        // f32[8192,8192] (1,0): rows 32 KiB apart: source strips in 512 x 512 blocks
        Walk near = Estimate.of(nest(new long[] {8192, 8192}, new long[] {1, 8192}, new long[] {8192, 1}), Elements.same(4));
        assertEquals(streams ? Strips.STREAMED : Strips.SOURCE, ((Walk.Blocked) near.form()).strips(), near.toString());
        assertEquals(streams ? Estimate.STAGED_BLOCK_I : Estimate.nearBlock(MachineFacts.here()),
                ((Walk.Blocked) near.form()).blockI());
        // f32[2048,2048]: 16 MiB, under the streaming threshold: never streamed
        Walk small = Estimate.of(nest(new long[] {2048, 2048}, new long[] {1, 2048}, new long[] {2048, 1}), Elements.same(4));
        assertEquals(Strips.SOURCE, ((Walk.Blocked) small.form()).strips(), small.toString());
        // source rows 256 KiB apart, destination rows near: 128 x 128, not staged
        Walk farSource = Estimate.of(nest(new long[] {64, 65536}, new long[] {1, 65536}, new long[] {64, 1}), Elements.same(4));
        assertEquals(Strips.SOURCE, ((Walk.Blocked) farSource.form()).strips(), farSource.toString());
        assertEquals(Estimate.FAR_BLOCK, ((Walk.Blocked) farSource.form()).blockI());
        // 16x16 tiles where 512-bit vectors allow them
        assertEquals(MachineFacts.here().vectorBits() >= 512 ? Tuning.TILE : 8, near.tile());
    }

    @Test
    void theEstimateStreamsLargeRunsAndPanelsWhereStreamingHelps() {
        boolean streams = StreamStores.available() && MachineFacts.here().streamingHelps();
        // f32[256,512,512] (1,0,2), in destination order: 256 MiB in runs of 2 KiB
        Walk runs = Estimate.of(nest(new long[] {512, 256, 512}, new long[] {512, 262144, 1},
                new long[] {131072, 512, 1}), Elements.same(4));
        assertEquals(Kernel.COPY_RUNS, runs.kernel(), runs.toString());
        assertEquals(streams, runs.form().streamed(), runs.toString());
        // the same in 16 MiB: under the threshold
        Walk small = Estimate.of(nest(new long[] {128, 64, 512}, new long[] {512, 65536, 1},
                new long[] {32768, 512, 1}), Elements.same(4));
        assertFalse(small.form().streamed(), small.toString());
        // 256 MiB in runs of 16 bytes: a quarter line each
        Walk shortRuns = Estimate.of(nest(new long[] {4096, 4096, 4}, new long[] {4, 16384, 1},
                new long[] {16384, 4, 1}), Elements.same(4));
        assertEquals(Kernel.COPY_RUNS, shortRuns.kernel(), shortRuns.toString());
        assertFalse(shortRuns.form().streamed(), shortRuns.toString());
        // f32[64,64,64,64] reversed (64 MiB): panels, streamed where streaming helps
        ArrayShape from = shape("f32[64,64,64,64]{3,2,1,0}");
        Walk panels = TestPlans.walks(TestPlans.estimate(from, from.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3)), 1))
                .get(0);
        if (Tuning.TILE > 0) {
            assertTrue(panels.paneled(), panels.toString());
            assertEquals(streams, panels.form().streamed(), panels.toString());
        }
    }

    /** A 512-bit machine with a 2 MiB L2 whose streaming stores wrote faster than its plain ones. */
    private static final MachineFacts STREAMING_512 = new MachineFacts(512, 48 << 10, 2 << 20, true, 6.0, 9.5);
    /** A 512-bit machine with a 1 MiB L2 whose plain stores wrote as fast as its streaming ones. */
    private static final MachineFacts PLAIN_512 = new MachineFacts(512, 48 << 10, 1 << 20, true, 12.0, 12.5);
    /** A 256-bit machine with a 512 KiB L2 whose streaming stores wrote faster. */
    private static final MachineFacts STREAMING_256 = new MachineFacts(256, 32 << 10, 512 << 10, true, 13.0, 20.0);

    private static final LoopNest SQUARE_8192 = nest(new long[] {8192, 8192}, new long[] {1, 8192}, new long[] {8192, 1});
    private static final LoopNest SQUARE_2048 = nest(new long[] {2048, 2048}, new long[] {1, 2048}, new long[] {2048, 1});

    @Test
    void theEstimateStreamsLargeTransposesWhereStreamingStoresWereMeasuredFasterWhateverTheVendor() {
        if (Tuning.TILE == 0) {
            return;   // the scalar kernels have no blocks
        }
        for (MachineFacts f : List.of(STREAMING_512, STREAMING_256)) {
            Walk.Blocked b = (Walk.Blocked) Estimate.of(SQUARE_8192, Elements.same(4), f).form();
            assertEquals(StreamStores.available() ? Strips.STREAMED : Strips.SOURCE, b.strips(), f + ": " + b);
        }
        Walk.Blocked plain = (Walk.Blocked) Estimate.of(SQUARE_8192, Elements.same(4), PLAIN_512).form();
        assertEquals(Strips.SOURCE, plain.strips(), plain.toString());
        assertEquals(Estimate.NEAR_BLOCK, plain.blockI());
        // no bandwidth measured (or no streaming routine): plain stores
        assertFalse(STREAMING_256.withStores(13.0, 0).streamingHelps());
        assertFalse(STREAMING_256.withStores(0, 20.0).streamingHelps());
        // within the margin: plain stores
        assertFalse(STREAMING_256.withStores(13.0, 13.0 * 1.05).streamingHelps());
        assertTrue(STREAMING_256.withStores(13.0, 13.0 * 1.2).streamingHelps());
    }

    @Test
    void blocksShrinkWithTheL2AndTilesFollowTheVectorWidth() {
        assertEquals(512, Estimate.nearBlock(STREAMING_512));
        assertEquals(512, Estimate.nearBlock(PLAIN_512));
        assertEquals(256, Estimate.nearBlock(STREAMING_256));
        assertEquals(512, Estimate.nearBlock(STREAMING_256.withCaches(32 << 10, 0)));   // not known: the rule as measured
        assertEquals(256, Estimate.nearBlock(STREAMING_256.withCaches(32 << 10, 256 << 10)));
        assertEquals(Estimate.FAR_BLOCK, Estimate.nearBlock(STREAMING_256.withCaches(32 << 10, 128 << 10)));
        assertEquals(Estimate.FAR_BLOCK, Estimate.nearBlock(STREAMING_256.withCaches(32 << 10, 64 << 10)));
        if (Tuning.TILE == 0) {
            return;
        }
        Walk small256 = Estimate.of(SQUARE_2048, Elements.same(4), STREAMING_256);
        assertEquals(256, ((Walk.Blocked) small256.form()).blockI(), small256.toString());
        assertEquals(8, small256.tile(), small256.toString());
        Walk small512 = Estimate.of(SQUARE_2048, Elements.same(4), PLAIN_512);
        assertEquals(512, ((Walk.Blocked) small512.form()).blockI(), small512.toString());
        assertEquals(Tuning.TILE, small512.tile(), "the machine's largest tiles where the facts allow them");
        Walk bf16 = Estimate.of(SQUARE_2048, Elements.same(2), PLAIN_512);
        boolean pairs = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
        assertEquals(Tuning.TILE == 16 ? 32 : pairs ? 16 : 8, bf16.tile(), bf16.toString());
        // 2-byte elements with 256-bit facts: tiles of 16 (as 8x8 tiles of pairs at 256 bits), 4-byte ones 8
        Walk bf16At256 = Estimate.of(SQUARE_2048, Elements.same(2), STREAMING_256);
        assertEquals(Tuning.TILE == 16 || pairs ? 16 : 8, bf16At256.tile(), bf16At256.toString());
        Walk scalarFacts = Estimate.of(SQUARE_2048, Elements.same(4), PLAIN_512.withVectorBits(0));
        assertEquals(Tuning.TILE, scalarFacts.tile(), "facts without vectors: the kernels this machine has");
    }

    @Test
    void aPlanCacheGivenFactsPlansByThem() {
        if (Tuning.TILE == 0) {
            return;
        }
        ArrayShape from = shape("f32[2048,2048]{1,0}");
        ArrayShape to = from.withLayout(dev.tegula.core.Layout.of(0, 1));
        RelayoutPlan p256 = new PlanCache(4, Wisdom.inMemory(), STREAMING_256).plan(from, to, Planning.ESTIMATE, 1);
        assertTrue(p256.walks().get(0).contains("tile=8 block=256x256"), p256.walks().toString());
        RelayoutPlan p512 = new PlanCache(4, Wisdom.inMemory(), PLAIN_512).plan(from, to, Planning.ESTIMATE, 1);
        assertTrue(p512.walks().get(0).contains("tile=" + Tuning.TILE + " block=512x512"), p512.walks().toString());
        assertEquals(STREAMING_256, new PlanCache(4, null, STREAMING_256).machineFacts());
    }

    @Test
    void destinationStripsWhereOnlyTheDestinationRowsContinue() {
        // the nests of RelayoutBench's transposes, in destination order (outermost first)
        // f32[64,64,64,64] (3,2,1,0): loops d, c, b, a; the kernel pairs d (source-contiguous) with a
        assertTrue(Estimate.continuesDestinationRows(nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1}), 0));
        // f32[256,512,512] (2,1,0): loop j continues the rows of both sides: source strips
        assertFalse(Estimate.continuesDestinationRows(nest(new long[] {512, 512, 256}, new long[] {1, 512, 262144},
                new long[] {131072, 256, 1}), 0));
        // (0,2,1): the batch loop continues neither side's rows
        assertFalse(Estimate.continuesDestinationRows(nest(new long[] {256, 512, 512}, new long[] {262144, 1, 512},
                new long[] {262144, 512, 1}), 1));
        // 64^4 (0,2,3,1): loop c continues the source rows
        assertFalse(Estimate.continuesDestinationRows(nest(new long[] {64, 64, 64, 64}, new long[] {262144, 64, 1, 4096},
                new long[] {262144, 4096, 64, 1}), 2));
        // a plain 2-D transpose has no outer loop
        assertFalse(Estimate.continuesDestinationRows(nest(new long[] {8192, 8192}, new long[] {1, 8192},
                new long[] {8192, 1}), 0));
    }

    static LoopNest nest(long[] n, long[] s, long[] t) {
        return new LoopNest(n, s, t, 0, 0);
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
        assertFalse(TestPlans.walks(TestPlans.estimate(FROM, TO, 1)).get(0)
                .paneled());
        ArrayShape small = shape("f32[32,4,4,32]{3,2,1,0}");
        assertFalse(TestPlans.walks(TestPlans.estimate(small, small.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3)), 1))
                .get(0).paneled());
    }
}
