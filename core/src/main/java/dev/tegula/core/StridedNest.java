package dev.tegula.core;

import java.util.Arrays;

/**
 * A normalised strided loop nest over N operands: loops with extents, outermost first, one stride
 * array per operand and one offset per operand, so that the element at loop indices {@code i} lies
 * in operand {@code x}'s slot {@code offset(x) + Σ_k i[k]·stride(x, k)}. Normalised: loops of extent
 * 1 are dropped and a loop is merged into the loop outside it where the two are contiguous in every
 * operand ({@code stride(x, outer) == stride(x, inner)·extent(inner)} for each {@code x}); the order
 * of the loops is the caller's. A nest with a loop of extent 0 has no elements and no loops.
 *
 * <p>Each loop remembers which of the input loops it is made of ({@link #firstInput}, {@link #inputCount}),
 * so that a walk can map a loop's index back to the input loops (a common digit space's digits,
 * {@link DigitSpace}).
 *
 * <p>Immutable and thread-safe; the getters that return arrays return copies.
 */
public final class StridedNest {
    private final long[] extents;
    /** [operand][loop]. */
    private final long[][] strides;
    private final long[] offsets;
    private final int[] firstInput;
    private final int[] inputCount;
    private final boolean empty;

    private StridedNest(long[] extents, long[][] strides, long[] offsets, int[] firstInput, int[] inputCount, boolean empty) {
        this.extents = extents;
        this.strides = strides;
        this.offsets = offsets;
        this.firstInput = firstInput;
        this.inputCount = inputCount;
        this.empty = empty;
    }

    /**
     * {@return the normalised nest of these loops, merged wherever contiguous}
     *
     * @param extents each input loop's extent, outermost first
     * @param strides per operand, each input loop's stride in slots
     * @param offsets per operand, the slot of the first element
     * @throws IllegalArgumentException if the arrays' lengths disagree or an extent is negative
     */
    public static StridedNest of(long[] extents, long[][] strides, long[] offsets) {
        return of(extents, strides, offsets, null);
    }

    /**
     * {@return the normalised nest of these loops, where {@code apart[j]} true keeps input loop
     * {@code j} from merging into the loop outside it} A walk that bounds a loop's index (a partial
     * tile's digit) keeps it apart from the loops outside it, so that each merged loop's valid
     * indices stay a prefix.
     *
     * @param apart per input loop, or null for none apart
     * @throws IllegalArgumentException if the arrays' lengths disagree or an extent is negative
     */
    public static StridedNest of(long[] extents, long[][] strides, long[] offsets, boolean[] apart) {
        int n = extents.length;
        int m = strides.length;
        if (offsets.length != m) {
            throw new IllegalArgumentException("offsets: " + offsets.length + " for " + m + " operands");
        }
        for (int x = 0; x < m; x++) {
            if (strides[x].length != n) {
                throw new IllegalArgumentException("strides: operand " + x + " has " + strides[x].length
                        + " strides for " + n + " loops");
            }
        }
        if (apart != null && apart.length != n) {
            throw new IllegalArgumentException("apart: " + apart.length + " flags for " + n + " loops");
        }
        for (int j = 0; j < n; j++) {
            if (extents[j] < 0) {
                throw new IllegalArgumentException("extents: loop " + j + " has extent " + extents[j]);
            }
            if (extents[j] == 0) {
                return new StridedNest(new long[0], new long[m][0], offsets.clone(), new int[0], new int[0], true);
            }
        }
        long[] nn = new long[n];
        long[][] ss = new long[m][n];
        int[] first = new int[n];
        int[] count = new int[n];
        int k = 0;
        int pending = 0;   // dropped size-1 loops since the last kept one: folded into the next kept loop
        for (int j = 0; j < n; j++) {
            if (extents[j] == 1) {
                if (k > 0) {
                    count[k - 1]++;
                } else {
                    pending++;
                }
                continue;
            }
            boolean merge = k > 0 && (apart == null || !apart[j]);
            for (int x = 0; x < m && merge; x++) {
                merge = ss[x][k - 1] == strides[x][j] * extents[j];
            }
            if (merge) {
                nn[k - 1] *= extents[j];
                for (int x = 0; x < m; x++) {
                    ss[x][k - 1] = strides[x][j];
                }
                count[k - 1] += 1;
            } else {
                nn[k] = extents[j];
                for (int x = 0; x < m; x++) {
                    ss[x][k] = strides[x][j];
                }
                first[k] = j - pending;
                count[k] = 1 + pending;
                pending = 0;
                k++;
            }
        }
        long[][] outStrides = new long[m][];
        for (int x = 0; x < m; x++) {
            outStrides[x] = Arrays.copyOf(ss[x], k);
        }
        return new StridedNest(Arrays.copyOf(nn, k), outStrides, offsets.clone(), Arrays.copyOf(first, k),
                Arrays.copyOf(count, k), false);
    }

