package dev.tegula.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The index math of one valid array shape, precomputed: XLA's general nested-tiling algorithm
 * ({@code LayoutUtil::LinearIndexForNestedTiling}, spec section 7) written as a list of steps on a
 * vector of (size, index) pairs in physical major-to-minor order, plus the sizes of section 8.
 * Immutable and thread-safe; the general methods allocate scratch arrays (the fast paths live in
 * {@link Addressing}).
 */
final class IndexPlan {
    /** One transformation of the physical (sizes, index) vector. */
    private sealed interface Step permits Prepend, Merge, Split {
    }

    /** Prepend {@code count} dimensions of size 1 (a tile longer than the current rank). */
    private record Prepend(int count) implements Step {
    }

    /** Merge the dimensions {@code [from, to)} of the current vector into one (a run of {@code *}). */
    private record Merge(int from, int to) implements Step {
    }

    /** Tile the last {@code t.length} dimensions. */
    private record Split(long[] t) implements Step {
    }

    final int rank;
    final long[] dims;
    final int[] minorToMajor;
    /** Physical sizes before any tile (padded sizes for the legacy layout), major to minor. */
    final long[] physicalSizes;
    final boolean legacyPadded;
    final boolean tiled;
    private final Step[] steps;
    /** The size vector in front of each step. */
    private final long[][] sizesBefore;
    /** Final physical sizes after the last tile. */
    final long[] finalSizes;
    /** Row-major strides over {@link #finalSizes}. */
    final long[] finalStrides;
    /** For untiled layouts: the slot stride of each logical dimension. */
    final long[] logicalStrides;
    final long elementCount;
    final long byteSize;
    /** Product of the final sizes (no tail alignment). */
    final long paddedCount;
    final long slotCount;
    final long bufferSize;
    final long slotBits;
    /** The layout's digit formula, built on first use ({@link #slotFormula()}); null until then. */
    private volatile Optional<SlotFormula> formula;

    private IndexPlan(ArrayShape shape) {
        Layout layout = shape.layout();
        dims = shape.dimsUnsafe();
        rank = dims.length;
        minorToMajor = layout.minorToMajor;
        for (int d = 0; d < rank; d++) {
            if (shape.isUnboundedDimension(d)) {
                throw new IllegalArgumentException("dimensions[" + d + "]: unbounded dynamic size '?' has no "
                        + "buffer size or index math; give it a bound (<=N) in " + shape);
            }
        }
        legacyPadded = layout.paddedDimensions != null;
        tiled = layout.tiles.length > 0;
        slotBits = shape.slotBits();

        long n = 1;
        for (long d : dims) {
            n = Math.multiplyExact(n, d);
        }
        elementCount = n;
        byteSize = bytesFor(n, layout.elementSizeInBits, shape.elementType());

        physicalSizes = new long[rank];
        for (int p = 0; p < rank; p++) {
            int d = layout.major(p);
            physicalSizes[p] = legacyPadded ? layout.paddedDimensions[d] : dims[d];
        }

        List<Step> stepList = new ArrayList<>();
        List<long[]> before = new ArrayList<>();
        long[] sizes = physicalSizes.clone();
        for (Tile tile : layout.tiles) {
            long[] t = tile.dimsUnsafe();
            if (t.length > sizes.length) {
                int k = t.length - sizes.length;
                before.add(sizes);
                stepList.add(new Prepend(k));
                long[] s2 = new long[t.length];
                java.util.Arrays.fill(s2, 0, k, 1);
                System.arraycopy(sizes, 0, s2, k, sizes.length);
                sizes = s2;
            }
            int start = sizes.length - t.length;
            // merge runs of '*' (right to left keeps earlier positions valid)
            List<Long> kept = new ArrayList<>();
            int i = t.length - 1;
            while (i >= 0) {
                if (t[i] == Tile.COMBINE) {
                    throw new IllegalStateException("validated tile ends with '*'");
                }
                int j = i;
                while (j > 0 && t[j - 1] == Tile.COMBINE) {
                    j--;
                }
                if (j < i) {
                    before.add(sizes);
                    stepList.add(new Merge(start + j, start + i + 1));
                    long merged = 1;
                    for (int q = start + j; q <= start + i; q++) {
                        merged = Math.multiplyExact(merged, sizes[q]);
                    }
                    long[] s2 = new long[sizes.length - (i - j)];
                    System.arraycopy(sizes, 0, s2, 0, start + j);
                    s2[start + j] = merged;
                    System.arraycopy(sizes, start + i + 1, s2, start + j + 1, sizes.length - start - i - 1);
                    sizes = s2;
                }
                kept.add(0, t[i]);
                i = j - 1;
            }
            long[] tt = new long[kept.size()];
            for (int q = 0; q < tt.length; q++) {
                tt[q] = kept.get(q);
            }
            before.add(sizes);
            stepList.add(new Split(tt));
            int s = sizes.length - tt.length;
            long[] s2 = new long[s + 2 * tt.length];
            System.arraycopy(sizes, 0, s2, 0, s);
            for (int q = 0; q < tt.length; q++) {
                s2[s + q] = Math.ceilDiv(sizes[s + q], tt[q]);
                s2[s + tt.length + q] = tt[q];
            }
            sizes = s2;
        }
        steps = stepList.toArray(new Step[0]);
        sizesBefore = before.toArray(new long[0][]);
        finalSizes = sizes;
        finalStrides = new long[sizes.length];
        long stride = 1;
        for (int q = sizes.length - 1; q >= 0; q--) {
            finalStrides[q] = stride;
            stride = Math.multiplyExact(stride, sizes[q]);
        }
        paddedCount = stride;
        long slots = stride;
        if (tiled && layout.tailPaddingAlignment != 1) {
            slots = Math.multiplyExact(Math.ceilDiv(slots, layout.tailPaddingAlignment), layout.tailPaddingAlignment);
        }
        slotCount = slots;
        bufferSize = bytesFor(slots, layout.elementSizeInBits, shape.elementType());

        if (!tiled) {
            logicalStrides = new long[rank];
            for (int p = 0; p < rank; p++) {
                logicalStrides[layout.major(p)] = finalStrides[p];
            }
        } else {
            logicalStrides = null;
        }
    }

