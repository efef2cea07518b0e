package dev.tegula.vector.plan;

import dev.tegula.vector.MachineFacts;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.StreamStores;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.plan.Walk.Blocked;
import dev.tegula.vector.plan.Walk.Paneled;
import dev.tegula.vector.plan.Walk.Plain;
import dev.tegula.vector.plan.Walk.Spec;

/**
 * The estimate: the walk the engine's rules choose for a nest, with no timing ({@code Planning.ESTIMATE},
 * and where every measuring planner starts). Its rules read facts about the machine
 * ({@link MachineFacts}), never its vendor: the vector width picks the tiles, the L2 size the
 * blocks, and the measured store bandwidths whether large destinations are streamed. Stateless.
 */
public final class Estimate {
    private Estimate() {
    }

    /** Where rows lie this many bytes apart or more, the estimate uses small blocks (each row of a large one shares a few cache sets). */
    public static final long FAR_ROW_BYTES = 256 * 1024;
    /** The estimate's blocks where rows are near each other, with an L2 of {@link #NEAR_BLOCK_L2_BYTES} or more (or of unknown size). */
    public static final long NEAR_BLOCK = 512;
    /**
     * The L2 size from which blocks of {@link #NEAR_BLOCK} are the rule; below it the block edge
     * follows the square root of the L2 size (a block's rows and columns both scale with the cache),
     * rounded down to a power of two, and at least {@link #FAR_BLOCK}.
     */
    public static final long NEAR_BLOCK_L2_BYTES = 1L << 20;
    /** The estimate's blocks where rows are far apart. */
    public static final long FAR_BLOCK = 128;
    /** The estimate's staged blocks (destination rows far apart): elements of each source row. */
    public static final long STAGED_BLOCK_I = 512;
    /** The estimate's staged blocks: source rows. */
    public static final long STAGED_BLOCK_J = 64;
    /** The estimate goes panel by panel where the transposed pair holds at most this many bytes and both sides' rows lie far apart. */
    public static final long PANEL_PAIR_BYTES = 64L << 10;
    /**
     * The estimate streams a transpose's staged blocks out ({@link Strips#STREAMED}) on machines where
     * streaming stores were measured faster ({@link MachineFacts#streamingHelps()}, and the routine is
     * there: {@link StreamStores#available()}) when the destination holds at least this many bytes: far
     * more than a core's share of the caches, so no reader would have found it there anyway.
     */
    public static final long STREAMED_MIN_BYTES = 32L << 20;
    /** The estimate streams runs (where it streams, {@link #STREAMED_MIN_BYTES}) at least this long, in bytes: four lines. */
    public static final long STREAMED_MIN_RUN_BYTES = 256;
    /** The estimate's panels, in bytes. */
    public static final long ESTIMATE_PANEL_BYTES = 1L << 20;

    /**
     * {@return the estimate: the walk the engine's rules choose, with no timing}: loops in
     * {@link LoopNest#estimateOrder()}; runs copied with streaming stores where those were measured faster
     * and the destination is large ({@link #STREAMED_MIN_BYTES}, runs of at least
     * {@link #STREAMED_MIN_RUN_BYTES}); the outermost walked loop split between threads (a transpose's
     * source-contiguous loop instead of its innermost where the destination rows are shorter than a
     * line, {@link #sharesDestinationLines});
     * for transposes the largest tiles the facts' vector width allows ({@link #tile}: 16x16, 32x32 for
     * 2-byte elements, with 512-bit vectors; 8x8, 16x16 for 2-byte elements, with 256-bit ones), blocks of {@link #nearBlock}
     * ({@link #NEAR_BLOCK} with an L2 of a MiB or more; or {@link #FAR_BLOCK} where either side's rows
     * lie {@link #FAR_ROW_BYTES} apart or more), destination strips where the loop around the kernel continues the destination
     * rows and not the source rows, and staged blocks of {@link #STAGED_BLOCK_I} x
     * {@link #STAGED_BLOCK_J}, streamed out where streaming stores were measured faster and the destination
     * is large ({@link #STREAMED_MIN_BYTES}), or else copied out where the destination rows lie far apart; panels where both sides' rows
     * lie far apart and the transposed pair is small ({@link #PANEL_PAIR_BYTES}), streamed out on the
     * same terms.
     */
    public static Walk of(LoopNest base, Elements elements) {
        return of(base, elements, MachineFacts.here());
    }

