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

    @Override
    public String toString() {
        return "LoopNest[n=" + Arrays.toString(n) + " s=" + Arrays.toString(s) + " t=" + Arrays.toString(t)
                + " src+" + srcBase + " dst+" + dstBase + "]";
    }
}