    /** {@return the plan of a STRICT-valid shape} */
    static IndexPlan of(ArrayShape shape) {
        try {
            return new IndexPlan(shape);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("dimensions: the padded buffer of " + shape + " overflows int64", e);
        }
    }

    /** Bytes of {@code n} elements stored in {@code bits} each (0 = the type's byte width). */
    static long bytesFor(long n, long bits, ElementType type) {
        if (bits != 0) {
            return Math.ceilDiv(Math.multiplyExact(n, bits), 8);
        }
        return Math.multiplyExact(n, (long) type.byteWidth());
    }

    void checkIndex(long[] index, ArrayShape shape) {
        if (index.length != rank) {
            throw dev.tegula.core.internal.IndexErrors.rankMismatch(index, shape);
        }
        for (int d = 0; d < rank; d++) {
            if (index[d] < 0 || index[d] >= dims[d]) {
                throw Addressing.outOfBounds(index, shape);
            }
        }
    }

    /** The slot of an in-bounds index (general algorithm). */
    long linearIndex(long[] index) {
        if (!tiled) {
            long s = 0;
            for (int d = 0; d < rank; d++) {
                s += index[d] * logicalStrides[d];
            }
            return s;
        }
        long[] idx = new long[rank];
        for (int p = 0; p < rank; p++) {
            idx[p] = index[minorToMajor[rank - 1 - p]];
        }
        for (int k = 0; k < steps.length; k++) {
            idx = forward(steps[k], sizesBefore[k], idx);
        }
        long s = 0;
        for (int q = 0; q < idx.length; q++) {
            s += idx[q] * finalStrides[q];
        }
        return s;
    }

    private static long[] forward(Step step, long[] sizes, long[] idx) {
        switch (step) {
            case Prepend p -> {
                long[] r = new long[idx.length + p.count()];
                System.arraycopy(idx, 0, r, p.count(), idx.length);
                return r;
            }
            case Merge m -> {
                long v = 0;
                for (int q = m.from(); q < m.to(); q++) {
                    v = v * sizes[q] + idx[q];
                }
                long[] r = new long[idx.length - (m.to() - m.from() - 1)];
                System.arraycopy(idx, 0, r, 0, m.from());
                r[m.from()] = v;
                System.arraycopy(idx, m.to(), r, m.from() + 1, idx.length - m.to());
                return r;
            }
            case Split sp -> {
                long[] t = sp.t();
                int s = idx.length - t.length;
                long[] r = new long[s + 2 * t.length];
                System.arraycopy(idx, 0, r, 0, s);
                for (int q = 0; q < t.length; q++) {
                    r[s + q] = idx[s + q] / t[q];
                    r[s + t.length + q] = idx[s + q] % t[q];
                }
                return r;
            }
        }
    }

