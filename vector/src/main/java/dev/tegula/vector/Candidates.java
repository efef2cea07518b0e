package dev.tegula.vector;

import dev.tegula.vector.Walk.Bands;
import dev.tegula.vector.Walk.Strips;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidate walks of a loop nest: the estimate (the engine's rules, no timing), the families
 * a measuring planner tries one after the other, and the whole space. Every walk made here passes
 * {@link #of}'s checks, so it runs the nest's index set exactly. Stateless.
 */
final class Candidates {
    private Candidates() {
    }

    /** Where rows lie this many bytes apart or more, the estimate uses small blocks (each row of a large one shares a few cache sets). */
    static final long FAR_ROW_BYTES = 256 * 1024;
    /** The estimate's blocks where rows are near each other. */
    static final long NEAR_BLOCK = 512;
    /** The estimate's blocks where rows are far apart. */
    static final long FAR_BLOCK = 128;
    /** The estimate's staged blocks (destination rows far apart): elements of each source row. */
    static final long STAGED_BLOCK_I = 512;
    /** The estimate's staged blocks: source rows. */
    static final long STAGED_BLOCK_J = 64;
    /** Block edges the measuring planner tries. */
    static final long[] BLOCK_EDGES = {32, 64, 128, 256, 512, 1024};
    /** Staged pieces the measuring planner tries, in bytes (0: none). */
    static final long[] STAGES = {0, 3L << 20, 6L << 20, 12L << 20, 24L << 20};
    /** Smallest and largest staged piece a walk may have, in bytes. */
    static final long MIN_STAGE = 64L << 10;
    static final long MAX_STAGE = 64L << 20;
    /** The estimate goes panel by panel where the transposed pair holds at most this many bytes and both sides' rows lie far apart. */
    static final long PANEL_PAIR_BYTES = 64L << 10;
    /** The estimate's panels, in bytes. */
    static final long ESTIMATE_PANEL_BYTES = 1L << 20;
    /** Panel sizes the measuring planner tries, in bytes (L2-sized: the panel is staged whole). */
    static final long[] PANEL_BYTES = {256L << 10, 512L << 10, 1L << 20};
    /** At most this many loops are permuted in every order; more are tried in a few orders only. */
    static final int MAX_PERMUTED_LOOPS = 4;

    /**
     * {@return the tile edges the transpose kernels have on this machine, the estimate's first}: 16
     * (and 32 for 2-byte elements) only with 512-bit vectors; 8; none without vectors
     */
    static int[] tiles() {
        if (TransposeKernels.TILE == 0) {
            return new int[0];
        }
        return TransposeKernels.TILE == 16 ? new int[] {32, 16, 8} : new int[] {8};
    }

    /**
     * {@return the walk with these parameters over the normalised nest {@code base}, or null if they
     * do not fit it} The innermost loop must stay innermost; the tile must be one of {@link #tiles()}
     * for a vector transpose of 2- or 4-byte elements (else 0); blocks must be positive multiples of
     * 32 up to {@link Walk#MAX_BLOCK}; a staged block must fit the staging buffer.
     *
     * @param elementBytes bytes of a destination element, or -4 for the f32 to bf16 kernels (which
     *                     stage nothing and take 16x16 tiles only)
     */
    static Walk of(LoopNest base, int[] order, int split, int tile, long blockI, long blockJ, Strips strips, Bands bands,
                   long stage, int elementBytes) {
        return of(base, order, split, tile, blockI, blockJ, strips, bands, stage, 0, 0, elementBytes);
    }

    /**
     * {@return the walk with these parameters, panels included, or null if they do not fit the nest}:
     * as {@link #of(LoopNest, int[], int, int, long, long, Strips, Bands, long, int)}; a walk with panels
     * ({@code panelOuter > 0}) must be a tiled transpose of 2- or 4-byte elements whose two kernel loops
     * hold whole tiles, with two panel loops ({@link Walk#panelLoops}) whose panel extents lie in
     * {@code [1, extent]}, a panel of at most {@link PanelKernels#MAX_PANEL_BYTES}, threads sharing a
     * loop other than the kernel's two, no staged pieces, and no blocks or strips of its own (its
     * block, strips and bands are 0, source, source).
     */
    static Walk of(LoopNest base, int[] order, int split, int tile, long blockI, long blockJ, Strips strips, Bands bands,
                   long stage, long panelOuter, long panelInner, int elementBytes) {
        int d = base.depth();
        if (order.length != d || order[d - 1] != d - 1 || split < 0 || split >= d) {
            return null;
        }
        boolean[] seen = new boolean[d];
        for (int o : order) {
            if (o < 0 || o >= d || seen[o]) {
                return null;
            }
            seen[o] = true;
        }
        if (strips == null || bands == null) {
            return null;
        }
        LoopNest nest = base.permuted(order);
        boolean convert = elementBytes < 0;
        int b = Math.abs(elementBytes);
        if (panelOuter != 0 || panelInner != 0) {
            return paneled(nest, order, split, tile, blockI, blockJ, strips, bands, stage, panelOuter, panelInner,
                    elementBytes);
        }
        if (stage != 0 && (stage < MIN_STAGE || stage > MAX_STAGE
                || stageUnit(nest, split) * (convert ? 2 : b) > stage || stageUnit(nest, split) == 0)) {
            return null;
        }
        if (tile == 0 ? largestTile(nest, elementBytes) == 0 : !tiled(nest, elementBytes, tile)) {
            return tile == 0 && blockI == 0 && blockJ == 0 && strips == Strips.SOURCE && bands == Bands.SOURCE
                    ? new Walk(nest, order, split, 0, 0, 0, strips, bands, stage) : null;
        }
        if (tile == 0) {
            return null;   // a nest the tile kernels take has a tile
        }
        boolean tileOk = false;
        for (int t : tiles()) {
            tileOk |= t == tile && (!convert || t == 16);
        }
        if (!tileOk || blockI < 32 || blockJ < 32 || blockI % 32 != 0 || blockJ % 32 != 0 || blockI > Walk.MAX_BLOCK
                || blockJ > Walk.MAX_BLOCK) {
            return null;
        }
        if (convert && (strips != Strips.SOURCE || bands != Bands.SOURCE)) {
            return null;
        }
        if (strips == Strips.STAGED && blockI * blockJ * b > TransposeKernels.STAGE_BYTES) {
            return null;
        }
        return new Walk(nest, order, split, tile, blockI, blockJ, strips, bands, stage);
    }

    /** The panel walk of {@link #of(LoopNest, int[], int, int, long, long, Strips, Bands, long, long, long, int)}, or null. */
    private static Walk paneled(LoopNest nest, int[] order, int split, int tile, long blockI, long blockJ,
                                Strips strips, Bands bands, long stage, long panelOuter, long panelInner,
                                int elementBytes) {
        if (elementBytes != 2 && elementBytes != 4 || stage != 0 || blockI != 0 || blockJ != 0
                || strips != Strips.SOURCE || bands != Bands.SOURCE || !tiled(nest, elementBytes, tile)) {
            return null;
        }
        boolean tileOk = false;
        for (int t : tiles()) {
            tileOk |= t == tile;
        }
        int[] loops = Walk.panelLoops(nest);
        int d = nest.depth();
        int q = nest.sourceContiguousLoop();
        if (!tileOk || loops == null || split == q || split == d - 1) {
            return null;
        }
        long[] e = nest.extents();
        long nI = e[q];
        long nJ = e[d - 1];
        int tj = Math.max(tile, 64 / elementBytes);
        if (nI % tile != 0 || nJ % tj != 0 || panelOuter < 1 || panelOuter > e[loops[0]] || panelInner < 1
                || panelInner > e[loops[1]]) {
            return null;
        }
        double bytes = (double) nI * nJ * panelOuter * panelInner * elementBytes;
        if (bytes > PanelKernels.MAX_PANEL_BYTES) {
            return null;
        }
        return new Walk(nest, order, split, tile, 0, 0, Strips.SOURCE, Bands.SOURCE, 0, panelOuter, panelInner);
    }

    /**
     * {@return walks like {@code w} that go panel by panel, panels of about each size of
     * {@link #PANEL_BYTES} cut every way between the two panel loops (powers of two), threads
     * sharing the panel loop the panel is narrower along (where {@code w}'s threads share a panel
     * loop or the transpose's own), and {@code w} without panels (with the blocks and strips of
     * {@link #estimateWithoutPanels} where {@code w} had panels)}; just {@code w} where the nest has
     * no panel loops
     */
    static List<Walk> panels(LoopNest base, Walk w, int elementBytes) {
        Map<String, Walk> out = new LinkedHashMap<>();
        if (w.paneled()) {
            Walk plain = estimateWithoutPanels(base, elementBytes);
            add(out, of(base, w.order(), w.split(), w.tile(), plain.blockI(), plain.blockJ(), plain.strips(),
                    plain.bands(), 0, elementBytes));
        } else {
            add(out, w);
        }
        int[] loops = w.tile() > 0 ? Walk.panelLoops(w.nest()) : null;
        if (loops == null || elementBytes < 0) {
            return List.copyOf(out.values());
        }
        long[] e = w.nest().extents();
        int q = w.nest().sourceContiguousLoop();
        long pair = e[q] * e[w.nest().depth() - 1] * elementBytes;
        // threads share a loop outside the pair (a walk without panels may split the pair's own loop)
        int split = w.split() == q || w.split() == w.nest().depth() - 1 ? firstWalkedLoop(w.nest()) : w.split();
        for (long target : PANEL_BYTES) {
            long indices = target / pair;   // panel indices (outer x inner) of this size
            for (long inner = 1; inner <= indices; inner *= 2) {
                long po = Math.min(indices / inner, e[loops[0]]);
                long pi = Math.min(inner, e[loops[1]]);
                // threads sharing a panel loop share the one the panel is narrower along: more panels
                // to share, and a measuring part (a few indices of that loop) holds whole panels
                int s = split != loops[0] && split != loops[1] || po == pi ? split : po < pi ? loops[0] : loops[1];
                add(out, of(base, w.order(), s, w.tile(), 0, 0, Strips.SOURCE, Bands.SOURCE, 0, po, pi,
                        elementBytes));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return the destination slots one index of loop {@code split} covers, if that region is
     * contiguous and dense (the other loops fill exactly {@code [0, stride)} of it), else 0}: where
     * it is, consecutive indices of the split loop write one contiguous block, which can be staged.
     */
    static long stageUnit(LoopNest nest, int split) {
        long t = nest.dstStrides()[split];
        int d = nest.depth();
        Integer[] others = new Integer[d - 1];
        int k = 0;
        for (int i = 0; i < d; i++) {
            if (i != split) {
                others[k++] = i;
            }
        }
        java.util.Arrays.sort(others, (x, y) -> Long.compare(nest.dstStrides()[x], nest.dstStrides()[y]));
        long expected = 1;
        for (int i : others) {
            if (nest.dstStrides()[i] != expected) {
                return 0;
            }
            expected = Math.multiplyExact(expected, nest.extents()[i]);
        }
        return expected == t ? t : 0;
    }

    /**
     * {@return true if the nest is a transpose that the tile kernels take in tiles of edge {@code t}}:
     * not the 2-wide interleave of a {@code (2,1)} sub-tile, which has a kernel of its own.
     */
    static boolean tiled(LoopNest nest, int elementBytes, int t) {
        if (!nest.isTranspose()) {
            return false;
        }
        int inner = nest.depth() - 1;
        int q = nest.sourceContiguousLoop();
        long nI = nest.extents()[q];
        long nJ = nest.extents()[inner];
        long tI = nest.dstStrides()[q];
        long sJ = nest.srcStrides()[inner];
        if (elementBytes < 0) {
            return t == 16 && TransposeKernels.TILE == 16 && nI >= 16 && nJ >= 32 && !(nJ == 2 && tI == 2);
        }
        boolean zip = elementBytes == 2 && Kernels.VECTOR && (nJ == 2 && tI == 2 || nI == 2 && sJ == 2);
        return !zip && TransposeKernels.applies(elementBytes, nI, nJ, t);
    }

    /** {@return the first tile edge of {@link #tiles()} that the nest can use: the estimate's} */
    private static int largestTile(LoopNest nest, int elementBytes) {
        for (int t : tiles()) {
            if (tiled(nest, elementBytes, t)) {
                return t;
            }
        }
        return 0;
    }

    /**
     * {@return the estimate: the walk the engine's rules choose, with no timing}: loops in
     * {@link LoopNest#estimateOrder()}, the outermost walked loop split between threads; for
     * transposes 16x16 tiles where 512-bit vectors allow (32x32 for 2-byte elements), blocks of
     * {@link #NEAR_BLOCK} (or
     * {@link #FAR_BLOCK} where either side's rows lie {@link #FAR_ROW_BYTES} apart or more),
     * destination strips where the loop around the kernel continues the destination rows and not the
     * source rows, and staged blocks of {@link #STAGED_BLOCK_I} x {@link #STAGED_BLOCK_J} where the
     * destination rows lie far apart; panels ({@link PanelKernels}) where both sides' rows lie far
     * apart and the transposed pair is small ({@link #PANEL_PAIR_BYTES}).
     */
    static Walk estimate(LoopNest base, int elementBytes) {
        return estimate(base, elementBytes, true);
    }

    /** {@return the estimate's rule without its panels: the walk {@link #panels} offers beside a walk with panels} */
    static Walk estimateWithoutPanels(LoopNest base, int elementBytes) {
        return estimate(base, elementBytes, false);
    }

    private static Walk estimate(LoopNest base, int elementBytes, boolean panels) {
        int[] order = base.estimateOrder();
        LoopNest nest = base.permuted(order);
        int split = firstWalkedLoop(nest);
        if (split == nest.depth() - 1 && interleaves(nest, elementBytes)) {
            split = nest.sourceContiguousLoop();   // threads cutting the narrow rows would leave each a part of every run
        }
        Walk plain = of(base, order, split, 0, 0, 0, Strips.SOURCE, Bands.SOURCE, 0, elementBytes);
        if (plain != null) {
            return plain;
        }
        int inner = nest.depth() - 1;
        int q = nest.sourceContiguousLoop();
        long sRow = nest.srcStrides()[inner] * Math.abs(elementBytes);
        long dRow = nest.dstStrides()[q] * (elementBytes < 0 ? 2 : elementBytes);
        if (panels && elementBytes > 0 && Math.min(sRow, dRow) >= FAR_ROW_BYTES
                && nest.extents()[q] * nest.extents()[inner] * elementBytes <= PANEL_PAIR_BYTES) {
            Walk panel = estimatePanel(base, order, split, elementBytes);
            if (panel != null) {
                return panel;
            }
        }
        boolean dstStrips = elementBytes > 0 && continuesDestinationRows(nest, q);
        if (elementBytes > 0 && !dstStrips && dRow >= FAR_ROW_BYTES) {
            return of(base, order, split, largestTile(nest, elementBytes), STAGED_BLOCK_I, STAGED_BLOCK_J, Strips.STAGED,
                    Bands.SOURCE, 0, elementBytes);
        }
        long block = Math.max(sRow, dRow) >= FAR_ROW_BYTES ? FAR_BLOCK : NEAR_BLOCK;
        return of(base, order, split, largestTile(nest, elementBytes), block, block,
                dstStrips ? Strips.DESTINATION : Strips.SOURCE, Bands.SOURCE, 0, elementBytes);
    }

    /**
     * {@return the estimate's walk with panels, or null where the nest takes none}: the panel loops
     * ordered so that the inner one has the smaller source stride (each source row is then read in
     * runs through it), panels of about {@link #ESTIMATE_PANEL_BYTES}, the inner panel loop taking
     * about twice the square root of the panel's indices (4x16 for 64 indices: longer source runs
     * than 8x8, 7.71 against 7.45 GB/s on one thread, 10.84 against 9.98 on two, in one process).
     */
    private static Walk estimatePanel(LoopNest base, int[] order, int split, int elementBytes) {
        LoopNest nest = base.permuted(order);
        int[] loops = Walk.panelLoops(nest);
        int t = largestTile(nest, elementBytes);
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
        long pair = e[nest.sourceContiguousLoop()] * e[nest.depth() - 1] * elementBytes;
        long indices = Math.max(1, ESTIMATE_PANEL_BYTES / pair);
        long innerShare = 2 * Long.highestOneBit((long) Math.ceil(Math.sqrt(indices)));
        long panelInner = Math.min(e[loops[1]], innerShare);
        long panelOuter = Math.max(1, Math.min(e[loops[0]], indices / panelInner));
        return of(base, o, split, t, 0, 0, Strips.SOURCE, Bands.SOURCE, 0, panelOuter, panelInner, elementBytes);
    }

    /**
     * {@return true if the loop around the transpose kernel's calls steps the destination by exactly
     * the extent of the kernel's destination rows (its next call continues the same destination rows)
     * and does not continue the source rows the same way}: the 4-D reversal, where destination strips
     * write each destination row as one run.
     */
    static boolean continuesDestinationRows(LoopNest nest, int q) {
        int inner = nest.depth() - 1;
        int k = inner - 1 == q ? inner - 2 : inner - 1;
        if (k < 0 || nest.extents()[k] < 2) {
            return false;
        }
        return nest.dstStrides()[k] == nest.extents()[inner] && nest.srcStrides()[k] != nest.extents()[q];
    }

    /**
     * {@return true if {@code nest} is a transpose of 2- or 4-byte elements whose destination rows
     * (its innermost loop) are shorter than a 64-byte line and lie side by side, so that
     * {@link NarrowKernels} interleaves the source rows into one run} Such a run is only whole where
     * one thread has all of its rows.
     */
    static boolean interleaves(LoopNest nest, int elementBytes) {
        if (!nest.isTranspose()) {
            return false;
        }
        int inner = nest.depth() - 1;
        long n = nest.extents()[inner];
        return (elementBytes == 2 || elementBytes == 4) && n < 64 / elementBytes
                && nest.dstStrides()[nest.sourceContiguousLoop()] == n;
    }

    /** {@return the outermost loop the kernel walks itself (not the innermost, not a transpose's source-contiguous loop), else the innermost} */
    static int firstWalkedLoop(LoopNest nest) {
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

    /**
     * {@return walks like {@code w} in other loop orders}: every order of the loops the kernel walks
     * itself (a transpose's source-contiguous loop placed just outside the innermost one) when there
     * are at most {@link #MAX_PERMUTED_LOOPS}, else the estimate's, the source's and the destination's
     * order; each with its outermost walked loop split.
     */
    static List<Walk> orders(LoopNest base, Walk w, int elementBytes) {
        int d = base.depth();
        int q = base.isTranspose() ? base.sourceContiguousLoop() : -1;
        List<Integer> walked = new ArrayList<>();
        for (int i = 0; i < d - 1; i++) {
            if (i != q) {
                walked.add(i);
            }
        }
        List<int[]> orders = new ArrayList<>();
        if (walked.size() <= MAX_PERMUTED_LOOPS) {
            permutations(walked, 0, orders, q, d);
        } else {
            orders.add(base.estimateOrder());
            orders.add(withTransposeLoopLast(base.sourceOrder(), q, d));
            int[] identity = new int[d];
            for (int i = 0; i < d; i++) {
                identity[i] = i;
            }
            orders.add(withTransposeLoopLast(identity, q, d));
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        for (int[] order : orders) {
            int split = firstWalkedLoop(base.permuted(order));
            add(out, of(base, order, split, w.tile(), w.blockI(), w.blockJ(), w.strips(), w.bands(), w.stage(), w.panelOuter(), w.panelInner(), elementBytes));
        }
        return List.copyOf(out.values());
    }

    private static int[] withTransposeLoopLast(int[] order, int q, int d) {
        if (q < 0) {
            return order;
        }
        int[] out = new int[d];
        int k = 0;
        for (int o : order) {
            if (o != q && o != d - 1) {
                out[k++] = o;
            }
        }
        out[d - 2] = q;
        out[d - 1] = d - 1;
        return out;
    }

    private static void permutations(List<Integer> walked, int k, List<int[]> out, int q, int d) {
        if (k == walked.size()) {
            int[] order = new int[d];
            for (int i = 0; i < walked.size(); i++) {
                order[i] = walked.get(i);
            }
            if (q >= 0) {
                order[d - 2] = q;
            }
            order[d - 1] = d - 1;
            out.add(order);
            return;
        }
        for (int i = k; i < walked.size(); i++) {
            java.util.Collections.swap(walked, k, i);
            permutations(walked, k + 1, out, q, d);
            java.util.Collections.swap(walked, k, i);
        }
    }

    /** {@return walks like {@code w} that split another loop between threads: each walked loop, and a transpose's two kernel loops} */
    static List<Walk> splits(LoopNest base, Walk w, int elementBytes) {
        Map<String, Walk> out = new LinkedHashMap<>();
        for (int s = 0; s < base.depth(); s++) {
            if (w.nest().extents()[s] >= 2) {
                add(out, of(base, w.order(), s, w.tile(), w.blockI(), w.blockJ(), w.strips(), w.bands(), w.stage(), w.panelOuter(), w.panelInner(), elementBytes));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return walks like {@code w} that stage their destination in pieces of each size of
     * {@link #STAGES}, on every loop whose destination region allows it (that loop then split
     * between threads too), and {@code w} unstaged}
     */
    static List<Walk> stages(LoopNest base, Walk w, int elementBytes) {
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, of(base, w.order(), w.split(), w.tile(), w.blockI(), w.blockJ(), w.strips(), w.bands(), 0, w.panelOuter(), w.panelInner(), elementBytes));
        for (int s = 0; s < base.depth(); s++) {
            for (long stage : STAGES) {
                if (stage > 0) {
                    add(out, of(base, w.order(), s, w.tile(), w.blockI(), w.blockJ(), w.strips(), w.bands(), stage,
                            w.panelOuter(), w.panelInner(), elementBytes));
                }
            }
        }
        return List.copyOf(out.values());
    }

    /** {@return walks like transposing {@code w} with every block size of {@link #BLOCK_EDGES} that the nest's extents can use} */
    static List<Walk> blocks(LoopNest base, Walk w, int elementBytes) {
        if (w.tile() == 0) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        int q = w.nest().sourceContiguousLoop();
        long nI = w.nest().extents()[q];
        long nJ = w.nest().extents()[w.nest().depth() - 1];
        for (long bi : BLOCK_EDGES) {
            if (bi > 2 * nI && bi > 32) {
                continue;
            }
            for (long bj : BLOCK_EDGES) {
                if (bj > 2 * nJ && bj > 32) {
                    continue;
                }
                add(out, of(base, w.order(), w.split(), w.tile(), bi, bj, w.strips(), w.bands(), w.stage(), w.panelOuter(), w.panelInner(), elementBytes));
            }
        }
        return out.isEmpty() ? List.of(w) : List.copyOf(out.values());
    }

    /**
     * {@return walks like transposing {@code w} with the block edges next to its own on each side:
     * each of {@link #BLOCK_EDGES} within one step of {@code w}'s (the same, halved, doubled), as
     * {@link #blocks} allows them}; just {@code w} where it has no blocks
     */
    static List<Walk> blocksNear(LoopNest base, Walk w, int elementBytes) {
        if (w.tile() == 0 || w.paneled()) {
            return List.of(w);
        }
        List<Walk> all = blocks(base, w, elementBytes);
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, w);
        for (Walk c : all) {
            if (near(c.blockI(), w.blockI()) && near(c.blockJ(), w.blockJ())) {
                add(out, c);
            }
        }
        return List.copyOf(out.values());
    }

    /** {@return whether block edge {@code a} is {@code b}, half of it or twice it} */
    private static boolean near(long a, long b) {
        return a == b || a * 2 == b || a == b * 2;
    }

    /** {@return walks like transposing {@code w} with each way of walking blocks (strips, staging, band order)} */
    static List<Walk> strips(LoopNest base, Walk w, int elementBytes) {
        if (w.tile() == 0) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        for (Strips s : Strips.values()) {
            for (Bands bands : Bands.values()) {
                long bi = w.blockI();
                long bj = w.blockJ();
                if (s == Strips.STAGED && bi * bj * Math.abs(elementBytes) > TransposeKernels.STAGE_BYTES) {
                    bi = STAGED_BLOCK_I;
                    bj = STAGED_BLOCK_J;
                }
                add(out, of(base, w.order(), w.split(), w.tile(), bi, bj, s, bands, w.stage(), w.panelOuter(), w.panelInner(), elementBytes));
            }
        }
        return List.copyOf(out.values());
    }

    /** {@return walks like transposing {@code w} with each tile edge of {@link #tiles()}} */
    static List<Walk> tiles(LoopNest base, Walk w, int elementBytes) {
        if (w.tile() == 0) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        for (int t : tiles()) {
            if (tiled(w.nest(), elementBytes, t)) {
                add(out, of(base, w.order(), w.split(), t, w.blockI(), w.blockJ(), w.strips(), w.bands(), w.stage(), w.panelOuter(), w.panelInner(), elementBytes));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return every walk of the nest (orders, staging, splits when {@code threads > 1}, blocks,
     * strips, band orders, tiles), at most {@code limit}, the estimate first}
     */
    static List<Walk> all(LoopNest base, int elementBytes, int threads, int limit) {
        Walk estimate = estimate(base, elementBytes);
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, estimate);
        for (Walk o : orders(base, estimate, elementBytes)) {
            Map<String, Walk> splitAndStage = new LinkedHashMap<>();
            stages(base, o, elementBytes).forEach(w -> add(splitAndStage, w));
            panels(base, o, elementBytes).forEach(w -> add(splitAndStage, w));
            if (threads > 1) {
                splits(base, o, elementBytes).forEach(w -> add(splitAndStage, w));
            }
            for (Walk s : splitAndStage.values()) {
                for (Walk t : tiles(base, s, elementBytes)) {
                    for (Walk st : strips(base, t, elementBytes)) {
                        for (Walk bl : blocks(base, st, elementBytes)) {
                            if (out.size() >= limit) {
                                return List.copyOf(out.values());
                            }
                            add(out, bl);
                        }
                    }
                }
            }
        }
        return List.copyOf(out.values());
    }

    private static void add(Map<String, Walk> out, Walk w) {
        if (w != null) {
            out.putIfAbsent(w.toString(), w);
        }
    }
}
