package dev.tegula.vector.plan;

import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.StreamStores;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.TransposeKernels;
import dev.tegula.vector.plan.Walk.Blocked;
import dev.tegula.vector.plan.Walk.Paneled;
import dev.tegula.vector.plan.Walk.Spec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidate walks of a nest that a measuring planner times: families that each vary one
 * parameter of a walk (loop order, split loop, staging, blocks, strips and band order, tile edge,
 * panels), and the whole space. Every walk comes from {@link WalkRules#make}, so it runs the nest's
 * index set exactly with the kernel it names. Stateless.
 */
public final class CandidateFamilies {
    private CandidateFamilies() {
    }

    /** Block edges the measuring planner tries. */
    public static final long[] BLOCK_EDGES = {32, 64, 128, 256, 512, 1024};
    /** Staged regions the measuring planner tries, in bytes (0: none). */
    public static final long[] STAGES = {0, 3L << 20, 6L << 20, 12L << 20, 24L << 20};
    /** Panel sizes the measuring planner tries, in bytes (L2-sized: the panel is staged whole). */
    public static final long[] PANEL_BYTES = {256L << 10, 512L << 10, 1L << 20};
    /** At most this many loops are permuted in every order; more are tried in a few orders only. */
    public static final int MAX_PERMUTED_LOOPS = 4;

    /**
     * {@return walks like {@code w} that go panel by panel, panels of about each size of
     * {@link #PANEL_BYTES} cut every way between the two panel loops (powers of two), threads
     * sharing the panel loop the panel is narrower along (where {@code w}'s threads share a panel
     * loop or the transpose's own), and {@code w} without panels (with the blocks and strips of
     * {@link Estimate#withoutPanels} where {@code w} had panels)}, the panels streaming their stores
     * where {@code w}'s do; just {@code w} where the nest has no panel loops
     */
    public static List<Walk> panels(LoopNest base, Walk w) {
        Elements elements = w.elements();
        Map<String, Walk> out = new LinkedHashMap<>();
        if (w.paneled()) {
            Walk plain = Estimate.withoutPanels(base, elements);
            add(out, WalkRules.make(base, elements, w.spec().withForm(
                    plain.form() instanceof Blocked x ? x.withTile(w.tile()) : plain.form()).withStage(0)));
        } else {
            add(out, w);
        }
        int[] loops = w.tile() > 0 ? Walk.panelLoops(w.nest()) : null;
        if (loops == null || elements.converts()) {
            return List.copyOf(out.values());
        }
        long[] e = w.nest().extents();
        int q = w.nest().sourceContiguousLoop();
        long pair = e[q] * e[w.nest().depth() - 1] * elements.dstBytes();
        // threads share a loop outside the pair (a walk without panels may split the pair's own loop)
        int split = w.split() == q || w.split() == w.nest().depth() - 1 ? Estimate.firstWalkedLoop(w.nest())
                : w.split();
        for (long target : PANEL_BYTES) {
            long indices = target / pair;   // panel indices (outer x inner) of this size
            for (long inner = 1; inner <= indices; inner *= 2) {
                long po = Math.min(indices / inner, e[loops[0]]);
                long pi = Math.min(inner, e[loops[1]]);
                // threads sharing a panel loop share the one the panel is narrower along: more panels
                // to share, and a measuring part (a few indices of that loop) holds whole panels
                int s = split != loops[0] && split != loops[1] || po == pi ? split : po < pi ? loops[0] : loops[1];
                add(out, WalkRules.make(base, elements, new Spec(w.order(), s,
                        new Paneled(w.tile(), po, pi, w.paneled() && w.form().streamed()), 0)));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return walks like {@code w} in other loop orders}: every order of the loops the kernel walks
     * itself (a transpose's source-contiguous loop placed just outside the innermost one) when there
     * are at most {@link #MAX_PERMUTED_LOOPS}, else the estimate's, the source's and the destination's
     * order; each with its outermost walked loop split.
     */
    public static List<Walk> orders(LoopNest base, Walk w) {
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
            int split = Estimate.firstWalkedLoop(base.permuted(order));
            add(out, WalkRules.make(base, w.elements(), w.spec().withOrder(order).withSplit(split)));
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
            Collections.swap(walked, k, i);
            permutations(walked, k + 1, out, q, d);
            Collections.swap(walked, k, i);
        }
    }

    /** {@return walks like {@code w} that split another loop between threads: each walked loop, and a transpose's two kernel loops} */
    public static List<Walk> splits(LoopNest base, Walk w) {
        Map<String, Walk> out = new LinkedHashMap<>();
        for (int s = 0; s < base.depth(); s++) {
            if (w.nest().extents()[s] >= 2) {
                add(out, WalkRules.make(base, w.elements(), w.spec().withSplit(s)));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return walks like {@code w} that stage their destination in regions of each size of
     * {@link #STAGES}, on every loop whose destination region allows it (that loop then split
     * between threads too), and {@code w} unstaged}
     */
    public static List<Walk> stages(LoopNest base, Walk w) {
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, WalkRules.make(base, w.elements(), w.spec().withStage(0)));
        // a staged region stays in the caches: runs streamed out of the walk are copied with plain stores into it
        Spec staged = w.form() instanceof Walk.Plain ? w.spec().withForm(Walk.Plain.PLAIN) : w.spec();
        for (int s = 0; s < base.depth(); s++) {
            for (long stage : STAGES) {
                if (stage > 0) {
                    add(out, WalkRules.make(base, w.elements(), staged.withSplit(s).withStage(stage)));
                }
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return walks like {@code w} with plain stores and with streaming stores}: runs copied a block
     * at a time with streaming stores (unstaged) and panels leaving their buffer that way, where the
     * streaming routine is there ({@link StreamStores#available()}); a blocked transpose's streaming is
     * one of its {@link #strips}. Just {@code w} where no walk like it streams.
     */
    public static List<Walk> stores(LoopNest base, Walk w) {
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, w);
        if (!StreamStores.available()) {
            return List.copyOf(out.values());
        }
        switch (w.form()) {
            case Walk.Plain p -> {
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(Walk.Plain.PLAIN)));
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(Walk.Plain.STREAMED).withStage(0)));
            }
            case Paneled p -> {
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(p.withStreamed(false))));
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(p.withStreamed(true))));
            }
            case Blocked x -> {
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return walks like transposing {@code w} with and without touches of the next strip's source
     * rows ({@link Blocked#touch})}; just {@code w} where it has no blocks
     */
    public static List<Walk> touches(LoopNest base, Walk w) {
        if (!(w.form() instanceof Blocked x)) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, w);
        add(out, WalkRules.make(base, w.elements(), w.spec().withForm(x.withTouch(!x.touch()))));
        return List.copyOf(out.values());
    }

    /** {@return walks like transposing {@code w} with every block size of {@link #BLOCK_EDGES} that the nest's extents can use} */
    public static List<Walk> blocks(LoopNest base, Walk w) {
        if (!(w.form() instanceof Blocked x)) {
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
                add(out, WalkRules.make(base, w.elements(),
                        w.spec().withForm(x.withBlocks(bi, bj))));
            }
        }
        return out.isEmpty() ? List.of(w) : List.copyOf(out.values());
    }

    /**
     * {@return walks like transposing {@code w} with the block edges next to its own on each side:
     * each of {@link #BLOCK_EDGES} within one step of {@code w}'s (the same, halved, doubled), as
     * {@link #blocks} allows them}; just {@code w} where it has no blocks
     */
    public static List<Walk> blocksNear(LoopNest base, Walk w) {
        if (!(w.form() instanceof Blocked x)) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, w);
        for (Walk c : blocks(base, w)) {
            Blocked y = (Blocked) c.form();
            if (near(y.blockI(), x.blockI()) && near(y.blockJ(), x.blockJ())) {
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
    public static List<Walk> strips(LoopNest base, Walk w) {
        if (!(w.form() instanceof Blocked x)) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        for (Strips s : Strips.values()) {
            if (s == Strips.STREAMED && !StreamStores.available()) {
                continue;   // it would time as STAGED
            }
            for (Bands bands : Bands.values()) {
                long bi = x.blockI();
                long bj = x.blockJ();
                if (s.staged() && w.elements().srcBytes(bi * bj) > TransposeKernels.STAGE_BYTES) {
                    bi = Estimate.STAGED_BLOCK_I;
                    bj = Estimate.STAGED_BLOCK_J;
                }
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(x.withBlocks(bi, bj).withStrips(s, bands))));
            }
        }
        return List.copyOf(out.values());
    }

    /** {@return walks like transposing {@code w} with each tile edge of {@link Kernel#tileEdges()}} */
    public static List<Walk> tiles(LoopNest base, Walk w) {
        if (w.tile() == 0) {
            return List.of(w);
        }
        Map<String, Walk> out = new LinkedHashMap<>();
        for (int t : Kernel.tileEdges()) {
            if (WalkRules.tiled(w.nest(), w.elements(), t)) {
                Walk.Form f = switch (w.form()) {
                    case Blocked x -> x.withTile(t);
                    case Paneled p -> p.withTile(t);
                    case Walk.Plain p -> p;
                };
                add(out, WalkRules.make(base, w.elements(), w.spec().withForm(f)));
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * {@return every walk of the nest (orders, staging, panels, stores, splits when {@code threads > 1},
     * blocks, strips, band orders, tiles, touches), at most {@code limit}, the estimate first}
     */
    public static List<Walk> all(LoopNest base, Elements elements, int threads, int limit) {
        Walk estimate = Estimate.of(base, elements);
        Map<String, Walk> out = new LinkedHashMap<>();
        add(out, estimate);
        for (Walk o : orders(base, estimate)) {
            Map<String, Walk> splitAndStage = new LinkedHashMap<>();
            stages(base, o).forEach(w -> add(splitAndStage, w));
            panels(base, o).forEach(w -> stores(base, w).forEach(x -> add(splitAndStage, x)));
            stores(base, o).forEach(w -> add(splitAndStage, w));
            if (threads > 1) {
                splits(base, o).forEach(w -> add(splitAndStage, w));
            }
            for (Walk s : splitAndStage.values()) {
                for (Walk t : tiles(base, s)) {
                    for (Walk st : strips(base, t)) {
                        for (Walk bl : blocks(base, st)) {
                            for (Walk tc : touches(base, bl)) {
                                if (out.size() >= limit) {
                                    return List.copyOf(out.values());
                                }
                                add(out, tc);
                            }
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
