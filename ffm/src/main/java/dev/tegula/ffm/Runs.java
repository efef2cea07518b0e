package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.DigitSpace;
import dev.tegula.core.SlotFormula;
import dev.tegula.core.StridedNest;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A cursor that walks any number of arrays of the same dimensions side by side, handing a kernel
 * one inner loop at a time: the interface for kernels written once over plain strided memory and
 * run on every layout (NumPy's {@code nditer} with {@code external_loop}).
 *
 * {@snippet :
 * Runs r = Runs.of(x, y);                        // memory order of x, padding skipped, unit-stride runs
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
 * <h2>The walk and its inner loops</h2>
 * The cursor visits every element once, in a walk order: a logical order (row-major over a
 * permutation of the dimensions), or by default the memory order of the first array (its slots in
 * increasing order: for a tiled layout, tile by tile). It hands the walk out as inner loops, each a
 * stretch of elements consecutive in the walk: element {@code k} of the current one lies at byte
 * {@code offset(x) + k·stride(x)} of {@code segment(x)} in every operand {@code x} (slot
 * {@code slot(x) + k·slotStride(x)}), and is the {@code k}-th element after the first in the walk
 * order ({@link #index(long, long[])} gives its logical index). Each operand's stride is fixed for
 * the whole walk. What an inner loop is, the caller chooses ({@link InnerLoop}):
 * <ul>
 *   <li>{@linkplain InnerLoop#RUNS runs} (the default): stretches of consecutive slots in every
 *       operand ({@code slotStride(x)} is 1). Runs are maximal: the walk is cut only where some
 *       operand's slots stop being consecutive, or where padding is skipped. Operands of one layout
 *       are contiguous at the same places, so a dense row-major, column-major or tiled array without
 *       padding is a single run in memory order; operands of different layouts give short runs
 *       (one element for row-major against column-major).</li>
 *   <li>{@linkplain InnerLoop#strided(long) strided blocks} of at most a caller-chosen length (a
 *       buffer size): each operand steps by its own stride, so operands that disagree still give
 *       long inner loops (row-major against column-major: blocks of a row, stride one element in the
 *       first operand and a column's length in the second). A block ends where the walk leaves the
 *       innermost loop that every operand walks with one stride, where padding is skipped, or at the
 *       chosen length. A kernel that wants unit stride copies a block of a strided operand into a
 *       buffer of that length, runs, and copies back.</li>
 * </ul>
 * The loops come from core's index math: the operands' {@link DigitSpace} (the digits that every
 * operand is strided over) and its normalised {@link StridedNest} (contiguous loops merged).
 *
 * <h2>Padding</h2>
 * With {@link Padding#SKIP} the walk visits the elements only. With {@link Padding#VISIT} it visits
 * the whole padded box of a tiled layout (each dimension rounded up to its tile extent,
 * {@link ArrayShape#tileExtent(int)}): inner loops then go through the padding slots of partial
 * tiles, and the indices of those slots are at or past the dimension's size. The operands must have
 * the same padded box, and the box must cover every slot of each tiled buffer (no tail alignment {@code L(n)}).
 *
 * <h2>Layouts</h2>
 * Strided arrays and views (any strides, offsets, legacy padded dimensions) and tiled layouts whose
 * index math core writes as a {@link SlotFormula} ({@code T(8,128)}, {@code T(8,128)(2,1)}, tiles that
 * divide evenly) are walked by strides: the cost is per inner loop, not per element. Other tiled
 * layouts, and an operand whose digits do not nest with the earlier operands', are addressed element
 * by element through their address calculator, with slot stride 1: the walk's "memory order" is then
 * the layout's dimension order, major to minor, where it is the first operand's ({@link Padding#VISIT}
 * is refused). Packed sub-byte layouts ({@code E(1)}, {@code E(2)}, {@code E(4)}: several elements per
 * byte) are refused: an inner loop of them does not start on a byte; relayout them to an unpacked
 * layout first ({@code Relayout.to} in module vector).
 *
 * <h2>Cost, threads, lifetime</h2>
 * Creating a cursor allocates a few small arrays; {@link #next()} and the getters allocate nothing.
 * A cursor is mutable and for one thread; {@link #reset()} starts the walk again. It reads no element
 * and holds the arrays' segments: their arena's rules apply to what the caller does with them.
 * Creating a cursor, and {@link #reset()}, refuse an array whose arena is closed
 * ({@link IllegalStateException}, "Already closed…", as every Tegula method says it) or whose
 * confined arena belongs to another thread ({@link WrongThreadException}).
 */
public final class Runs {
    /** Whether a walk visits the padding slots of partial tiles. */
    public enum Padding {
        /** Visit the elements only. */
        SKIP,
        /** Visit the padded box of tiled layouts: the elements and the padding slots inside tiles. */
        VISIT
    }

    /**
     * What a cursor hands out as one inner loop: unit-stride runs of any length, or strided blocks of
     * at most {@code maxLength} elements.
     *
     * @param strided   true: each operand steps by its own stride; false: by one slot in every operand
     * @param maxLength the most elements in one inner loop, at least 1
     */
    public record InnerLoop(boolean strided, long maxLength) {
        /** Maximal runs of consecutive slots in every operand, of any length. */
        public static final InnerLoop RUNS = new InnerLoop(false, Long.MAX_VALUE);

        /** @throws IllegalArgumentException if {@code maxLength} is below 1 */
        public InnerLoop {
            if (maxLength < 1) {
                throw new IllegalArgumentException("maxLength: " + maxLength + ", but an inner loop holds at least 1 element");
            }
        }

        /**
         * {@return strided blocks of at most {@code maxLength} elements: the buffered inner loop}
         *
         * @throws IllegalArgumentException if {@code maxLength} is below 1
         */
        public static InnerLoop strided(long maxLength) {
            return new InnerLoop(true, maxLength);
        }
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
    /** Per operand: slots per unit of each axis, or null when the operand is addressed element by element. */
    private final long[][] weight;
    private final long[] base;
    /** Per operand: slots between consecutive elements of an inner loop. */
    private final long[] innerStride;
    private final long maxLength;
    /** First axis of the innermost loop of the nest (axes {@code group..n-1} are one loop), or {@code n}: one element a piece. */
    private final int group;
    /** Product of the counts of axes {@code group+1..n-1}. */
    private final long innerProduct;
    private final boolean empty;

    // state: the current position (axes from group on at 0) and the place in the current piece
    private final long[] digit;
    private final long[] e;
    private final long[] slot;
    private long piece;
    private long pieceFull;
    private long at;
    private boolean exhausted;
    // the current inner loop
    private long runLength;
    private long runAt;
    private final long[] runSlot;
    private final long[] runIndex;
    private final long[] runDigit;
    private final long[] scratch;

    private Runs(Array[] arrays, int[] order, Padding padding, InnerLoop inner, boolean packedAllowed) {
        Objects.requireNonNull(padding, "padding");
        Objects.requireNonNull(inner, "inner");
        if (arrays.length == 0) {
            throw new IllegalArgumentException("operands: none; runs walk at least one array");
        }
        this.arrays = arrays;
        Array a0 = Objects.requireNonNull(arrays[0], "operand 0");
        rank = a0.dims.length;
        int m = arrays.length;
        segments = new MemorySegment[m];
        slotBytes = new long[m];
        base = new long[m];
        for (int x = 0; x < m; x++) {
            Array a = Objects.requireNonNull(arrays[x], "operand " + x);
            if (!a.isHostAccessible()) {
                throw Array.notHostAccessible(a.shape, a.provider);
            }
            ThreadAccess.requireUsable(a.segment);
            if (a.slotBytes == 0 && !packedAllowed) {
                throw new IllegalArgumentException("runs: " + a.shape + " packs " + (8 / a.slotBits)
                        + " elements in a byte (E(" + a.slotBits + ")), so an inner loop does not start on a byte;"
                        + " relayout it to an unpacked layout first (Relayout.to), or use the element accessors");
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
        maxLength = inner.maxLength();
        boolean visit = padding == Padding.VISIT;
        ext = visit ? paddedBox(arrays) : a0.dims.clone();
        long boxCount = 1;
        boolean zero = false;
        for (long size : ext) {
            zero |= size == 0;
            boxCount = zero ? 0 : Math.multiplyExact(boxCount, size);
        }
        empty = zero;

        // each operand's formula over the walk's box, or null (addressed)
        SlotFormula[] formulas = new SlotFormula[m];
        for (int x = 0; x < m; x++) {
            formulas[x] = formula(arrays[x], ext);
        }
        if (visit) {
            for (int x = 0; x < m; x++) {
                Array a = arrays[x];
                if (formulas[x] == null) {
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
        // the common digit space of the operands whose digits nest with the earlier ones'; the others are addressed
        List<SlotFormula> inSpace = new ArrayList<>();
        int[] spaceIndex = new int[m];
        DigitSpace space = DigitSpace.of(ext, List.of()).orElseThrow();
        for (int x = 0; x < m; x++) {
            spaceIndex[x] = -1;
            if (formulas[x] == null) {
                continue;
            }
            inSpace.add(formulas[x]);
            DigitSpace s = DigitSpace.of(ext, inSpace).orElse(null);
            if (s == null) {
                inSpace.remove(inSpace.size() - 1);
            } else {
                space = s;
                spaceIndex[x] = inSpace.size() - 1;
            }
        }
        // walk order of the digits
        int[] physical = physicalOrder(a0);
        int[] pos = new int[rank];
        if (order != null) {
            for (int k = 0; k < rank; k++) {
                pos[order[k]] = k;
            }
        } else {
            System.arraycopy(physical, 0, pos, 0, rank);
        }
        DigitSpace sp = space;
        boolean byMemory = order == null && spaceIndex[0] >= 0;
        Integer[] idx = new Integer[sp.digitCount()];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = k;
        }
        Arrays.sort(idx, (p, q) -> {
            if (byMemory) {
                long wp = sp.weight(0, p), wq = sp.weight(0, q);
                if ((wp == 0) != (wq == 0)) {
                    return wp == 0 ? -1 : 1;   // broadcast (stride 0) axes outermost
                }
                if (wp != wq) {
                    return Long.compare(wq, wp);
                }
            }
            int c = Integer.compare(pos[sp.dimension(p)], pos[sp.dimension(q)]);
            return c != 0 ? c : Long.compare(sp.divisor(q), sp.divisor(p));
        });
        List<Integer> kept = new ArrayList<>();
        for (Integer k : idx) {
            if (sp.range(k) > 1) {
                kept.add(k);
            }
        }
        n = kept.size();
        axDim = new int[n];
        axDiv = new long[n];
        axCount = new long[n];
        weight = new long[m][];
        for (int x = 0; x < m; x++) {
            weight[x] = spaceIndex[x] < 0 ? null : new long[n];
        }
        boolean addressed = false;
        for (int x = 0; x < m; x++) {
            addressed |= weight[x] == null;
        }
        for (int j = 0; j < n; j++) {
            int k = kept.get(j);
            axDim[j] = sp.dimension(k);
            axDiv[j] = sp.divisor(k);
            axCount[j] = sp.range(k);
            for (int x = 0; x < m; x++) {
                if (weight[x] != null) {
                    weight[x][j] = sp.weight(spaceIndex[x], k);
                }
            }
        }
        // the innermost loop of the operands' normalised nest: the axes that every operand walks with one stride
        innerStride = new long[m];
        Arrays.fill(innerStride, 1);
        int g = n;
        if (n > 0 && !addressed) {
            boolean[] apart = new boolean[n];
            for (int j = 0; j < n; j++) {
                apart[j] = !full(j);   // a bounded axis never merges into the one outside it
            }
            StridedNest nest = StridedNest.of(axCount, weight, new long[m], apart);
            int last = nest.depth() - 1;
            boolean unit = true;
            for (int x = 0; x < m; x++) {
                unit &= nest.stride(x, last) == 1;
            }
            if (inner.strided() || unit) {
                g = nest.firstInput(last);
                for (int x = 0; x < m; x++) {
                    innerStride[x] = nest.stride(x, last);
                }
            }
        } else if (n > 0 && inner.strided()) {
            for (int x = 0; x < m; x++) {
                innerStride[x] = weight[x] == null ? 1 : weight[x][n - 1];
            }
        }
        group = g;
        long ip = 1;
        for (int j = g + 1; j < n; j++) {
            ip *= axCount[j];
        }
        innerProduct = ip;

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
     * @throws IllegalStateException    if the memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if its confined arena belongs to another thread
     */
    public static Runs of(Array array) {
        return new Runs(new Array[] {array}, null, Padding.SKIP, InnerLoop.RUNS, false);
    }

    /**
     * {@return a cursor over the runs of {@code first} and {@code second} side by side, in the memory
     * order of {@code first}, padding skipped} A run ends where either array's slots stop being
     * consecutive. The element types may differ.
     *
     * @throws IllegalArgumentException if the dimensions differ or a layout is packed
     * @throws IllegalStateException    if a memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if a confined arena belongs to another thread
     */
    public static Runs of(Array first, Array second) {
        return new Runs(new Array[] {first, Objects.requireNonNull(second, "second")}, null, Padding.SKIP,
                InnerLoop.RUNS, false);
    }

    /**
     * {@return a cursor over the runs of any number of arrays side by side, in the memory order of
     * the first, padding skipped} A run ends where any array's slots stop being consecutive.
     *
     * @throws IllegalArgumentException if there is no array, the dimensions differ or a layout is packed
     * @throws IllegalStateException    if a memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if a confined arena belongs to another thread
     */
    public static Runs of(Array... operands) {
        return new Runs(operands.clone(), null, Padding.SKIP, InnerLoop.RUNS, false);
    }

    /**
     * {@return a cursor over strided blocks of at most {@code maxLength} elements of any number of
     * arrays side by side, in the memory order of the first, padding skipped: the buffered inner loop}
     * ({@link InnerLoop#strided(long)})
     *
     * @throws IllegalArgumentException if {@code maxLength} is below 1, there is no array, the
     *                                  dimensions differ or a layout is packed
     * @throws IllegalStateException    if a memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if a confined arena belongs to another thread
     */
    public static Runs blocks(long maxLength, Array... operands) {
        return new Runs(operands.clone(), null, Padding.SKIP, InnerLoop.strided(maxLength), false);
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
     * @throws IllegalStateException    if a memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if a confined arena belongs to another thread
     */
    public static Runs of(Array first, Array second, int[] order, Padding padding) {
        Array[] a = second == null ? new Array[] {first} : new Array[] {first, second};
        return new Runs(a, order == null ? null : order.clone(), padding, InnerLoop.RUNS, false);
    }

    /**
     * {@return a cursor over any number of arrays side by side, in a chosen walk order, with a chosen inner loop}
     *
     * @param operands the arrays, of the same dimensions (the first sets the memory order)
     * @param order    the logical walk order: a permutation of the dimensions, outermost first, or null
     *                 for the memory order of the first array
     * @param padding  whether the walk visits the padding slots inside tiles
     * @param inner    unit-stride runs or strided blocks of at most a length
     * @throws IllegalArgumentException as {@link #of(Array, Array, int[], Padding)}, and if there is no array
     * @throws IllegalStateException    if a memory is not host-accessible or its arena is closed
     * @throws WrongThreadException     if a confined arena belongs to another thread
     */
    public static Runs of(Array[] operands, int[] order, Padding padding, InnerLoop inner) {
        return new Runs(operands.clone(), order == null ? null : order.clone(), padding, inner, false);
    }

    /**
     * The library's own walks: strided blocks by slot, packed layouts included ({@link #offset} and
     * {@link #stride} mean nothing for a packed operand; {@link #slot} and {@link #slotStride} do).
     */
    static Runs bySlot(Array[] operands, int[] order) {
        return new Runs(operands, order, Padding.SKIP, InnerLoop.strided(Long.MAX_VALUE), true);
    }

    // ---- the walk ------------------------------------------------------------------------------

    /**
     * Starts the walk again from its first inner loop.
     *
     * @throws IllegalStateException if an array's arena has been closed since
     * @throws WrongThreadException  if a confined arena belongs to another thread
     */
    public void reset() {
        for (MemorySegment s : segments) {
            ThreadAccess.requireUsable(s);
        }
        Arrays.fill(digit, 0);
        Arrays.fill(e, 0);
        System.arraycopy(base, 0, slot, 0, base.length);
        runLength = 0;
        at = 0;
        exhausted = empty;
        if (!exhausted) {
            skipPadding();
            if (!exhausted) {
                addressSlots();
                measurePiece();
            }
        }
    }

    /**
     * Moves to the next inner loop.
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
        runAt = at;
        for (int x = 0; x < slot.length; x++) {
            runSlot[x] = slot[x] + at * innerStride[x];
        }
        long len = 0;
        while (true) {
            long take = Math.min(piece - at, maxLength - len);
            len += take;
            at += take;
            if (at < piece) {
                break;   // the inner loop is as long as the caller allows
            }
            boolean skipped = piece < pieceFull;
            exhausted = !increment(group - 1);
            if (exhausted) {
                break;
            }
            skipped |= skipPadding();
            if (exhausted) {
                break;
            }
            addressSlots();
            measurePiece();
            at = 0;
            if (skipped || len == maxLength || !continues(len)) {
                break;
            }
        }
        runLength = len;
        if (runAt != 0) {
            carryInto(runDigit, runAt, runIndex);
        }
        return true;
    }

    /** {@return how many arrays this cursor walks} */
    public int operandCount() {
        return arrays.length;
    }

    /** {@return the number of elements in the current inner loop} 0 before the first {@link #next()} and after the last. */
    public long length() {
        return runLength;
    }

    /** {@return the segment of the first array} */
    public MemorySegment segment() {
        return segments[0];
    }

    /** {@return the byte offset of the current inner loop in {@link #segment()}} */
    public long offset() {
        return runSlot[0] * slotBytes[0];
    }

    /**
     * {@return the segment of array {@code operand}} (0: the first, 1: the second, ...)
     *
     * @throws IndexOutOfBoundsException if there is no such array
     */
    public MemorySegment segment(int operand) {
        return segments[operand];
    }

    /**
     * {@return the byte offset of the current inner loop's first element in {@link #segment(int) segment(operand)}}
     * Element {@code k} follows at {@code offset(operand) + k·stride(operand)}.
     *
     * @throws IndexOutOfBoundsException if there is no such array
     */
    public long offset(int operand) {
        return runSlot[operand] * slotBytes[operand];
    }

    /**
     * {@return the bytes between consecutive elements of an inner loop in array {@code operand}} The
     * slot's byte size for runs; any value, 0 and negative included, for strided blocks. Fixed for the walk.
     *
     * @throws IndexOutOfBoundsException if there is no such array
     */
    public long stride(int operand) {
        return innerStride[operand] * slotBytes[operand];
    }

    /** {@return the slots (elements) between consecutive elements of an inner loop in array {@code operand}} */
    public long slotStride(int operand) {
        return innerStride[operand];
    }

    /** {@return the slot of the current inner loop's first element in array {@code operand}} */
    public long slot(int operand) {
        return runSlot[operand];
    }

    /**
     * {@return coordinate {@code dim} of the logical index of the current inner loop's first element}
     * With {@link Padding#VISIT}, a coordinate at or past the dimension's size marks padding.
     */
    public long index(int dim) {
        return runIndex[dim];
    }

    /**
     * Writes the logical index of element {@code k} of the current inner loop into {@code out}.
     *
     * @throws IndexOutOfBoundsException if {@code k} is not in {@code [0, length())} or {@code out}
     *                                   is shorter than the rank
     */
    public void index(long k, long[] out) {
        Objects.checkIndex(k, runLength);
        Objects.checkFromIndexSize(0, rank, out.length);
        carryInto(runDigit, runAt + k, out);
    }

    /** Adds {@code steps} to {@code digits} (axes from {@code group} on at 0) with carry and writes the index reached into {@code out}. */
    private void carryInto(long[] digits, long steps, long[] out) {
        System.arraycopy(digits, 0, scratch, 0, n);
        long carry = steps;
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

    /** Sets the current piece: the elements of the innermost loop (axes {@code group..n-1}) inside the bound. */
    private void measurePiece() {
        if (group == n) {
            piece = 1;
            pieceFull = 1;
            return;
        }
        int d = axDim[group];
        long v = axDiv[group];
        long start = e[d] - digit[group] * v;
        long valid = Math.min(axCount[group], Math.ceilDiv(ext[d] - start, v));
        piece = valid * innerProduct;
        pieceFull = axCount[group] * innerProduct;
    }

    /** {@return true if axis {@code k} runs whole whatever the other digits: its span divides the bound} */
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

    /** {@return true if the current position is the next element, at its stride, of the inner loop so far in every operand} */
    private boolean continues(long len) {
        for (int x = 0; x < slot.length; x++) {
            if (slot[x] != runSlot[x] + len * innerStride[x]) {
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
     * {@return the array's slot formula over the walk's box, or null when core writes none and it is
     * addressed element by element} Core's formula is exact for in-bounds indices only, so padding
     * visits take the padded shape's (the same buffer).
     */
    private static SlotFormula formula(Array a, long[] ext) {
        if (a.strided) {
            return SlotFormula.strided(a.strides);
        }
        ArrayShape s = Arrays.equals(ext, a.dims) ? a.shape
                : ArrayShape.of(a.shape.elementType(), ext).withLayout(a.shape.layout());
        return SlotFormula.of(s).orElse(null);
    }
}
