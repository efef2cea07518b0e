package dev.tegula.ffm;

import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.SplitConfig;
import dev.tegula.core.Tile;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The views of {@link Array}: slice, select, permute, reshape. No data moves; a view shares its
 * parent's segment (tiled views: a slice of it) and arena.
 *
 * <p>Untiled arrays give strided views (offset and slot strides, like DLPack). Tiled arrays give
 * views only where the tiling survives: permuting dimensions (a new {@code minor_to_major}), and
 * selecting or slicing a dimension when every physically more major dimension has size 1 and
 * either no tile reaches the dimension, or it is the tile-row dimension of a two-dimensional
 * minor tiling ({@code T(a,b)}, optionally {@code (c,1)}) and the slice starts at a multiple of
 * {@code a} and ends at one or at the dimension's end. The view is then a tiled array of the same
 * layout over a slice of the segment ({@code L(n)} is dropped when its tail would not fit).
 */
final class Views {
    private Views() {
    }

    static Array slice(Array a, int dim, long start, long end, long step) {
        checkDim(a, dim);
        long size = a.dims[dim];
        if (start < 0 || start > end || end > size) {
            throw new IndexOutOfBoundsException("slice [" + start + ", " + end + ") of dimension " + dim + " is out of "
                    + "bounds for " + a.shape.toStringWithoutLayout());
        }
        if (step < 1) {
            throw new IllegalArgumentException("step: must be >= 1, got " + step);
        }
        long n = end == start ? 0 : (end - start - 1) / step + 1;
        long[] dims = a.dims.clone();
        dims[dim] = n;
        if (a.strides != null) {
            long[] st = a.strides.clone();
            long offset = a.slotOffset() + (n == 0 ? 0 : start * st[dim]);
            if (n > 1) {
                st[dim] *= step;   // reaches no further than the last element kept: within the array
            }
            return strided(a, dims, offset, st);
        }
        if (step != 1 && n > 1) {
            throw notTileAligned(a, "a slice with step " + step + " of dimension " + dim);
        }
        int p = position(a, dim);
        boolean ok = majorAreUnit(a, p) && (p < untouchedPositions(a.shape.layout(), a.dims.length)
                || tileRowAligned(a, p, start, end, size));
        if (!ok) {
            throw notTileAligned(a, "slice [" + start + ", " + end + ") of dimension " + dim);
        }
        return tiledView(a, dims, a.shape.layout(), start < size ? start : 0, dim);
    }

    static Array select(Array a, int dim, long index) {
        checkDim(a, dim);
        if (index < 0 || index >= a.dims[dim]) {
            throw new IndexOutOfBoundsException("index " + index + " of dimension " + dim + " is out of bounds for "
                    + a.shape.toStringWithoutLayout());
        }
        long[] dims = remove(a.dims, dim);
        if (a.strides != null) {
            return strided(a, dims, a.slotOffset() + index * a.strides[dim], remove(a.strides, dim));
        }
        int p = position(a, dim);
        Layout l = a.shape.layout();
        if (!majorAreUnit(a, p) || p >= untouchedPositions(l, a.dims.length) || !l.splitConfigs().isEmpty()) {
            throw notTileAligned(a, "selecting index " + index + " of dimension " + dim);
        }
        int[] m2m = IntStream.of(l.minorToMajor()).filter(d -> d != dim).map(d -> d > dim ? d - 1 : d).toArray();
        long[] padded = l.hasPaddedDimensions() ? remove(l.paddedDimensions(), dim) : null;
        return tiledView(a, dims, relabel(l, m2m, padded), index, dim);
    }

