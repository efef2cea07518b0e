package dev.tegula.vector.plan;

import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Case;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.PanelKernels;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.TransposeKernels;
import dev.tegula.vector.plan.Walk.Blocked;
import dev.tegula.vector.plan.Walk.Paneled;
import dev.tegula.vector.plan.Walk.Plain;
import dev.tegula.vector.plan.Walk.Spec;
import java.util.Arrays;

/**
 * Which walks a nest may have, in one place: {@link #make} checks a {@link Spec} against the nest
 * and names the walk's kernel, asked once of the kernels' own rules ({@link Kernel#choose}). Every
 * walk the planner makes, reads from wisdom or times comes from here, so each runs the nest's index
 * set exactly, with the kernel it names. Stateless.
 */
public final class WalkRules {
    private WalkRules() {
    }

    /** Smallest staged region a walk may have, in bytes. */
    public static final long MIN_STAGE = 64L << 10;
    /** Largest staged region a walk may have, in bytes. */
    public static final long MAX_STAGE = 64L << 20;

    /**
     * {@return the walk with these parameters over the normalised nest {@code base}, or null if they
     * do not fit it} The innermost loop must stay innermost and the split loop exist; a transpose
     * that a tile kernel takes must have tiles ({@link Blocked}: an edge of {@link Kernel#tileEdges()}
     * that a kernel takes, blocks positive multiples of 32 up to {@link Walk#MAX_BLOCK}, a staged block
     * that fits the staging buffer, source strips and bands for a conversion) or panels
     * ({@link Paneled}: see {@link #paneled}); a staged region must lie within
     * {@link #MIN_STAGE}..{@link #MAX_STAGE} and hold at least one index of the split loop, whose
     * destination region must be one contiguous block ({@link #stageUnit}). Streaming stores go with
     * no staged region: for a walk without tiles only on runs ({@link Kernel#COPY_RUNS}) whose
     * surrounding loop the kernel walks (threads do not share the runs' own loop).
     */
    public static Walk make(LoopNest base, Elements elements, Spec spec) {
        int d = base.depth();
        int[] order = spec.order();
        int split = spec.split();
        if (order.length != d || order[d - 1] != d - 1 || split < 0 || split >= d || spec.form() == null) {
            return null;
        }
        boolean[] seen = new boolean[d];
        for (int o : order) {
            if (o < 0 || o >= d || seen[o]) {
                return null;
            }
            seen[o] = true;
        }
        LoopNest nest = base.permuted(order);
        if (spec.form() instanceof Paneled p) {
            return paneled(nest, elements, spec, p);
        }
        long stage = spec.stage();
        long unit = stageUnit(nest, split);
        if (stage != 0 && (stage < MIN_STAGE || stage > MAX_STAGE || unit == 0 || unit * elements.dstBytes() > stage)) {
            return null;
        }
        Case c = caseOf(nest, elements, split);
        if (spec.form() instanceof Blocked x) {
            boolean edge = Arrays.stream(Kernel.tileEdges()).anyMatch(t -> t == x.tile());
            if (!edge || x.blockI() < 32 || x.blockJ() < 32 || x.blockI() % 32 != 0 || x.blockJ() % 32 != 0
                    || x.blockI() > Walk.MAX_BLOCK || x.blockJ() > Walk.MAX_BLOCK || x.strips() == null
                    || x.bands() == null) {
                return null;
            }
            if (elements.converts() && (x.strips() != Strips.SOURCE || x.bands() != Bands.SOURCE || x.touch())) {
                return null;
            }
            if (x.touch() && x.strips() == Strips.DESTINATION) {
                return null;   // touches lead strips of source rows
            }
            if (x.strips().staged() && elements.srcBytes(x.blockI() * x.blockJ()) > TransposeKernels.STAGE_BYTES) {
                return null;
            }
            if (x.strips() == Strips.STREAMED && stage != 0) {
                return null;   // streaming into a staged region would push the region, meant to stay in the caches, out to memory
            }
            Kernel k = Kernel.choose(c.tiled(x.tile(), false));
            return k == null ? null : walk(nest, elements, k, spec);
        }
        if (largestTile(nest, elements) != 0) {
            return null;   // a nest the tile kernels take has a tile
        }
        Kernel k = Kernel.choose(c);
        if (k != null && spec.form().streamed() && (k != Kernel.COPY_RUNS || stage != 0 || d < 2 || split == d - 1)) {
            return null;   // streaming stores copy a block of runs: the loop around them walked by the kernel, not staged
        }
        return k == null ? null : walk(nest, elements, k, spec);
    }

