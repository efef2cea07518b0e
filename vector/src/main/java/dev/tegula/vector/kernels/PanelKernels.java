package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The panel walk of a transposing nest whose two kernel loops are small, as in a 4-D reversal
 * {@code f32[64,64,64,64]} (3,2,1,0): there the transposed pair (I, contiguous in the source; J, the
 * innermost loop, contiguous in the destination) holds 64×64 elements, the rows of both sides lie
 * 1 MiB apart, and blocks of the pair alone keep 64 short source runs and 64 short destination runs
 * open at a time.
 *
 * <p>A panel is the whole pair times {@code panelOuter × panelInner} indices of the two walked loops
 * just outside it (the panel loops): about an L2's worth. It is transposed
 * into a per-thread buffer laid out as the destination (J, then the panel loops by destination
 * stride, then I, its rows one cache line longer than the panel so that a tile's rows do not share
 * one set of the L1), walking strips of {@code T} source rows (J) outermost and, within a strip, the
 * panel loops and then I: each of the strip's source rows is read as one run through every index of
 * the inner panel loop (a run of {@code panelInner} source rows where that loop is next to I in the
 * source). Then the buffer leaves for the destination in runs as long as the destination allows
 * (J, merged with the panel loops it is dense with), one {@link MemorySegment#copy} each (in one
 * process on AMD Zen 5 it ran faster than a loop of vector loads and stores), or, where the walk
 * streams, the runs of each index of the panel loops in one streaming copy
 * ({@link StreamStores#copy2d}), whole destination lines written without being read first.
 *
 * <p>The tiles are those of {@link TransposeKernels}; every walk with panels visits the same index
 * set as any other walk of the nest. Thread-safe; its buffer (at most {@link #MAX_PANEL_BYTES} plus
 * a line per row) is the per-thread staging buffer ({@link Scratch#stage}), which a walk with panels does
 * not otherwise use.
 */
public final class PanelKernels {
    private PanelKernels() {
    }

    /** Largest panel, in bytes. */
    public static final long MAX_PANEL_BYTES = 2L << 20;

    /**
     * A nest walked panel by panel, in element units: extents and strides of its loops (the innermost
     * last), offsets, the source-contiguous loop {@code q}, the outer and inner panel loops {@code p}
     * and {@code r} with a panel's extent along each, the tile edge, the loop threads share
     * (never {@code q} or the innermost), and whether panels leave the buffer with streaming stores.
     */
    public record Job(long[] extents, long[] srcStrides, long[] dstStrides, long srcOffset, long dstOffset, int q, int p,
                      int r, long panelOuter, long panelInner, int tile, int split, boolean streamed) {
    }

    /** One call's fixed facts: the job, the loops around the panels and the buffer's layout. */
    private record Panel(Job job, int[] outer, long[] buf, int b, int tj, long from, long to, MemorySegment src,
                         MemorySegment dst, MemorySegment buffer, MemorySegment tile) {
    }

    /**
     * Runs indices {@code [from, to)} of the job's split loop ({@link Kernel#PANELS}).
     *
     * @param b bytes of an element (2 or 4)
     */
    public static void run(Job job, MemorySegment src, MemorySegment dst, int b, long from, long to) {
        KernelTrace.ran(Kernel.PANELS);
        long[] e = job.extents();
        int d = e.length;
        int q = job.q();
        int p = job.p();
        int r = job.r();
        int[] outer = new int[d - 4];
        int k = 0;
        for (int i = 0; i < d - 1; i++) {
            if (i != q && i != p && i != r) {
                outer[k++] = i;
            }
        }
        long nJ = e[d - 1];
        // the buffer in elements: J dense; the panel loops by destination stride; I outermost, padded
        long[] buf = new long[d];
        buf[d - 1] = 1;
        boolean pFirst = job.dstStrides()[p] < job.dstStrides()[r];
        long first = pFirst ? job.panelOuter() : job.panelInner();
        buf[pFirst ? p : r] = nJ;
        buf[pFirst ? r : p] = nJ * first;
        buf[q] = nJ * job.panelOuter() * job.panelInner() + 64 / b;
        MemorySegment buffer = Scratch.stage(e[q] * buf[q] * b);   // free: a walk with panels stages nothing
        int t = job.tile();
        Panel c = new Panel(job, outer, buf, b, Math.max(t, 64 / b), Math.max(0, from), to, src, dst, buffer,
                TransposeKernels.TILE_BUFFER.get());
        walk(c, 0, job.srcOffset(), job.dstOffset());
    }

    /** The loops around the panels, from {@code c.outer[k]} in. */
    private static void walk(Panel c, int k, long so, long dO) {
        Job n = c.job;
        if (k == c.outer.length) {
            long[] pr = range(c, n.p());
            long[] rr = range(c, n.r());
            for (long i = pr[0]; i < pr[1]; i += n.panelOuter()) {
                for (long j = rr[0]; j < rr[1]; j += n.panelInner()) {
                    panel(c, so + i * n.srcStrides()[n.p()] + j * n.srcStrides()[n.r()],
                            dO + i * n.dstStrides()[n.p()] + j * n.dstStrides()[n.r()],
                            Math.min(n.panelOuter(), pr[1] - i), Math.min(n.panelInner(), rr[1] - j));
                }
            }
            return;
        }
        int loop = c.outer[k];
        long[] range = range(c, loop);
        for (long i = range[0]; i < range[1]; i++) {
            walk(c, k + 1, so + i * n.srcStrides()[loop], dO + i * n.dstStrides()[loop]);
        }
    }

    /** {@return {@code [lo, hi)} of a loop: its whole extent, or the part's range where it is the split loop} */
    private static long[] range(Panel c, int loop) {
        long n = c.job.extents()[loop];
        return loop == c.job.split() ? new long[] {Math.min(c.from, n), Math.min(c.to, n)} : new long[] {0, n};
    }

    /** One panel: {@code cp × cr} panel indices from slots {@code so}, {@code dO}; into the buffer, then out. */
    private static void panel(Panel c, long so, long dO, long cp, long cr) {
        Job n = c.job;
        int d = n.extents().length;
        int b = c.b;
        int q = n.q();
        int t = n.tile();
        long nI = n.extents()[q];
        long nJ = n.extents()[d - 1];
        long sJ = n.srcStrides()[d - 1];
        long sP = n.srcStrides()[n.p()];
        long sR = n.srcStrides()[n.r()];
        long[] buf = c.buf;
        long sRow = sJ * b;
        long bRow = buf[q] * b;
        for (long j = 0; j < nJ; j += c.tj) {
            for (long x = 0; x < cp; x++) {
                for (long y = 0; y < cr; y++) {
                    long sb = (so + j * sJ + x * sP + y * sR) * b;
                    long bb = (j + x * buf[n.p()] + y * buf[n.r()]) * b;
                    for (long i = 0; i < nI; i += t) {
                        TransposeKernels.step(c.src, sb + i * b, sRow, c.buffer, bb + i * bRow, bRow, b, t, c.tj,
                                c.tile);
                    }
                }
            }
        }
        // out: runs of J, merged with the panel loop next to it in both the buffer and the destination
        // (and with the other one too where the first is whole)
        long[] dS = n.dstStrides();
        int first = dS[n.p()] < dS[n.r()] ? n.p() : n.r();
        int second = first == n.p() ? n.r() : n.p();
        long cFirst = first == n.p() ? cp : cr;
        long cSecond = first == n.p() ? cr : cp;
        long full = first == n.p() ? n.panelOuter() : n.panelInner();
        long run = nJ;
        long nF = cFirst;
        long nS = cSecond;
        if (dS[first] == nJ) {
            run *= cFirst;
            nF = 1;
            if (cFirst == full && dS[second] == run) {
                run *= cSecond;
                nS = 1;
            }
        }
        long runBytes = run * b;
        if (n.streamed()) {
            // one streaming copy per run of the panel loops: its nI rows, each a run (one fence a call)
            for (long y = 0; y < nS; y++) {
                for (long x = 0; x < nF; x++) {
                    StreamStores.copy2d(c.buffer, (y * buf[second] + x * buf[first]) * b, buf[q] * b, c.dst,
                            (dO + y * dS[second] + x * dS[first]) * b, dS[q] * b, nI, runBytes);
                }
            }
            return;
        }
        for (long i = 0; i < nI; i++) {
            for (long y = 0; y < nS; y++) {
                for (long x = 0; x < nF; x++) {
                    long from = (i * buf[q] + y * buf[second] + x * buf[first]) * b;
                    long to = (dO + i * dS[q] + y * dS[second] + x * dS[first]) * b;
                    MemorySegment.copy(c.buffer, from, c.dst, to, runBytes);
                }
            }
        }
    }
}
