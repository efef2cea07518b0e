package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A cursor that walks one array, or two arrays of the same dimensions side by side, as maximal runs
 * of contiguous slots: the interface for kernels written once over plain unit-stride memory and run
 * on every layout (NumPy's {@code nditer} with {@code external_loop}).
 *
 * {@snippet :
 * Runs r = Runs.of(x, y);                        // memory order of x, padding skipped
 * while (r.next()) {
 *     long n = r.length();                       // elements in this run
 *     MemorySegment xs = r.segment(0), ys = r.segment(1);
 *     long xo = r.offset(0), yo = r.offset(1);   // byte offsets of the run's first element
 *     for (long i = 0; i < n; i++) {             // or a Vector API loop over the same bytes
 *         float v = xs.get(ValueLayout.JAVA_FLOAT_UNALIGNED, xo + 4 * i);
 *         ys.set(ValueLayout.JAVA_FLOAT_UNALIGNED, yo + 4 * i, ys.get(ValueLayout.JAVA_FLOAT_UNALIGNED, yo + 4 * i) + 2 * v);
 *     }
 * }
 * }
 *
 * <h2>The walk and its runs</h2>
 * The cursor visits every element once, in a walk order: a logical order (row-major over a
 * permutation of the dimensions, {@link #of(Array, Array, int[], Padding)}), or by default the memory
 * order of the first array (its slots in increasing order: for a tiled layout, tile by tile). A run
 * is a stretch of elements that are consecutive in the walk and whose slots are consecutive in every
 * array: element {@code k} of a run lies {@code k} slots after the run's first slot in each array
 * ({@code offset(a) + k·slotBytes} bytes), and is the {@code k}-th element after the first in the
 * walk order ({@link #index(long, long[])} gives its logical index). Runs are maximal: the walk is
 * cut only where some array's slots stop being consecutive, or where padding is skipped. Two arrays
 * of one layout are contiguous at the same places, so their runs are as long as one array's: a dense
 * row-major, column-major or tiled array without padding is a single run in memory order. Arrays of
 * different layouts give short runs (often of one element): relayout one into the other's layout
 * first ({@code Relayout.to} in module vector), then walk them.
 *
 * <h2>Padding</h2>
 * With {@link Padding#SKIP} the walk visits the elements only. With {@link Padding#VISIT} it visits
 * the whole padded box of a tiled layout (each dimension rounded up to its tile extent,
 * {@link ArrayShape#tileExtent(int)}): runs then go through the padding slots of partial tiles, and
 * the indices of those slots are at or past the dimension's size. The arrays must have the same
 * padded box, and the box must cover every slot of each tiled buffer (no tail alignment {@code L(n)}).
 *
 * <h2>Layouts</h2>
 * Strided arrays and views (any strides, offsets, legacy padded dimensions) and tiled layouts whose
 * index math core writes as a {@link SlotFormula} ({@code T(8,128)}, {@code T(8,128)(2,1)}, tiles that
 * divide evenly) are walked by strides: the cost is per run, not per element. Other tiled layouts are
 * walked element by element through their address calculator, and their "memory order" is the
 * layout's dimension order, major to minor (the runs are still maximal; {@link Padding#VISIT} is
 * refused). Packed sub-byte layouts ({@code E(1)}, {@code E(2)},
 * {@code E(4)}: several elements per byte) are refused: a run of them does not start on a byte.
 *
 * <h2>Cost, threads, lifetime</h2>
 * Creating a cursor allocates a few small arrays; {@link #next()} and the getters allocate nothing.
 * A cursor is mutable and for one thread; {@link #reset()} starts the walk again. It reads no element
 * and holds the arrays' segments: their arena's rules apply to what the caller does with them.
 */
public final class Runs {
    /** Whether a walk visits the padding slots of partial tiles. */
    public enum Padding {
        /** Visit the elements only. */
        SKIP,
        /** Visit the padded box of tiled layouts: the elements and the padding slots inside tiles. */
        VISIT
    }

    private final Array[] arrays;
    private final MemorySegment[] segments;
    private final long[] slotBytes;
    private final int rank;
    /** The walk's bound on each dimension: the size, or the padded size. */
    private final long[] ext;
    /** Axes of the walk, outermost first: logical dimension, divisor (the digit is {@code e[dim] / div % count}), count. */
    private final int n;
    private final int[] axDim;
    private final long[] axDiv;
    private final long[] axCount;
    /** Per array: slots per unit of each axis, or null when the array is addressed element by element. */
    private final long[][] weight;
    private final long[] base;
    /** Runs of more than one element per piece: every array strided along the walk, innermost slot step 1. */
    private final boolean unit;
    /** First axis of the innermost group walked as one contiguous piece (unit mode). */
    private final int group;
    private final long innerProduct;
    private final boolean empty;

    // state: the current position
    private final long[] digit;
    private final long[] e;
    private final long[] slot;
    private boolean exhausted;
    // the current run
    private long runLength;
    private final long[] runSlot;
    private final long[] runIndex;
    private final long[] runDigit;
    private final long[] scratch;

    private Runs(Array[] arrays, int[] order, Padding padding) {
        Objects.requireNonNull(padding, "padding");
        this.arrays = arrays;
        Array a0 = Objects.requireNonNull(arrays[0], "first");
        rank = a0.dims.length;
        int m = arrays.length;
        segments = new MemorySegment[m];
        slotBytes = new long[m];
        base = new long[m];
        for (int x = 0; x < m; x++) {
            Array a = Objects.requireNonNull(arrays[x], "array");
            if (!a.isHostAccessible()) {
                throw Array.notHostAccessible(a.shape, a.provider);
            }
            if (a.slotBytes == 0) {
                throw new IllegalArgumentException("runs: " + a.shape + " packs " + (8 / a.slotBits)
                        + " elements in a byte (E(" + a.slotBits + ")), so a run does not start on a byte;"
                        + " relayout it to an unpacked layout first, or use the element accessors");
            }
            if (x > 0 && !Arrays.equals(a.dims, a0.dims)) {
                throw new IllegalArgumentException("runs: the arrays must have the same dimensions, but "
                        + a0.shape.toStringWithoutLayout() + " and " + a.shape.toStringWithoutLayout() + " differ");
            }
            segments[x] = a.segment;
            slotBytes[x] = a.slotBytes;
            base[x] = a.strided ? a.slotOffset : 0;
        }
        if (order != null) {
            checkPermutation(order, rank);
        }
        boolean visit = padding == Padding.VISIT;
        ext = visit ? paddedBox(arrays) : a0.dims.clone();
        long boxCount = 1;
        boolean zero = false;
        for (long s : ext) {
            zero |= s == 0;
            boxCount = zero ? 0 : Math.multiplyExact(boxCount, s);
        }
        empty = zero;

        // each array's digits per dimension: {div, mod, weight} rows, or null (addressed)
        long[][][][] chains = new long[m][][][];
        for (int x = 0; x < m; x++) {
            chains[x] = chains(arrays[x], ext);
        }
        if (visit) {
            for (int x = 0; x < m; x++) {
                Array a = arrays[x];
                if (chains[x] == null) {
                    throw new IllegalArgumentException("runs: visiting padding needs a layout core writes as a "
                            + "SlotFormula; " + a.shape + " has none: skip the padding (Padding.SKIP)");
                }
                if (!a.strided && !zero && (boxCount != a.shape.slotCount()
                        || ArrayShape.of(a.shape.elementType(), ext).withLayout(a.shape.layout()).slotCount() != boxCount)) {
                    throw new IllegalArgumentException("runs: the padded box " + Arrays.toString(ext) + " of "
                            + a.shape + " covers " + boxCount + " of its " + a.shape.slotCount()
                            + " slots: skip the padding (Padding.SKIP)");
                }
            }
        }
        // the refined axes of each dimension: every array's digit boundaries
        List<long[]> axes = new ArrayList<>();   // {dim, div, count, physical position}
        int[] physical = physicalOrder(a0);
        for (int d = 0; d < rank && m > 1; d++) {
            if (divisors(chains, d) == null) {
                chains[1] = null;   // the second array's digits do not nest in the first's: address it
            }
        }
        for (int d = 0; d < rank; d++) {
            long[] divs = divisors(chains, d);
            for (int k = divs.length - 1; k >= 0; k--) {
                long count = k + 1 < divs.length ? divs[k + 1] / divs[k] : Math.max(1, Math.ceilDiv(ext[d], divs[k]));
                axes.add(new long[] {d, divs[k], count, physical[d]});
            }
        }
        // walk order
        long[][] ax = axes.toArray(new long[0][]);
        int[] pos = new int[rank];
        if (order != null) {
            for (int k = 0; k < rank; k++) {
                pos[order[k]] = k;
            }
        } else {
            for (int d = 0; d < rank; d++) {
                pos[d] = physical[d];
            }
        }
        Integer[] idx = new Integer[ax.length];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = k;
        }
        long[][] w0 = new long[ax.length][];
        for (int k = 0; k < ax.length; k++) {
            w0[k] = new long[] {chains[0] == null ? 0 : weightOf(chains[0][(int) ax[k][0]], ax[k][1])};
        }
        boolean byMemory = order == null && chains[0] != null;
        Arrays.sort(idx, (p, q) -> {
            if (byMemory) {
                long wp = w0[p][0], wq = w0[q][0];
                if ((wp == 0) != (wq == 0)) {
                    return wp == 0 ? -1 : 1;   // broadcast (stride 0) axes outermost
                }
                if (wp != wq) {
                    return Long.compare(wq, wp);
                }
            }
            int c = Integer.compare(pos[(int) ax[p][0]], pos[(int) ax[q][0]]);
            return c != 0 ? c : Long.compare(ax[q][1], ax[p][1]);
        });
        List<Integer> kept = new ArrayList<>();
        for (Integer k : idx) {
            if (ax[k][2] > 1) {
                kept.add(k);
            }
        }
        n = kept.size();
        axDim = new int[n];
        axDiv = new long[n];
        axCount = new long[n];
        weight = new long[m][];
        for (int x = 0; x < m; x++) {
            weight[x] = chains[x] == null ? null : new long[n];
        }
        for (int j = 0; j < n; j++) {
            long[] a = ax[kept.get(j)];
            axDim[j] = (int) a[0];
            axDiv[j] = a[1];
            axCount[j] = a[2];
            for (int x = 0; x < m; x++) {
                if (weight[x] != null) {
                    weight[x][j] = weightOf(chains[x][axDim[j]], axDiv[j]);
                }
            }
        }
        // the innermost group of axes that every array walks as one contiguous stretch
        boolean u = n > 0;
        for (int x = 0; x < m && u; x++) {
            u = weight[x] != null && weight[x][n - 1] == 1;
        }
        unit = u;
        int g = n - 1;
        long inner = 1;
        if (u) {
            while (g > 0 && full(g)) {
                long span = inner * axCount[g];
                boolean next = true;
                for (int x = 0; x < m; x++) {
                    next &= weight[x][g - 1] == span;
                }
                if (!next) {
                    break;
                }
                inner = span;
                g--;
            }
        }
        group = g;
        innerProduct = inner;

        digit = new long[n];
        e = new long[rank];
        slot = new long[m];
        runSlot = new long[m];
        runIndex = new long[rank];
        runDigit = new long[n];
        scratch = new long[n];
        reset();
    }

    // ---- creation --------------------------------------------------------------------------------

    /**
     * {@return a cursor over the runs of {@code array} in its memory order, padding skipped}
     *
     * @throws IllegalArgumentException if the layout is packed ({@code E(1|2|4)})
     * @throws IllegalStateException    if the memory is not host-accessible
     */
    public static Runs of(Array array) {
        return new Runs(new Array[] {array}, null, Padding.SKIP);
    }

    /**
     * {@return a cursor over the runs of {@code first} and {@code second} side by side, in the memory
     * order of {@code first}, padding skipped} A run ends where either array's slots stop being
     * consecutive. The element types may differ.
     *
     * @throws IllegalArgumentException if the dimensions differ or a layout is packed
     * @throws IllegalStateException    if a memory is not host-accessible
     */
    public static Runs of(Array first, Array second) {
        return new Runs(new Array[] {first, Objects.requireNonNull(second, "second")}, null, Padding.SKIP);
    }

    /**
     * {@return a cursor over the runs of one array ({@code second} null) or of two arrays side by side,
     * in a chosen walk order}
     *
     * @param first   the first array
     * @param second  the second array, of the same dimensions, or null
     * @param order   the logical walk order: a permutation of the dimensions, outermost first
     *                ({@code {0, 1, …}} is row-major order), or null for the memory order of {@code first}
     * @param padding whether the walk visits the padding slots inside tiles
     * @throws IllegalArgumentException if {@code order} is not a permutation of the dimensions, the
     *                                  dimensions differ, a layout is packed, or padding is visited where
     *                                  it cannot be (different padded boxes, a buffer the box does not
     *                                  cover, a layout walked element by element)
     * @throws IllegalStateException    if a memory is not host-accessible
     */
    public static Runs of(Array first, Array second, int[] order, Padding padding) {
        Array[] a = second == null ? new Array[] {first} : new Array[] {first, second};
        return new Runs(a, order == null ? null : order.clone(), padding);
    }

    // ---- the walk ------------------------------------------------------------------------------

    /** Starts the walk again from its first run. */
    public void reset() {
        Arrays.fill(digit, 0);
        Arrays.fill(e, 0);
        System.arraycopy(base, 0, slot, 0, base.length);
        runLength = 0;
        exhausted = empty;
        if (!exhausted) {
            skipPadding();
            if (!exhausted) {
                addressSlots();
            }
        }
    }

    /**
     * Moves to the next run.
     *
     * @return true if there is one (its getters then describe it), false when the walk is over
     */
    public boolean next() {
        if (exhausted) {
            runLength = 0;
            return false;
        }
        System.arraycopy(e, 0, runIndex, 0, rank);
        System.arraycopy(digit, 0, runDigit, 0, n);
        System.arraycopy(slot, 0, runSlot, 0, slot.length);
        long len = 0;
        while (true) {
            boolean skipped;
            if (unit) {
                long kmax = validCount();
                len += (kmax - digit[group]) * innerProduct;
                skipped = kmax < axCount[group];
                resetFrom(group);
                exhausted = !increment(group - 1);
            } else {
                len++;
                exhausted = !increment(n - 1);
                skipped = false;
            }
            if (exhausted) {
                break;
            }
            skipped |= skipPadding();
            if (exhausted) {
                break;
            }
            addressSlots();
            if (skipped || !adjacent(len)) {
                break;
            }
        }
        runLength = len;
        return true;
    }

    /** {@return how many arrays this cursor walks: 1 or 2} */
    public int arrayCount() {
        return arrays.length;
    }

    /** {@return the number of elements (slots) in the current run} 0 before the first {@link #next()} and after the last. */
    public long length() {
        return runLength;
    }

    /** {@return the segment of the first array} */
    public MemorySegment segment() {
        return segments[0];
    }

    /** {@return the byte offset of the current run in {@link #segment()}} */
    public long offset() {
        return runSlot[0] * slotBytes[0];
    }

    /**
     * {@return the segment of array {@code array}} (0: the first, 1: the second)
     *
     * @throws IndexOutOfBoundsException if there is no such array
     */
    public MemorySegment segment(int array) {
        return segments[array];
    }

    /**
     * {@return the byte offset of the current run's first element in {@link #segment(int) segment(array)}}
     * The run's elements follow at {@code slotBytes} steps: {@code offset(array) + k·slotBytes} for
     * element {@code k}.
     *
     * @throws IndexOutOfBoundsException if there is no such array
     */
    public long offset(int array) {
        return runSlot[array] * slotBytes[array];
    }

    /** {@return the slot of the current run's first element in array {@code array}} */
    public long slot(int array) {
        return runSlot[array];
    }

    /**
     * {@return coordinate {@code dim} of the logical index of the current run's first element} With
     * {@link Padding#VISIT}, a coordinate at or past the dimension's size marks padding.
     */
    public long index(int dim) {
        return runIndex[dim];
    }

    /**
     * Writes the logical index of element {@code k} of the current run into {@code out}.
     *
     * @throws IndexOutOfBoundsException if {@code k} is not in {@code [0, length())} or {@code out}
     *                                   is shorter than the rank
     */
    public void index(long k, long[] out) {
        Objects.checkIndex(k, runLength);
        Objects.checkFromIndexSize(0, rank, out.length);
        System.arraycopy(runDigit, 0, scratch, 0, n);
        long carry = k;
        for (int j = n - 1; j >= 0 && carry != 0; j--) {
            long s = scratch[j] + carry;
            scratch[j] = s % axCount[j];
            carry = s / axCount[j];
        }
        Arrays.fill(out, 0, rank, 0);
        for (int j = 0; j < n; j++) {
            out[axDim[j]] += scratch[j] * axDiv[j];
        }
    }

    // ---- the odometer ----------------------------------------------------------------------------

    /** In unit mode: the count of axis {@code group} that stays inside the bound, from digit 0. */
    private long validCount() {
        int d = axDim[group];
        long v = axDiv[group];
        long start = e[d] - digit[group] * v;
        return Math.min(axCount[group], Math.ceilDiv(ext[d] - start, v));
    }

    private boolean full(int k) {
        long span = axDiv[k] * axCount[k];
        return ext[axDim[k]] % span == 0;
    }

    private void resetFrom(int k) {
        for (int j = k; j < n; j++) {
            long dj = digit[j];
            if (dj != 0) {
                e[axDim[j]] -= dj * axDiv[j];
                for (int x = 0; x < slot.length; x++) {
                    if (weight[x] != null) {
                        slot[x] -= dj * weight[x][j];
                    }
                }
                digit[j] = 0;
            }
        }
    }

    /** Adds one to axis {@code k} with carry; false when the walk has passed its end. */
    private boolean increment(int k) {
        while (k >= 0) {
            if (digit[k] + 1 < axCount[k]) {
                digit[k]++;
                e[axDim[k]] += axDiv[k];
                for (int x = 0; x < slot.length; x++) {
                    if (weight[x] != null) {
                        slot[x] += weight[x][k];
                    }
                }
                return true;
            }
            resetFrom(k);
            k--;
        }
        return false;
    }

    /** Moves past positions outside the bound; true if it moved (sets {@code exhausted} at the end). */
    private boolean skipPadding() {
        boolean moved = false;
        while (true) {
            int bad = -1;
            for (int d = 0; d < rank; d++) {
                if (e[d] >= ext[d]) {
                    bad = d;
                    break;
                }
            }
            if (bad < 0) {
                return moved;
            }
            // every position sharing the digits down to the innermost non-zero digit of dimension bad is out too
            int k = n - 1;
            while (k >= 0 && (axDim[k] != bad || digit[k] == 0)) {
                k--;
            }
            moved = true;
            if (k < 0) {
                exhausted = true;
                return true;
            }
            resetFrom(k);
            if (!increment(k - 1)) {
                exhausted = true;
                return true;
            }
        }
    }

    private void addressSlots() {
        for (int x = 0; x < slot.length; x++) {
            if (weight[x] == null) {
                slot[x] = arrays[x].slot(e);
            }
        }
    }

    private boolean adjacent(long len) {
        for (int x = 0; x < slot.length; x++) {
            if (slot[x] != runSlot[x] + len) {
                return false;
            }
        }
        return true;
    }

    // ---- construction helpers ------------------------------------------------------------------

    private static void checkPermutation(int[] order, int rank) {
        boolean[] seen = new boolean[rank];
        boolean ok = order.length == rank;
        for (int k = 0; ok && k < rank; k++) {
            ok = order[k] >= 0 && order[k] < rank && !seen[order[k]];
            if (ok) {
                seen[order[k]] = true;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("order: " + Arrays.toString(order)
                    + " is not a permutation of the " + rank + " dimensions");
        }
    }

    /** {@return each dimension's position in the array's memory order, 0 = most major} */
    private static int[] physicalOrder(Array a) {
        int rank = a.dims.length;
        int[] pos = new int[rank];
        int[] m2m = a.shape.layout().minorToMajor();
        for (int p = 0; p < rank; p++) {
            pos[m2m[rank - 1 - p]] = p;
        }
        return pos;
    }

    private static long[] paddedBox(Array[] arrays) {
        long[] box = null;
        for (Array a : arrays) {
            long[] b = a.dims.clone();
            if (!a.strided) {
                for (int d = 0; d < b.length; d++) {
                    long t = a.shape.tileExtent(d);
                    b[d] = Math.multiplyExact(Math.ceilDiv(b[d], t), t);
                }
            }
            if (box != null && !Arrays.equals(box, b)) {
                throw new IllegalArgumentException("runs: visiting padding needs the same padded box, but "
                        + arrays[0].shape + " pads to " + Arrays.toString(box) + " and " + a.shape + " to "
                        + Arrays.toString(b));
            }
            box = b;
        }
        return box;
    }

    /**
     * {@return per dimension, the array's digits as {divisor, modulus, weight} rows (finest first,
     * a divisibility chain, the top one unbounded), or null when it has none and is addressed element by element}
     */
    private static long[][][] chains(Array a, long[] ext) {
        int rank = a.dims.length;
        long[][][] out = new long[rank][][];
        if (a.strided) {
            for (int d = 0; d < rank; d++) {
                out[d] = new long[][] {{1, SlotFormula.UNBOUNDED, a.strides[d]}};
            }
            return out;
        }
        // the formula of the shape whose dimensions are the walk's box: core writes a formula that is
        // exact for in-bounds indices only, so padding visits take the padded shape's (same buffer)
        ArrayShape s = Arrays.equals(ext, a.dims) ? a.shape
                : ArrayShape.of(a.shape.elementType(), ext).withLayout(a.shape.layout());
        SlotFormula f = SlotFormula.of(s).orElse(null);
        if (f == null) {
            return null;
        }
        for (int d = 0; d < rank; d++) {
            final int dim = d;
            long[][] t = f.terms().stream().filter(x -> x.dimension() == dim)
                    .sorted((p, q) -> Long.compare(p.divisor(), q.divisor()))
                    .map(x -> new long[] {x.divisor(), x.modulus(), x.weight()}).toArray(long[][]::new);
            if (t.length == 0) {
                t = new long[][] {{1, SlotFormula.UNBOUNDED, 0}};
            }
            if (t[0][0] != 1) {
                return null;
            }
            for (int k = 0; k < t.length; k++) {
                boolean top = k == t.length - 1;
                if (!top && (t[k][1] == SlotFormula.UNBOUNDED || t[k + 1][0] != t[k][0] * t[k][1])) {
                    return null;   // a gap or an overlap between digits
                }
                if (top && t[k][1] != SlotFormula.UNBOUNDED) {
                    if (Math.ceilDiv(ext[d], t[k][0]) > t[k][1]) {
                        return null;   // the top digit wraps inside the walk
                    }
                    t[k][1] = SlotFormula.UNBOUNDED;
                }
            }
            out[d] = t;
        }
        return out;
    }

    /** {@return the union of the arrays' digit divisors of dimension {@code d}, ascending, or null if they do not nest} */
    private static long[] divisors(long[][][][] chains, int d) {
        long[] divs = {1};
        for (long[][][] c : chains) {
            if (c == null) {
                continue;
            }
            long[] more = new long[divs.length + c[d].length];
            System.arraycopy(divs, 0, more, 0, divs.length);
            for (int k = 0; k < c[d].length; k++) {
                more[divs.length + k] = c[d][k][0];
            }
            divs = Arrays.stream(more).sorted().distinct().toArray();
        }
        for (int k = 1; k < divs.length; k++) {
            if (divs[k] % divs[k - 1] != 0) {
                return null;
            }
        }
        return divs;
    }

    /** {@return the slots per unit of the refined digit of divisor {@code div} in a chain} */
    private static long weightOf(long[][] chain, long div) {
        int j = 0;
        while (j + 1 < chain.length && chain[j + 1][0] <= div) {
            j++;
        }
        return chain[j][2] * (div / chain[j][0]);
    }
}