    /**
     * Fills {@code out} with the logical index stored at {@code slot} ({@code 0 <= slot < slotCount})
     * and returns true, or returns false if the slot is padding.
     */
    boolean multiIndex(long slot, long[] out) {
        if (slot >= paddedCount) {
            return false;   // tail alignment padding
        }
        long[] idx = new long[finalSizes.length];
        long rest = slot;
        for (int q = 0; q < idx.length; q++) {
            idx[q] = rest / finalStrides[q];
            rest -= idx[q] * finalStrides[q];
        }
        for (int k = steps.length - 1; k >= 0; k--) {
            idx = backward(steps[k], sizesBefore[k], idx);
            if (idx == null) {
                return false;
            }
        }
        for (int p = 0; p < rank; p++) {
            int d = minorToMajor[rank - 1 - p];
            if (idx[p] >= dims[d]) {
                return false;   // tile or legacy padding
            }
            out[d] = idx[p];
        }
        return true;
    }

    private static long[] backward(Step step, long[] sizes, long[] idx) {
        switch (step) {
            case Prepend p -> {
                for (int q = 0; q < p.count(); q++) {
                    if (idx[q] != 0) {
                        return null;
                    }
                }
                long[] r = new long[idx.length - p.count()];
                System.arraycopy(idx, p.count(), r, 0, r.length);
                return r;
            }
            case Merge m -> {
                long v = idx[m.from()];
                long[] r = new long[sizes.length];
                System.arraycopy(idx, 0, r, 0, m.from());
                for (int q = m.to() - 1; q >= m.from(); q--) {
                    r[q] = v % sizes[q];
                    v /= sizes[q];
                }
                if (v != 0) {
                    return null;
                }
                System.arraycopy(idx, m.from() + 1, r, m.to(), idx.length - m.from() - 1);
                return r;
            }
            case Split sp -> {
                long[] t = sp.t();
                int s = sizes.length - t.length;
                long[] r = new long[sizes.length];
                System.arraycopy(idx, 0, r, 0, s);
                for (int q = 0; q < t.length; q++) {
                    long v = idx[s + q] * t[q] + idx[s + t.length + q];
                    if (v >= sizes[s + q]) {
                        return null;
                    }
                    r[s + q] = v;
                }
                return r;
            }
        }
    }

    /** XLA's {@code ShapeUtil::ArraySize} (top tile only, splits counted by their largest part). */
    long xlaArraySize(ArrayShape shape) {
        Layout layout = shape.layout();
        if (!tiled) {
            return legacyPadded ? bufferSize : byteSize;
        }
        if (layout.tiles[0].hasCombinedDimensions()) {
            return bufferSize;   // XLA's size helpers do not implement '*'; the general count is the answer
        }
        long[] t = layout.tiles[0].dimsUnsafe();
        int k = t.length;
        long n = 1;
        for (int j = 0; j < Math.max(k, rank); j++) {
            long size = j < rank ? maxSplitSize(layout, minorToMajor[j]) : 1;
            if (j < k) {
                long tj = t[k - 1 - j];
                size = Math.multiplyExact(Math.ceilDiv(size, tj), tj);
            }
            n = Math.multiplyExact(n, size);
        }
        if (layout.tailPaddingAlignment != 1) {
            n = Math.multiplyExact(Math.ceilDiv(n, layout.tailPaddingAlignment), layout.tailPaddingAlignment);
        }
        return bytesFor(n, layout.elementSizeInBits, shape.elementType());
    }

    private long maxSplitSize(Layout layout, int logicalDim) {
        long size = dims[logicalDim];
        for (SplitConfig sc : layout.splitConfigs) {
            if (sc.dimension() >= 0 && sc.dimension() < rank && layout.major(sc.dimension()) == logicalDim) {
                long prev = 0;
                long max = 0;
                for (long s : sc.indicesUnsafe()) {
                    max = Math.max(max, s - prev);
                    prev = s;
                }
                return Math.max(max, size - prev);
            }
        }
        return size;
    }

    /** {@return the layout's {@link SlotFormula}, built on the first call and kept (empty where a split cuts a digit unevenly)} */
    Optional<SlotFormula> slotFormula() {
        Optional<SlotFormula> f = formula;
        if (f == null) {
            f = Optional.ofNullable(buildSlotFormula());
            formula = f;
        }
        return f;
    }