    /**
     * {@return the nest of one box of a digit space: a loop per digit, in the space's digit order,
     * each operand's offset moved to the box's first index} ({@link DigitSpace#boxes()})
     *
     * @param offsets per operand, the slot of index 0
     * @throws IllegalArgumentException if the box or the offsets do not fit the space
     */
    public static StridedNest ofBox(DigitSpace space, long[][] box, long[] offsets) {
        int n = space.digitCount();
        int m = space.operandCount();
        if (box.length != n || offsets.length != m) {
            throw new IllegalArgumentException("box: " + box.length + " rows and " + offsets.length
                    + " offsets for a space of " + n + " digits and " + m + " operands");
        }
        long[] ext = new long[n];
        long[][] str = new long[m][n];
        long[] off = offsets.clone();
        for (int k = 0; k < n; k++) {
            ext[k] = box[k][1] - box[k][0];
            for (int x = 0; x < m; x++) {
                str[x][k] = space.weight(x, k);
                off[x] += box[k][0] * str[x][k];
            }
        }
        return of(ext, str, off);
    }

    /** {@return the number of loops after normalising} */
    public int depth() {
        return extents.length;
    }

    /** {@return the number of operands} */
    public int operandCount() {
        return strides.length;
    }

    /** {@return the number of elements the nest visits} 0 where an input loop had extent 0. */
    public long elements() {
        if (empty) {
            return 0;
        }
        long e = 1;
        for (long x : extents) {
            e = Math.multiplyExact(e, x);
        }
        return e;
    }

    /** {@return true if the nest has no elements} */
    public boolean isEmpty() {
        return empty;
    }

    /** {@return the extent of loop {@code k}, outermost first} */
    public long extent(int k) {
        return extents[k];
    }

    /** {@return the loops' extents, outermost first (a copy)} */
    public long[] extents() {
        return extents.clone();
    }

    /** {@return operand {@code operand}'s stride along loop {@code k}, in slots} */
    public long stride(int operand, int k) {
        return strides[operand][k];
    }

    /** {@return operand {@code operand}'s strides, outermost loop first, in slots (a copy)} */
    public long[] strides(int operand) {
        return strides[operand].clone();
    }

    /** {@return operand {@code operand}'s slot of the first element} */
    public long offset(int operand) {
        return offsets[operand];
    }

    /** {@return the first (outermost) input loop that loop {@code k} is made of} */
    public int firstInput(int k) {
        return firstInput[k];
    }

    /** {@return how many consecutive input loops loop {@code k} is made of, dropped size-1 loops included} */
    public int inputCount(int k) {
        return inputCount[k];
    }

    /** {@return true if every operand steps by one slot along the innermost loop (a nest of runs)} */
    public boolean isRuns() {
        int d = extents.length;
        for (long[] s : strides) {
            if (d == 0 || s[d - 1] != 1) {
                return false;
            }
        }
        return d > 0;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("StridedNest[extents=").append(Arrays.toString(extents));
        for (int x = 0; x < strides.length; x++) {
            b.append(" strides").append(x).append('=').append(Arrays.toString(strides[x]))
                    .append(" offset").append(x).append('=').append(offsets[x]);
        }
        return b.append(']').toString();
    }
}
