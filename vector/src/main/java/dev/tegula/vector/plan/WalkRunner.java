package dev.tegula.vector.plan;

import dev.tegula.vector.kernels.ConvertKernels;
import dev.tegula.vector.kernels.CopyKernels;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.NarrowKernels;
import dev.tegula.vector.kernels.PanelKernels;
import dev.tegula.vector.kernels.Scratch;
import dev.tegula.vector.kernels.TransposeKernels;
import dev.tegula.vector.kernels.WideningKernels;
import dev.tegula.vector.kernels.ZipKernels;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Runs walks: the loops around the kernel, staging where the walk asks for it, and one
 * {@code switch} on the step the walk holds ({@link #kernel}: its kernel with that kernel's
 * parameters, so nothing is cast or chosen here). What runs is what the walk says,
 * whatever range of its split loop a call covers. Thread-safe; its state is the per-thread staging
 * buffer ({@link Scratch}).
 *
 * <p>Staging ({@link Walk#stage()}): a share's range of the split loop is cut into staged regions whose
 * destination region is one contiguous block of at most {@code stage} bytes; each region is walked
 * into the per-thread buffer and then copied to the destination with one {@link MemorySegment#copy},
 * which for large blocks writes whole lines without reading them first (plain stores read each
 * destination line before writing it).
 */
public final class WalkRunner {
    private WalkRunner() {
    }

    /**
     * Runs every walk over its whole split loop, each in {@code parallelism} parts on {@code executor}
     * where {@code executor} is not null and the walk's nest holds {@code minParallelBytes} or more.
     */
    public static void runAll(List<Walk> walks, MemorySegment src, MemorySegment dst, ExecutorService executor,
                              int parallelism, long minParallelBytes) {
        for (Walk w : walks) {
            long bytes = w.nest().elements() * w.elements().dstBytes();
            boolean split = executor != null && bytes >= minParallelBytes && w.splitExtent() >= 2;
            runWhole(w, src, dst, split ? executor : null, parallelism, w.splitExtent());
        }
    }

    /** Runs {@code [0, extent)} of the walk's split loop, in {@code parallelism} parts when {@code executor} is not null. */
    public static void runWhole(Walk w, MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism,
                                long extent) {
        Tasks.forEachChunk(executor, parallelism, extent, w.alignment(), (lo, hi) -> run(w, src, dst, lo, hi), src, dst);
    }

    /** Runs indices {@code [from, to)} of the walk's split loop, staged where the walk stages. */
    public static void run(Walk w, MemorySegment src, MemorySegment dst, long from, long to) {
        if (w.stage() == 0) {
            part(w, src, dst, from, to);
            return;
        }
        LoopNest n = w.nest();
        int b = w.elements().dstBytes();
        long unit = n.dstStrides()[w.split()] * b;
        long per = Math.max(1, w.stage() / unit);
        MemorySegment buf = Scratch.stage(per * unit);
        for (long c = Math.max(0, from); c < to; c += per) {
            long e = Math.min(to, c + per);
            long base = n.dstOffset() + c * n.dstStrides()[w.split()];
            part(w.shiftDestination(-base), src, buf, c, e);
            MemorySegment.copy(buf, 0, dst, base * b, (e - c) * unit);
        }
    }

    /** Runs indices {@code [from, to)} of the walk's split loop, unstaged. */
    private static void part(Walk w, MemorySegment src, MemorySegment dst, long from, long to) {
        LoopNest nest = w.nest();
        long lo = Math.max(0, from);
        long hi = Math.min(to, nest.extents()[w.split()]);
        if (lo >= hi) {
            return;
        }
        if (w.step() instanceof Step.Panels p) {
            int[] loops = Walk.panelLoops(nest);
            PanelKernels.Job job = new PanelKernels.Job(nest.extents(), nest.srcStrides(), nest.dstStrides(),
                    nest.srcOffset(), nest.dstOffset(), nest.sourceContiguousLoop(), loops[0], loops[1], p.outer(),
                    p.inner(), p.tile(), w.split(), p.streamed());
            PanelKernels.run(job, src, dst, w.elements().dstBytes(), lo, hi);
            return;
        }
        int skip = w.kernel().transposes() ? nest.sourceContiguousLoop() : -1;
        outer(w, src, dst, lo, hi, 0, skip, nest.srcOffset(), nest.dstOffset());
    }

    /** Walks the loops from {@code level} in, except {@code skip} (a transpose's I), the split loop over {@code [from, to)}; then the kernel. */
    private static void outer(Walk w, MemorySegment src, MemorySegment dst, long from, long to, int level, int skip,
                              long so, long dO) {
        LoopNest nest = w.nest();
        int split = w.split();
        if (level == skip) {
            level++;
        }
        int inner = nest.depth() - 1;
        if (level >= inner) {
            leaf(w, src, dst, from, to, skip, so, dO);
            return;
        }
        long s = nest.srcStrides()[level];
        long t = nest.dstStrides()[level];
        long lo = level == split ? from : 0;
        long hi = level == split ? to : nest.extents()[level];
        if (w.step() instanceof Step.Simple r && r.kernel() == Kernel.COPY_RUNS && level == inner - 1 && split != inner) {
            int b = w.elements().dstBytes();
            CopyKernels.runs(src, so + lo * s, s, dst, dO + lo * t, t, hi - lo, nest.extents()[inner] * b, b,
                    r.streamed());
            return;
        }
        for (long i = lo; i < hi; i++) {
            outer(w, src, dst, from, to, level + 1, skip, so + i * s, dO + i * t);
        }
    }

    /**
     * The innermost loop (and a transpose's I) from slots {@code so}, {@code dO}, restricted to
     * {@code [from, to)} where it is the split loop.
     */
    private static void leaf(Walk w, MemorySegment src, MemorySegment dst, long from, long to, int skip, long so,
                             long dO) {
        LoopNest nest = w.nest();
        int split = w.split();
        int inner = nest.depth() - 1;
        long jLo = split == inner ? from : 0;
        long nJ = (split == inner ? to : nest.extents()[inner]) - jLo;
        long sJ = nest.srcStrides()[inner];
        long tJ = nest.dstStrides()[inner];
        long iLo = 0;
        long nI = 0;
        long tI = 0;
        if (skip >= 0) {
            iLo = split == skip ? from : 0;
            nI = (split == skip ? to : nest.extents()[skip]) - iLo;
            tI = nest.dstStrides()[skip];
        }
        kernel(w.step(), w.elements(), src, so + iLo + jLo * sJ, dst, dO + iLo * tI + jLo * tJ,
                nI, tI, nJ, sJ, tJ);
    }

    /**
     * Runs step {@code step} once on {@code elements}, from slots {@code so} and {@code dO}: along the
     * innermost loop ({@code nJ} elements, strides {@code sJ} and {@code tJ}) and, for a transpose, I
     * ({@code nI} elements, destination stride {@code tI}). The one place that maps a kernel to its code.
     *
     * @throws IllegalStateException for a step that runs no loop of a nest here (panels run whole panels)
     */
    public static void kernel(Step step, Elements elements, MemorySegment src, long so, MemorySegment dst,
                              long dO, long nI, long tI, long nJ, long sJ, long tJ) {
        int b = elements.dstBytes();
        switch (step) {
            case Step.Tiles x -> TransposeKernels.transpose(src, so, dst, dO, b, nI, tI, nJ, sJ, x.kernel(), x.blockI(),
                    x.blockJ(), x.strips(), x.bands(), x.touch());
            case Step.ConvertTiles x -> ConvertKernels.tiles(src, so, dst, dO, nI, tI, nJ, sJ, x.blockI(), x.blockJ());
            case Step.WidenTranspose x -> WideningKernels.transpose(x.plan(), src, so, dst, dO, nI, tI, nJ, sJ);
            case Step.Panels x -> throw new IllegalStateException("panels run whole panels, not one loop of a nest");
            case Step.Simple x -> simple(x.kernel(), elements, src, so, dst, dO, nI, tI, nJ, sJ, tJ);
        }
    }

    private static void simple(Kernel k, Elements elements, MemorySegment src, long so, MemorySegment dst, long dO,
                               long nI, long tI, long nJ, long sJ, long tJ) {
        int b = elements.dstBytes();
        switch (k) {
            case COPY_RUNS -> CopyKernels.run(src, so, dst, dO, nJ, b);
            case COPY_ELEMENTS -> CopyKernels.line(src, so, sJ, dst, dO, tJ, nJ, b);
            case ZIP_2 -> ZipKernels.zip2(src, so, sJ, dst, dO, nI);
            case UNZIP_2 -> ZipKernels.unzip2(src, so, dst, dO, tI, nJ);
            case INTERLEAVE -> NarrowKernels.interleave(src, so, sJ, dst, dO, b, nI, (int) nJ);
            case DEINTERLEAVE -> NarrowKernels.deinterleave(src, so, dst, dO, tI, b, (int) nI, nJ);
            case TRANSPOSE_ELEMENTS -> CopyKernels.transpose(src, so, dst, dO, b, nI, tI, nJ, sJ);
            case CONVERT_RUNS -> ConvertKernels.run(src, so, dst, dO, nJ);
            case CONVERT_ELEMENTS -> ConvertKernels.line(src, so, sJ, dst, dO, tJ, nJ);
            case CONVERT_ZIP_2 -> ConvertKernels.zip2(src, so, sJ, dst, dO, nI);
            case CONVERT_TRANSPOSE_ELEMENTS -> ConvertKernels.transpose(src, so, dst, dO, nI, tI, nJ, sJ);
            case WIDEN_RUNS -> WideningKernels.runs(elements.conversion(), src, so, dst, dO, nJ);
            case WIDEN_ELEMENTS -> WideningKernels.line(elements.conversion(), src, so, sJ, dst, dO, tJ, nJ);
            case WIDEN_PAIRS -> WideningKernels.bf16PairsToF32(src, so, dst, dO, tI, nJ);
            case TILES_32, TILES_16, TILES_8, CONVERT_TILES_16, WIDEN_TRANSPOSE, PANELS, PACK_4, UNPACK_4 ->
                    throw new IllegalStateException("kernel " + k + " is not a simple step");   // Step.Simple refuses them
        }
    }
}