    /** {@return the estimate on a machine of these facts} (see {@link #of(LoopNest, Elements)}) */
    public static Walk of(LoopNest base, Elements elements, MachineFacts facts) {
        return estimate(base, elements, true, facts);
    }

    /** {@return the estimate's rule without its panels: the walk the panel family offers beside a walk with panels} */
    public static Walk withoutPanels(LoopNest base, Elements elements) {
        return estimate(base, elements, false, MachineFacts.here());
    }

    private static Walk estimate(LoopNest base, Elements elements, boolean panels, MachineFacts facts) {
        int[] order = base.estimateOrder();
        LoopNest nest = base.permuted(order);
        int split = firstWalkedLoop(nest);
        int inner = nest.depth() - 1;
        if (split == inner && sharesDestinationLines(nest, elements)) {
            split = nest.sourceContiguousLoop();
        }
        Walk plain = WalkRules.make(base, elements, new Spec(order, split, Plain.PLAIN, 0));
        if (plain != null) {
            Walk streamed = plain.kernel() == Kernel.COPY_RUNS && streams(nest, elements, facts)
                    && nest.extents()[nest.depth() - 1] * elements.dstBytes() >= STREAMED_MIN_RUN_BYTES
                    ? WalkRules.make(base, elements, new Spec(order, split, Plain.STREAMED, 0)) : null;
            return streamed != null ? streamed : plain;
        }
        int q = nest.sourceContiguousLoop();
        long sRow = elements.srcBytes(nest.srcStrides()[inner]);
        long dRow = nest.dstStrides()[q] * elements.dstBytes();
        boolean same = !elements.converts();
        if (panels && same && Math.min(sRow, dRow) >= FAR_ROW_BYTES
                && nest.extents()[q] * nest.extents()[inner] * elements.dstBytes() <= PANEL_PAIR_BYTES) {
            Walk panel = panel(base, order, split, elements, facts);
            if (panel != null) {
                return panel;
            }
        }
        int tile = tile(nest, elements, facts);
        boolean dstStrips = same && continuesDestinationRows(nest, q);
        if (same && !dstStrips && streams(nest, elements, facts)) {
            return WalkRules.make(base, elements, new Spec(order, split,
                    new Blocked(tile, STAGED_BLOCK_I, STAGED_BLOCK_J, Strips.STREAMED, Bands.SOURCE), 0));
        }
        if (same && !dstStrips && dRow >= FAR_ROW_BYTES) {
            return WalkRules.make(base, elements, new Spec(order, split,
                    new Blocked(tile, STAGED_BLOCK_I, STAGED_BLOCK_J, Strips.STAGED, Bands.SOURCE), 0));
        }
        long block = Math.max(sRow, dRow) >= FAR_ROW_BYTES ? FAR_BLOCK : nearBlock(facts);
        return WalkRules.make(base, elements, new Spec(order, split,
                new Blocked(tile, block, block, dstStrips ? Strips.DESTINATION : Strips.SOURCE, Bands.SOURCE), 0));
    }

    /**
     * {@return the estimate's walk with panels, or null where the nest takes none}: the panel loops
     * ordered so that the inner one has the smaller source stride (each source row is then read in
     * runs through it), panels of about {@link #ESTIMATE_PANEL_BYTES}, the inner panel loop taking
     * about twice the square root of the panel's indices (4x16 for 64 indices: longer source runs
     * than 8x8, and faster on one thread and on two), leaving their buffer with streaming stores where
     * the estimate streams ({@link #STREAMED_MIN_BYTES}).
     */
    private static Walk panel(LoopNest base, int[] order, int split, Elements elements, MachineFacts facts) {
        LoopNest nest = base.permuted(order);
        int[] loops = Walk.panelLoops(nest);
        int t = tile(nest, elements, facts);
        if (loops == null || t == 0) {
            return null;
        }
        int[] o = order.clone();
        if (nest.srcStrides()[loops[1]] > nest.srcStrides()[loops[0]]) {
            o[loops[0]] = order[loops[1]];
            o[loops[1]] = order[loops[0]];
            nest = base.permuted(o);
            split = firstWalkedLoop(nest);
        }
        long[] e = nest.extents();
        long pair = e[nest.sourceContiguousLoop()] * e[nest.depth() - 1] * elements.dstBytes();
        long indices = Math.max(1, ESTIMATE_PANEL_BYTES / pair);
        long innerShare = 2 * Long.highestOneBit((long) Math.ceil(Math.sqrt(indices)));
        long panelInner = Math.min(e[loops[1]], innerShare);
        long panelOuter = Math.max(1, Math.min(e[loops[0]], indices / panelInner));
        return WalkRules.make(base, elements, new Spec(o, split, new Paneled(t, panelOuter, panelInner,
                streams(nest, elements, facts)), 0));
    }