    /** {@return the walk of kernel {@code k}, its step made from the kernel and the spec's form ({@link Step#of})} */
    private static Walk walk(LoopNest nest, Elements elements, Kernel k, Spec spec) {
        long nI = 0;
        long nJ = 0;
        long tI = 0;
        long sJ = 0;
        if (nest.isTranspose()) {
            int inner = nest.depth() - 1;
            int q = nest.sourceContiguousLoop();
            nI = nest.extents()[q];
            nJ = nest.extents()[inner];
            tI = nest.dstStrides()[q];
            sJ = nest.srcStrides()[inner];
        }
        return new Walk(nest, elements, Step.of(k, spec.form(), elements, nI, nJ, tI, sJ), spec);
    }

    /**
     * The walk with panels of {@link #make}, or null: a tiled transpose of 2- or 4-byte elements whose
     * two kernel loops hold whole tiles, with two panel loops ({@link Walk#panelLoops}) whose panel
     * extents lie in {@code [1, extent]}, a panel of at most {@link PanelKernels#MAX_PANEL_BYTES},
     * threads sharing a loop other than the kernel's two, and no staged regions.
     */
    private static Walk paneled(LoopNest nest, Elements elements, Spec spec, Paneled p) {
        int b = elements.dstBytes();
        int tile = p.tile();
        if (elements.converts() || spec.stage() != 0 || Arrays.stream(Kernel.tileEdges()).noneMatch(t -> t == tile)) {
            return null;
        }
        int[] loops = Walk.panelLoops(nest);
        int d = nest.depth();
        int q = nest.sourceContiguousLoop();
        int split = spec.split();
        if (!nest.isTranspose() || loops == null || split == q || split == d - 1) {
            return null;
        }
        long[] e = nest.extents();
        long nI = e[q];
        long nJ = e[d - 1];
        int tj = Math.max(tile, 64 / b);
        if (nI % tile != 0 || nJ % tj != 0 || p.outer() < 1 || p.outer() > e[loops[0]] || p.inner() < 1
                || p.inner() > e[loops[1]]) {
            return null;
        }
        double bytes = (double) nI * nJ * p.outer() * p.inner() * b;
        if (bytes > PanelKernels.MAX_PANEL_BYTES) {
            return null;
        }
        Kernel k = Kernel.choose(caseOf(nest, elements, split).tiled(tile, true));
        return k == Kernel.PANELS ? walk(nest, elements, k, spec) : null;
    }

    /**
     * {@return what the nest asks of a kernel when threads share loop {@code split}}: its shape, and
     * for a transpose its pair of loops and whether each call sees all of them
     */
    public static Case caseOf(LoopNest nest, Elements elements, int split) {
        if (nest.isRuns()) {
            return Case.of(elements, Case.Shape.RUNS);
        }
        if (!nest.isTranspose()) {
            return Case.of(elements, Case.Shape.STRIDED);
        }
        int inner = nest.depth() - 1;
        int q = nest.sourceContiguousLoop();
        return Case.transpose(elements, nest.extents()[q], nest.extents()[inner], nest.dstStrides()[q],
                nest.srcStrides()[inner]).whole(split != q, split != inner);
    }

    /**
     * {@return the destination slots one index of loop {@code split} covers, if that region is
     * contiguous and dense (the other loops fill exactly {@code [0, stride)} of it), else 0}: where
     * it is, consecutive indices of the split loop write one contiguous block, which can be staged.
     */
    public static long stageUnit(LoopNest nest, int split) {
        long t = nest.dstStrides()[split];
        int d = nest.depth();
        Integer[] others = new Integer[d - 1];
        int k = 0;
        for (int i = 0; i < d; i++) {
            if (i != split) {
                others[k++] = i;
            }
        }
        Arrays.sort(others, (x, y) -> Long.compare(nest.dstStrides()[x], nest.dstStrides()[y]));
        long expected = 1;
        for (int i : others) {
            if (nest.dstStrides()[i] != expected) {
                return 0;
            }
            expected = Math.multiplyExact(expected, nest.extents()[i]);
        }
        return expected == t ? t : 0;
    }

    /** {@return true if the nest is a transpose that a tile kernel takes in tiles of edge {@code t}} */
    public static boolean tiled(LoopNest nest, Elements elements, int t) {
        if (!nest.isTranspose()) {
            return false;
        }
        Kernel k = Kernel.choose(caseOf(nest, elements, 0).tiled(t, false));
        return k != null && k.tile() == t;
    }

    /** {@return the first tile edge of {@link Kernel#tileEdges()} that the nest can use (the estimate's), or 0} */
    public static int largestTile(LoopNest nest, Elements elements) {
        for (int t : Kernel.tileEdges()) {
            if (tiled(nest, elements, t)) {
                return t;
            }
        }
        return 0;
    }
}
