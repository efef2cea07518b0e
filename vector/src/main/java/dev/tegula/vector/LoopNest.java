package dev.tegula.vector;

import java.util.Arrays;

/**
 * A normalised copy problem: {@code for each index i within extents:
 * dst[dstOffset + Σ i·dstStrides] = src[srcOffset + Σ i·srcStrides]}, offsets and strides in slots,
 * loops ordered from outermost to innermost (innermost = smallest destination stride).
 * Size-1 loops are dropped and loops contiguous in both arrays merged. Immutable.
 */
record LoopNest(long[] extents, long[] srcStrides, long[] dstStrides, long srcOffset, long dstOffset) {

    int depth() {
        return extents.length;
    }

    long elements() {
        long e = 1;
        for (long x : extents) {
            e *= x;
        }
        return e;
    }

    /** Sorts loops by destination stride (largest first, ties by source stride), drops size-1 loops, merges. */
    static LoopNest normalise(long[] extents, long[] srcStrides, long[] dstStrides, long srcOffset, long dstOffset) {
        int m = 0;
        Integer[] order = new Integer[extents.length];
        for (int i = 0; i < extents.length; i++) {
            if (extents[i] == 0) {
                return new LoopNest(new long[] {0}, new long[] {0}, new long[] {0}, srcOffset, dstOffset);
            }
            if (extents[i] > 1) {
                order[m++] = i;
            }
        }
        Integer[] live = Arrays.copyOf(order, m);
        Arrays.sort(live, (a, b) -> dstStrides[a] != dstStrides[b] ? Long.compare(dstStrides[b], dstStrides[a]) : Long.compare(srcStrides[b], srcStrides[a]));
        long[] nn = new long[m];
        long[] ss = new long[m];
        long[] tt = new long[m];
        int k = 0;
        for (int q = 0; q < m; q++) {
            int i = live[q];
            if (k > 0 && ss[k - 1] == srcStrides[i] * extents[i] && tt[k - 1] == dstStrides[i] * extents[i]) {
                // the previous (outer) loop continues this one in both arrays: merge
                nn[k - 1] *= extents[i];
                ss[k - 1] = srcStrides[i];
                tt[k - 1] = dstStrides[i];
            } else {
                nn[k] = extents[i];
                ss[k] = srcStrides[i];
                tt[k] = dstStrides[i];
                k++;
            }
        }
        if (k == 0) {
            return new LoopNest(new long[] {1}, new long[] {1}, new long[] {1}, srcOffset, dstOffset);
        }
        return new LoopNest(Arrays.copyOf(nn, k), Arrays.copyOf(ss, k), Arrays.copyOf(tt, k), srcOffset, dstOffset);
    }

    /** {@return this nest in the loop order its kernel walks best: see {@link #orderedForRuns()} and {@link #orderedForTranspose()}} */
    LoopNest ordered() {
        return orderedForTranspose().orderedForRuns();
    }

    /**
     * For a transposing nest (innermost loop contiguous in the destination, another loop I
     * contiguous in the source), puts I second-innermost and walks the remaining loops in source or
     * destination order, whichever makes consecutive blocks jump farther on the other side (the
     * rule of {@link #orderedForRuns()}): from a tiled layout that reads tile after tile, into one
     * it writes tile after tile.
     */
    LoopNest orderedForTranspose() {
        int d = extents.length;
        if (d < 3 || dstStrides[d - 1] != 1 || srcStrides[d - 1] == 1) {
            return this;
        }
        int q = -1;
        for (int i = 0; i < d - 1; i++) {
            if (srcStrides[i] == 1) {
                q = i;
                break;
            }
        }
        if (q < 0) {
            return this;
        }
        Integer[] order = new Integer[d - 2];
        int k = 0;
        for (int i = 0; i < d - 1; i++) {
            if (i != q) {
                order[k++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> srcStrides[a] != srcStrides[b] ? Long.compare(srcStrides[b], srcStrides[a]) : Long.compare(dstStrides[b], dstStrides[a]));
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int i = 0; i < d - 2; i++) {
            nn[i] = extents[order[i]];
            ss[i] = srcStrides[order[i]];
            tt[i] = dstStrides[order[i]];
        }
        nn[d - 2] = extents[q];
        ss[d - 2] = srcStrides[q];
        tt[d - 2] = dstStrides[q];
        nn[d - 1] = extents[d - 1];
        ss[d - 1] = srcStrides[d - 1];
        tt[d - 1] = dstStrides[d - 1];
        // walked loops in destination order (this nest without q) versus source order: keep the one
        // whose innermost walked loop jumps farther on the other side (as for bulk runs)
        int lastDst = q == d - 2 ? d - 3 : d - 2;
        long jumpInDstOrder = srcStrides[lastDst];
        long jumpInSrcOrder = tt[d - 3];
        if (jumpInSrcOrder <= jumpInDstOrder) {
            int k2 = 0;
            for (int i = 0; i < d - 1; i++) {
                if (i != q) {
                    nn[k2] = extents[i];
                    ss[k2] = srcStrides[i];
                    tt[k2] = dstStrides[i];
                    k2++;
                }
            }
        }
        return new LoopNest(nn, ss, tt, srcOffset, dstOffset);
    }

    /**
     * For a bulk-run nest (innermost loop contiguous in both arrays), the loop order to walk it in:
     * destination order (this nest) or source order. On the tiled cases runs go faster
     * when consecutive runs jump far on the other side (many concurrent sequential streams) than
     * when they step through it a tile apart, so the order whose second-innermost loop has the
     * larger stride on the other side is chosen.
     */
    LoopNest orderedForRuns() {
        int d = extents.length;
        if (d < 2 || srcStrides[d - 1] != 1 || dstStrides[d - 1] != 1) {
            return this;
        }
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> srcStrides[a] != srcStrides[b] ? Long.compare(srcStrides[b], srcStrides[a]) : Long.compare(dstStrides[b], dstStrides[a]));
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int i = 0; i < d; i++) {
            nn[i] = extents[order[i]];
            ss[i] = srcStrides[order[i]];
            tt[i] = dstStrides[order[i]];
        }
        long jumpInDstOrder = srcStrides[d - 2];
        long jumpInSrcOrder = tt[d - 2];
        return jumpInSrcOrder > jumpInDstOrder ? new LoopNest(nn, ss, tt, srcOffset, dstOffset) : this;
    }

    @Override
    public String toString() {
        return "LoopNest[n=" + Arrays.toString(extents) + " s=" + Arrays.toString(srcStrides) + " t="
                + Arrays.toString(dstStrides) + " src+" + srcOffset + " dst+" + dstOffset + "]";
    }
}