    /**
     * {@return whether the estimate streams the nest's stores: the routine is there, streaming stores
     * were measured faster on this machine ({@link MachineFacts#streamingHelps()}), and the
     * destination is large ({@link #STREAMED_MIN_BYTES})}
     */
    private static boolean streams(LoopNest nest, Elements elements, MachineFacts facts) {
        return StreamStores.available() && facts.streamingHelps()
                && nest.elements() * elements.dstBytes() >= STREAMED_MIN_BYTES;
    }

    /**
     * {@return the tile edge the estimate takes: the largest of this machine's kernels that fits the
     * nest and the facts' vector width (16 for 4-byte elements, 32 for 2-byte ones, with 512-bit
     * vectors; 8 for 4-byte elements, 16 for 2-byte ones, with 256-bit ones)}; where the facts' width
     * allows none the machine's largest
     */
    static int tile(LoopNest nest, Elements elements, MachineFacts facts) {
        int limit = facts.vectorBits() >= 512 ? 32 : facts.vectorBits() >= 256 ? elements.dstBytes() == 2 ? 16 : 8 : 0;
        for (int t : Kernel.tileEdges()) {
            if (t <= limit && WalkRules.tiled(nest, elements, t)) {
                return t;
            }
        }
        return WalkRules.largestTile(nest, elements);
    }

    /** {@return the block edge where rows are near each other, from the L2 size (see {@link #NEAR_BLOCK_L2_BYTES})} */
    static long nearBlock(MachineFacts facts) {
        long l2 = facts.l2Bytes();
        if (l2 == 0 || l2 >= NEAR_BLOCK_L2_BYTES) {
            return NEAR_BLOCK;
        }
        long edge = Long.highestOneBit((long) Math.floor(NEAR_BLOCK * Math.sqrt((double) l2 / NEAR_BLOCK_L2_BYTES)));
        return Math.max(FAR_BLOCK, edge);
    }

    /**
     * {@return true if the loop around the transpose kernel's calls steps the destination by exactly
     * the extent of the kernel's destination rows (its next call continues the same destination rows)
     * and does not continue the source rows the same way}: the 4-D reversal, where destination strips
     * write each destination row as one run.
     */
    public static boolean continuesDestinationRows(LoopNest nest, int q) {
        int inner = nest.depth() - 1;
        int k = inner - 1 == q ? inner - 2 : inner - 1;
        if (k < 0 || nest.extents()[k] < 2) {
            return false;
        }
        return nest.dstStrides()[k] == nest.extents()[inner] && nest.srcStrides()[k] != nest.extents()[q];
    }

    /**
     * {@return true if {@code nest} is a transpose whose destination rows (its innermost loop) lie
     * side by side and are shorter than a 64-byte line}: threads that shared those rows would each
     * write a part of every line (and the kernels that interleave such rows need all of them), so
     * the threads share the source-contiguous loop instead.
     */
    static boolean sharesDestinationLines(LoopNest nest, Elements elements) {
        if (!nest.isTranspose()) {
            return false;
        }
        long n = nest.extents()[nest.depth() - 1];
        return n * elements.dstBytes() < 64 && nest.dstStrides()[nest.sourceContiguousLoop()] == n;
    }

    /** {@return the outermost loop the kernel walks itself (not the innermost, not a transpose's source-contiguous loop), else the innermost} */
    public static int firstWalkedLoop(LoopNest nest) {
        int d = nest.depth();
        boolean strided = !nest.isRuns() && !nest.isTranspose();
        int end = strided ? d : d - 1;
        int skip = nest.isTranspose() ? nest.sourceContiguousLoop() : -1;
        for (int k = 0; k < end; k++) {
            if (k != skip) {
                return k;
            }
        }
        return d - 1;
    }
}