    static Array permute(Array a, int[] order) {
        int rank = a.dims.length;
        int[] inverse = new int[rank];
        Arrays.fill(inverse, -1);
        if (order.length != rank) {
            throw new IllegalArgumentException("order: " + Arrays.toString(order) + " is not a permutation of the "
                    + rank + " dimensions of " + a.shape);
        }
        for (int k = 0; k < rank; k++) {
            if (order[k] < 0 || order[k] >= rank || inverse[order[k]] >= 0) {
                throw new IllegalArgumentException("order: " + Arrays.toString(order) + " is not a permutation of the "
                        + rank + " dimensions of " + a.shape);
            }
            inverse[order[k]] = k;
        }
        long[] dims = new long[rank];
        boolean[] dynamic = new boolean[rank];
        long[] strides = a.strides == null ? null : new long[rank];
        for (int k = 0; k < rank; k++) {
            dims[k] = a.dims[order[k]];
            dynamic[k] = a.shape.isDynamicDimension(order[k]);
            if (strides != null) {
                strides[k] = a.strides[order[k]];
            }
        }
        if (!a.isDense()) {
            return strided(a, dims, a.slotOffset(), strides);
        }
        Layout l = a.shape.layout();
        int[] m2m = IntStream.of(l.minorToMajor()).map(d -> inverse[d]).toArray();
        long[] padded = null;
        if (l.hasPaddedDimensions()) {
            long[] old = l.paddedDimensions();
            padded = IntStream.of(order).mapToLong(d -> old[d]).toArray();
        }
        ArrayShape shape = ArrayShape.ofDynamic(a.type, dims, dynamic).withLayout(relabel(l, m2m, padded));
        return new Array(a.segment, shape, a.slotOffset(), strides, a.isReadOnly(), a.provider, a.device);
    }

    static Array reshape(Array a, long[] dims) {
        long n = 1;
        boolean zero = false;
        for (long d : dims) {
            if (d < 0) {
                throw new IllegalArgumentException("dims: negative size in " + Arrays.toString(dims));
            }
            zero |= d == 0;
        }
        for (int k = 0; k < dims.length && !zero; k++) {
            long d = dims[k];
            if (n > Long.MAX_VALUE / d) {
                throw new IllegalArgumentException("dims: " + Arrays.toString(dims) + " hold more elements than a long"
                        + " counts (2^63 - 1), " + a.shape + " has " + Array.elementCountOf(a.dims));
            }
            n *= d;
        }
        n = zero ? 0 : n;
        if (n != Array.elementCountOf(a.dims)) {
            throw new IllegalArgumentException("dims: " + Arrays.toString(dims) + " hold " + n + " elements, "
                    + a.shape + " has " + Array.elementCountOf(a.dims));
        }
        if (Arrays.equals(dims, a.dims)) {
            return a;
        }
        Array unit = unitReshape(a, dims);
        if (unit != null) {
            return unit;
        }
        if (a.strides == null || !(n == 0 || rowMajorContiguous(a))) {
            throw new IllegalArgumentException("reshape of " + a.shape + " to " + Arrays.toString(dims)
                    + " needs an untiled array contiguous in row-major order, or only dimensions of size 1 added"
                    + " or removed outside the tiles: relayout first (Relayout.to in module vector)");
        }
        Layout base = a.shape.layout();
        Layout l = Layout.rowMajor(dims.length).withElementSizeInBits(base.elementSizeInBits())
                .withMemorySpace(base.memorySpace());
        ArrayShape shape = ArrayShape.of(a.type, dims).withLayout(l);
        return new Array(a.segment, shape, a.slotOffset(), ArrayFactory.rowMajorStrides(dims), a.isReadOnly(),
                a.provider, a.device);
    }

