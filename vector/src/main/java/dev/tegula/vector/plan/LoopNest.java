package dev.tegula.vector.plan;

import dev.tegula.core.StridedNest;
import java.util.Arrays;

/**
 * A normalised copy problem: {@code for each index i within extents:
 * dst[dstOffset + Σ i·dstStrides] = src[srcOffset + Σ i·srcStrides]}, offsets and strides in slots,
 * loops ordered from outermost to innermost (innermost = smallest destination stride).
 * Size-1 loops are dropped and loops contiguous in both arrays merged. Immutable.
 */
public record LoopNest(long[] extents, long[] srcStrides, long[] dstStrides, long srcOffset, long dstOffset) {

    public int depth() {
        return extents.length;
    }

    public long elements() {
        long e = 1;
        for (long x : extents) {
            e *= x;
        }
        return e;
    }

    /**
     * Sorts loops by destination stride (largest first, ties by source stride), then drops size-1
     * loops and merges contiguous ones as core's {@link StridedNest} does.
     */
    public static LoopNest normalise(long[] extents, long[] srcStrides, long[] dstStrides, long srcOffset, long dstOffset) {
        Integer[] order = new Integer[extents.length];
        for (int i = 0; i < extents.length; i++) {
            if (extents[i] == 0) {
                return new LoopNest(new long[] {0}, new long[] {0}, new long[] {0}, srcOffset, dstOffset);
            }
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> dstStrides[a] != dstStrides[b] ? Long.compare(dstStrides[b], dstStrides[a]) : Long.compare(srcStrides[b], srcStrides[a]));
        int d = extents.length;
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int q = 0; q < d; q++) {
            nn[q] = extents[order[q]];
            ss[q] = srcStrides[order[q]];
            tt[q] = dstStrides[order[q]];
        }
        StridedNest n = StridedNest.of(nn, new long[][] {ss, tt}, new long[] {srcOffset, dstOffset});
        if (n.depth() == 0) {
            return new LoopNest(new long[] {1}, new long[] {1}, new long[] {1}, srcOffset, dstOffset);
        }
        return new LoopNest(n.extents(), n.strides(0), n.strides(1), srcOffset, dstOffset);
    }

    /** {@return the nest with its loops in {@code order}: loop {@code k} of the result is loop {@code order[k]} of this one} */
    public LoopNest permuted(int[] order) {
        int d = extents.length;
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int k = 0; k < d; k++) {
            nn[k] = extents[order[k]];
            ss[k] = srcStrides[order[k]];
            tt[k] = dstStrides[order[k]];
        }
        return new LoopNest(nn, ss, tt, srcOffset, dstOffset);
    }

    /** {@return the loop (not the innermost) that is contiguous in the source, or -1} */
    public int sourceContiguousLoop() {
        for (int q = 0; q < extents.length - 1; q++) {
            if (srcStrides[q] == 1) {
                return q;
            }
        }
        return -1;
    }

    /** {@return true if the innermost loop is contiguous in both arrays (a nest of bulk runs)} */
    public boolean isRuns() {
        int d = extents.length;
        return srcStrides[d - 1] == 1 && dstStrides[d - 1] == 1;
    }

    /** {@return true if the innermost loop is contiguous in the destination and another loop in the source} */
    public boolean isTranspose() {
        return !isRuns() && dstStrides[extents.length - 1] == 1 && sourceContiguousLoop() >= 0;
    }

    /**
     * {@return the loop order the estimate walks this nest in (the rule, no timing)}, as positions of
     * this nest's loops, outermost first; the innermost loop stays innermost.
     *
     * <p>A transposing nest (innermost loop contiguous in the destination, another loop I contiguous
     * in the source) keeps I second-innermost and walks the other loops in source or destination
     * order, whichever makes consecutive blocks jump farther on the other side. A nest of bulk runs
     * is walked in destination order or source order by the same comparison: runs go faster when
     * consecutive runs jump far on the other side (many concurrent sequential streams) than when they
     * step through it a tile apart. From a tiled layout that reads tile after tile, into one it
     * writes tile after tile.
     */
    public int[] estimateOrder() {
        int d = extents.length;
        int[] identity = new int[d];
        for (int i = 0; i < d; i++) {
            identity[i] = i;
        }
        if (d >= 3 && isTranspose()) {
            int q = sourceContiguousLoop();
            int[] srcOrder = new int[d];
            int[] dstOrder = new int[d];
            int k = 0;
            for (int i = 0; i < d - 1; i++) {
                if (i != q) {
                    srcOrder[k] = i;
                    dstOrder[k] = i;
                    k++;
                }
            }
            sortBySourceStride(srcOrder, d - 2);
            srcOrder[d - 2] = q;
            dstOrder[d - 2] = q;
            srcOrder[d - 1] = d - 1;
            dstOrder[d - 1] = d - 1;
            long jumpInDstOrder = srcStrides[dstOrder[d - 3]];
            long jumpInSrcOrder = dstStrides[srcOrder[d - 3]];
            return jumpInSrcOrder <= jumpInDstOrder ? dstOrder : srcOrder;
        }
        if (d >= 2 && isRuns()) {
            int[] srcOrder = identity.clone();
            sortBySourceStride(srcOrder, d);
            long jumpInDstOrder = srcStrides[d - 2];
            long jumpInSrcOrder = dstStrides[srcOrder[d - 2]];
            return jumpInSrcOrder > jumpInDstOrder ? srcOrder : identity;
        }
        return identity;
    }

    /** {@return the order of this nest's loops by source stride (largest first, ties by destination stride), innermost kept last} */
    public int[] sourceOrder() {
        int d = extents.length;
        int[] order = new int[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        sortBySourceStride(order, d - 1);
        return order;
    }

    /** Sorts {@code order[0, n)} by source stride, largest first, ties by destination stride (stable). */
    private void sortBySourceStride(int[] order, int n) {
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = order[i];
        }
        Arrays.sort(boxed, (a, b) -> srcStrides[a] != srcStrides[b] ? Long.compare(srcStrides[b], srcStrides[a])
                : Long.compare(dstStrides[b], dstStrides[a]));
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
    }

    @Override
    public String toString() {
        return "LoopNest[n=" + Arrays.toString(extents) + " s=" + Arrays.toString(srcStrides) + " t="
                + Arrays.toString(dstStrides) + " src+" + srcOffset + " dst+" + dstOffset + "]";
    }
}
