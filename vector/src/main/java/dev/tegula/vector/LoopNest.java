package dev.tegula.vector;

import java.util.Arrays;

/**
 * A normalised copy problem: {@code for each index i of extents n: dst[dstBase + Σ i·t] = src[srcBase + Σ i·s]},
 * in elements, loops ordered from outermost to innermost (innermost = smallest destination stride).
 * Size-1 loops are dropped and loops contiguous in both arrays merged. Immutable.
 */
record LoopNest(long[] n, long[] s, long[] t, long srcBase, long dstBase) {

    int depth() {
        return n.length;
    }

    long elements() {
        long e = 1;
        for (long x : n) {
            e *= x;
        }
        return e;
    }

    /** Sorts loops by destination stride (largest first, ties by source stride), drops size-1 loops, merges. */
    static LoopNest normalise(long[] n, long[] s, long[] t, long srcBase, long dstBase) {
        int m = 0;
        Integer[] order = new Integer[n.length];
        for (int i = 0; i < n.length; i++) {
            if (n[i] == 0) {
                return new LoopNest(new long[] {0}, new long[] {0}, new long[] {0}, srcBase, dstBase);
            }
            if (n[i] > 1) {
                order[m++] = i;
            }
        }
        Integer[] live = Arrays.copyOf(order, m);
        Arrays.sort(live, (a, b) -> t[a] != t[b] ? Long.compare(t[b], t[a]) : Long.compare(s[b], s[a]));
        long[] nn = new long[m];
        long[] ss = new long[m];
        long[] tt = new long[m];
        int k = 0;
        for (int q = 0; q < m; q++) {
            int i = live[q];
            if (k > 0 && ss[k - 1] == s[i] * n[i] && tt[k - 1] == t[i] * n[i]) {
                // the previous (outer) loop continues this one in both arrays: merge
                nn[k - 1] *= n[i];
                ss[k - 1] = s[i];
                tt[k - 1] = t[i];
            } else {
                nn[k] = n[i];
                ss[k] = s[i];
                tt[k] = t[i];
                k++;
            }
        }
        if (k == 0) {
            return new LoopNest(new long[] {1}, new long[] {1}, new long[] {1}, srcBase, dstBase);
        }
        return new LoopNest(Arrays.copyOf(nn, k), Arrays.copyOf(ss, k), Arrays.copyOf(tt, k), srcBase, dstBase);
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
        int d = n.length;
        if (d < 3 || t[d - 1] != 1 || s[d - 1] == 1) {
            return this;
        }
        int q = -1;
        for (int i = 0; i < d - 1; i++) {
            if (s[i] == 1) {
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
        Arrays.sort(order, (a, b) -> s[a] != s[b] ? Long.compare(s[b], s[a]) : Long.compare(t[b], t[a]));
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int i = 0; i < d - 2; i++) {
            nn[i] = n[order[i]];
            ss[i] = s[order[i]];
            tt[i] = t[order[i]];
        }
        nn[d - 2] = n[q];
        ss[d - 2] = s[q];
        tt[d - 2] = t[q];
        nn[d - 1] = n[d - 1];
        ss[d - 1] = s[d - 1];
        tt[d - 1] = t[d - 1];
        // walked loops in destination order (this nest without q) versus source order: keep the one
        // whose innermost walked loop jumps farther on the other side (as for bulk runs)
        int lastDst = q == d - 2 ? d - 3 : d - 2;
        long jumpInDstOrder = s[lastDst];
        long jumpInSrcOrder = tt[d - 3];
        if (jumpInSrcOrder <= jumpInDstOrder) {
            int k2 = 0;
            for (int i = 0; i < d - 1; i++) {
                if (i != q) {
                    nn[k2] = n[i];
                    ss[k2] = s[i];
                    tt[k2] = t[i];
                    k2++;
                }
            }
        }
        return new LoopNest(nn, ss, tt, srcBase, dstBase);
    }

    /**
     * For a bulk-run nest (innermost loop contiguous in both arrays), the loop order to walk it in:
     * destination order (this nest) or source order. Measured on the tiled cases, runs go faster
     * when consecutive runs jump far on the other side (many concurrent sequential streams) than
     * when they step through it a tile apart, so the order whose second-innermost loop has the
     * larger stride on the other side is chosen.
     */
    LoopNest orderedForRuns() {
        int d = n.length;
        if (d < 2 || s[d - 1] != 1 || t[d - 1] != 1) {
            return this;
        }
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> s[a] != s[b] ? Long.compare(s[b], s[a]) : Long.compare(t[b], t[a]));
        long[] nn = new long[d];
        long[] ss = new long[d];
        long[] tt = new long[d];
        for (int i = 0; i < d; i++) {
            nn[i] = n[order[i]];
            ss[i] = s[order[i]];
            tt[i] = t[order[i]];
        }
        long jumpInDstOrder = s[d - 2];
        long jumpInSrcOrder = tt[d - 2];
        return jumpInSrcOrder > jumpInDstOrder ? new LoopNest(nn, ss, tt, srcBase, dstBase) : this;
    }

    @Override
    public String toString() {
        return "LoopNest[n=" + Arrays.toString(n) + " s=" + Arrays.toString(s) + " t=" + Arrays.toString(t)
                + " src+" + srcBase + " dst+" + dstBase + "]";
    }
}