    /**
     * The reshape that only adds or removes dimensions of size 1 (the other sizes in the same order), as
     * a view in the same memory: for strided arrays the kept dimensions keep their strides; for tiled
     * ones the kept dimensions keep their order and tiles, and the dimensions of size 1 go to the
     * major end, which needs every removed or added one outside the tiles' reach (and no split
     * configs, and a legacy padded size of 1). Null where that does not apply.
     */
    private static Array unitReshape(Array a, long[] dims) {
        int[] oldToNew = new int[a.dims.length];
        int j = 0;
        for (int d = 0; d < a.dims.length; d++) {
            oldToNew[d] = -1;
            if (a.dims[d] != 1) {
                while (j < dims.length && dims[j] == 1) {
                    j++;
                }
                if (j == dims.length || dims[j] != a.dims[d]) {
                    return null;
                }
                oldToNew[d] = j++;
            }
        }
        while (j < dims.length && dims[j] == 1) {
            j++;
        }
        if (j != dims.length) {
            return null;
        }
        if (a.strides != null) {
            long[] st = new long[dims.length];
            for (int d = 0; d < a.dims.length; d++) {
                if (oldToNew[d] >= 0) {
                    st[oldToNew[d]] = a.strides[d];
                }
            }
            long inner = 1;                  // a size-1 dimension: the extent of the kept one to its right
            for (int k = dims.length - 1; k >= 0; k--) {
                if (dims[k] == 1) {
                    st[k] = inner;
                } else {
                    inner = st[k] * dims[k];
                }
            }
            return strided(a, dims, a.slotOffset(), st);
        }
        Layout l = a.shape.layout();
        if (!l.splitConfigs().isEmpty()) {
            return null;
        }
        int untouched = untouchedPositions(l, a.dims.length);
        for (int d = 0; d < a.dims.length; d++) {
            if (oldToNew[d] < 0 && (position(a, d) >= untouched
                    || l.hasPaddedDimensions() && l.paddedDimensions()[d] != 1)) {
                return null;
            }
        }
        int[] m2m = new int[dims.length];
        long[] padded = l.hasPaddedDimensions() ? new long[dims.length] : null;
        int c = 0;
        for (int d : l.minorToMajor()) {
            if (oldToNew[d] >= 0) {
                m2m[c++] = oldToNew[d];
                if (padded != null) {
                    padded[oldToNew[d]] = l.paddedDimensions()[d];
                }
            }
        }
        int kept = c;
        for (int k = dims.length - 1; k >= 0; k--) {
            if (dims[k] == 1) {
                m2m[c++] = k;
                if (padded != null) {
                    padded[k] = 1;
                }
            }
        }
        Layout layout = relabel(l, m2m, padded);
        if (untouchedPositions(layout, dims.length) < dims.length - kept) {
            return null;
        }
        ArrayShape shape = ArrayShape.of(a.type, dims).withLayout(layout);
        if (shape.bufferSize() != a.shape.bufferSize()) {
            return null;
        }
        return new Array(a.segment, shape, 0, null, a.isReadOnly(), a.provider, a.device);
    }

    // ---- strided ---------------------------------------------------------------------------------

    /** A strided view; its layout orders the dimensions by decreasing stride (ties: row-major). */
    private static Array strided(Array a, long[] dims, long offset, long[] strides) {
        int[] m2m = IntStream.range(0, dims.length).boxed()
                .sorted(Comparator.<Integer>comparingLong(d -> strides[d]).thenComparing(d -> -d))
                .mapToInt(Integer::intValue).toArray();
        Layout base = a.shape.layout();
        Layout l = Layout.of(m2m).withElementSizeInBits(base.elementSizeInBits()).withMemorySpace(base.memorySpace());
        ArrayShape shape = ArrayShape.of(a.type, dims).withLayout(l);
        return new Array(a.segment, shape, offset, strides, a.isReadOnly(), a.provider, a.device);
    }

    private static boolean rowMajorContiguous(Array a) {
        long[] rm = ArrayFactory.rowMajorStrides(a.dims);
        for (int d = 0; d < a.dims.length; d++) {
            if (a.dims[d] > 1 && a.strides[d] != rm[d]) {
                return false;
            }
        }
        return true;
    }

    // ---- tiled -----------------------------------------------------------------------------------