    /**
     * Replays the steps on symbolic coordinates (mixed-radix sums of digits of logical indices) to
     * produce the layout's {@link SlotFormula}, or null where a split cuts a digit unevenly.
     */
    private SlotFormula buildSlotFormula() {
        if (elementCount == 0) {
            // no index to map: the empty sum is exact, and the digit rules below would divide by the
            // zero range of an empty dimension or multiply strides that no element ever uses
            return SlotFormula.build(List.of(), finalStrides, rank);
        }
        List<SlotFormula.Coord> coords = new ArrayList<>();
        for (int p = 0; p < rank; p++) {
            int d = minorToMajor[rank - 1 - p];
            long size = physicalSizes[p];
            coords.add(new SlotFormula.Coord(List.of(new SlotFormula.CoordDigit(d, 1, SlotFormula.UNBOUNDED, 1, size)), size));
        }
        for (Step step : steps) {
            switch (step) {
                case Prepend p -> {
                    for (int q = 0; q < p.count(); q++) {
                        coords.add(0, new SlotFormula.Coord(List.of(), 1));
                    }
                }
                case Merge m -> {
                    SlotFormula.Coord merged = SlotFormula.merge(coords.subList(m.from(), m.to()));
                    List<SlotFormula.Coord> next = new ArrayList<>(coords.subList(0, m.from()));
                    next.add(merged);
                    next.addAll(coords.subList(m.to(), coords.size()));
                    coords = next;
                }
                case Split sp -> {
                    long[] t = sp.t();
                    int s = coords.size() - t.length;
                    List<SlotFormula.Coord> outer = new ArrayList<>(coords.subList(0, s));
                    List<SlotFormula.Coord> inner = new ArrayList<>();
                    for (int q = 0; q < t.length; q++) {
                        SlotFormula.Coord[] parts = SlotFormula.split(coords.get(s + q), t[q]);
                        if (parts == null) {
                            return null;
                        }
                        outer.add(parts[0]);
                        inner.add(parts[1]);
                    }
                    outer.addAll(inner);
                    coords = outer;
                }
            }
        }
        return SlotFormula.build(coords, finalStrides, rank);
    }

    /** {@link ArrayShape#tileExtent(int)}: the first tile's extent along logical dimension {@code dim}. */
    long tileExtent(Layout layout, int dim) {
        if (!tiled) {
            return 1;
        }
        long[] t = layout.tiles[0].dimsUnsafe();
        int p = 0;   // physical position of dim, 0 = most major
        while (minorToMajor[rank - 1 - p] != dim) {
            p++;
        }
        int first = rank - t.length;   // physical position of the tile's first entry (negative: prepended 1s)
        int i = p - first;
        if (i < 0) {
            return 1;   // more major than the tile reaches
        }
        int end = i;   // the entry that carries the size of dim's group ('*' entries merge into it)
        while (t[end] == Tile.COMBINE) {
            end++;
        }
        long left = t[end];
        for (int k = end; k > i; k--) {
            left = Math.ceilDiv(left, sizeAt(first + k));
        }
        boolean mostMajor = i == 0 || t[i - 1] != Tile.COMBINE;
        return mostMajor ? left : Math.min(left, sizeAt(first + i));
    }

    /** The physical size at position {@code p} before tiling (1 for the positions a long tile prepends, and for 0). */
    private long sizeAt(int p) {
        return p < 0 ? 1 : Math.max(1, physicalSizes[p]);
    }

    /** {@return true if the layout is a single 2-D tile, optionally followed by an (c,1) tile, on rank >= 2} */
    boolean isMinor2Tiling() {
        if (rank < 2 || steps.length < 1 || steps.length > 2) {
            return false;
        }
        if (!(steps[0] instanceof Split s1) || s1.t().length != 2) {
            return false;
        }
        if (steps.length == 2) {
            return steps[1] instanceof Split s2 && s2.t().length == 2 && s2.t()[1] == 1;
        }
        return true;
    }

    /** For {@link #isMinor2Tiling()}: {a, b, c} (c = 1 without a second tile). */
    long[] minor2TileSizes() {
        long[] t1 = ((Split) steps[0]).t();
        long c = steps.length == 2 ? ((Split) steps[1]).t()[0] : 1;
        return new long[] {t1[0], t1[1], c};
    }
}