    /**
     * A tiled view of the same tiling starting at the element whose coordinate {@code dim} is
     * {@code start} (others 0): a new array over the segment slice from that element's slot.
     */
    private static Array tiledView(Array a, long[] dims, Layout layout, long start, int dim) {
        long offsetSlots = 0;
        if (start > 0 && Array.elementCountOf(a.dims) > 0) {   // an array without elements has no slot to start at
            long[] e = new long[a.dims.length];
            e[dim] = start;
            offsetSlots = a.shape.linearIndex(e);
        }
        long bits = a.shape.slotBits();
        if ((offsetSlots * bits & 7) != 0) {
            throw notTileAligned(a, "a view starting at bit " + offsetSlots * bits + " (not a byte boundary)");
        }
        long offsetBytes = offsetSlots * bits / 8;
        long room = (a.device != null ? a.device.byteSize() : a.segment.byteSize()) - offsetBytes;
        ArrayShape shape = ArrayShape.of(a.type, dims).withLayout(layout);
        if (shape.bufferSize() > room) {
            shape = shape.withLayout(layout.withTailPaddingAlignment(1));
        }
        if (a.device != null) {
            return new Array(a.segment, shape, 0, null, a.isReadOnly(), a.provider,
                    a.device.slice(offsetBytes, shape.bufferSize()));
        }
        MemorySegment segment = a.segment.asSlice(offsetBytes, shape.bufferSize());
        return new Array(segment, shape, 0, null, a.isReadOnly(), a.provider);
    }

    /**
     * The number of leading physical positions that no tile reaches: the index map is row-major over
     * them, with the tiled remainder as the innermost block.
     */
    static int untouchedPositions(Layout layout, int rank) {
        int len = rank;
        int untouched = rank;
        for (Tile t : layout.tiles()) {
            int k = t.rank();
            if (k >= len) {
                return 0;
            }
            untouched = Math.min(untouched, len - k);
            int stars = (int) Arrays.stream(t.dimensions()).filter(x -> x == Tile.COMBINE).count();
            len = len - stars + (k - stars);
        }
        return untouched;
    }

    private static boolean tileRowAligned(Array a, int p, long start, long end, long size) {
        Addressing ad = a.addressing();
        if (!(ad instanceof Tiled2 || ad instanceof TiledN) || p != a.dims.length - 2) {
            return false;
        }
        Tile first = a.shape.layout().tiles().getFirst();
        if (first.rank() != 2) {
            return false;
        }
        long rows = first.dimension(0);
        return start % rows == 0 && (end % rows == 0 || end == size);
    }

    private static boolean majorAreUnit(Array a, int p) {
        Layout l = a.shape.layout();
        for (int q = 0; q < p; q++) {
            if (a.dims[l.major(q)] != 1) {
                return false;
            }
        }
        return true;
    }

    private static int position(Array a, int dim) {
        Layout l = a.shape.layout();
        for (int p = 0; p < a.dims.length; p++) {
            if (l.major(p) == dim) {
                return p;
            }
        }
        throw new IllegalStateException("dimension " + dim + " not in " + l);
    }

    /** The layout {@code l} with another {@code minor_to_major} (and padded dimensions), every other field kept. */
    static Layout relabel(Layout l, int[] m2m, long[] padded) {
        Layout r = Layout.of(m2m).withTiles(l.tiles()).withTailPaddingAlignment(l.tailPaddingAlignment())
                .withElementSizeInBits(l.elementSizeInBits()).withMemorySpace(l.memorySpace())
                .withSplitConfigs(l.splitConfigs().toArray(new SplitConfig[0]))
                .withDynamicShapeMetadataPrefixBytes(l.dynamicShapeMetadataPrefixBytes());
        return padded == null ? r : r.withPaddedDimensions(l.paddingValue(), padded);
    }

    private static void checkDim(Array a, int dim) {
        if (dim < 0 || dim >= a.dims.length) {
            throw new IndexOutOfBoundsException("dimension " + dim + " is out of bounds for "
                    + a.shape.toStringWithoutLayout() + " (rank " + a.dims.length + ")");
        }
    }

    private static long[] remove(long[] v, int i) {
        long[] r = new long[v.length - 1];
        System.arraycopy(v, 0, r, 0, i);
        System.arraycopy(v, i + 1, r, i, v.length - i - 1);
        return r;
    }

    private static IllegalArgumentException notTileAligned(Array a, String what) {
        return new IllegalArgumentException(what + " of " + a.shape + " does not stay tile-aligned: relayout "
                + "first (Relayout.to in module vector), e.g. to a row-major layout, then take the view");
    }
}
