package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/** Creation of {@link Array}s: allocation, wrapping, alignment, strides, the storage rules. */
final class ArrayFactory {
    /** The most a tile raises the 64-byte base alignment to. */
    static final long MAX_TILE_ALIGNMENT = 4096;

    private ArrayFactory() {
    }

    static Array allocate(Arena arena, ArrayShape shape) {
        Objects.requireNonNull(arena, "arena");
        checkSupported(shape);
        long bytes = shape.bufferSize();
        long alignment = alignment(shape);
        if (bytes > Long.MAX_VALUE - alignment) {
            throw new IllegalArgumentException("shape: " + shape + " needs " + bytes + " bytes, which aligned to "
                    + alignment + " bytes exceed the largest size a long holds (2^63 - 1)");
        }
        MemorySpaceProvider provider = MemorySpaces.providerFor(shape.layout().memorySpace());
        DeviceBuffer buffer;
        try {
            buffer = provider.allocate(arena, bytes, alignment);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("shape: " + shape + " (" + bytes + " bytes) does not fit: "
                    + e.getMessage(), e);
        }
        if (buffer.byteSize() < bytes) {
            throw new IllegalStateException("memory space provider " + provider.name() + " returned "
                    + buffer.byteSize() + " bytes for " + shape + ", which needs " + bytes);
        }
        if (buffer.isHost()) {
            Array a = new Array(buffer.hostSegment(), shape, 0, layoutStrides(shape), false, provider);
            ArrayBulk.fillPadding(a);
            return a;
        }
        Array a = new Array(buffer.lifetime(), shape, 0, layoutStrides(shape), false, provider, buffer);
        if (bytes > 0) {
            try (MappedArray m = a.map(MapMode.WRITE)) {
                m.array().segment.fill((byte) 0);
                ArrayBulk.fillPadding(m.array());
            }
        }
        return a;
    }

    static Array wrapDevice(DeviceBuffer buffer, ArrayShape shape) {
        Objects.requireNonNull(buffer, "buffer");
        checkSupported(shape);
        long bytes = shape.bufferSize();
        if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException("buffer: " + buffer.byteSize() + " bytes is too small for "
                    + shape + ", which needs " + bytes + " bytes");
        }
        if (buffer.isHost()) {
            return new Array(buffer.hostSegment(), shape, 0, layoutStrides(shape), false, buffer.provider());
        }
        return new Array(buffer.lifetime(), shape, 0, layoutStrides(shape), false, buffer.provider(), buffer);
    }

    static Array asDeviceArray(Array host, long memorySpace, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        if (host.device != null) {
            throw new IllegalStateException("asDeviceArray: " + host.shape + " is device memory of "
                    + host.provider.name() + " already");
        }
        if (!host.isDense()) {
            throw new IllegalArgumentException("asDeviceArray: " + host.shape + " is a view that is not its layout's"
                    + " whole buffer; relayout it into a dense array first");
        }
        ThreadAccess.requireAlive(host.segment);
        ArrayShape shape = host.shape.withLayout(host.shape.layout().withMemorySpace(memorySpace));
        MemorySpaceProvider provider = MemorySpaces.providerFor(memorySpace);
        DeviceBuffer buffer = provider.wrapHost(arena, host.segment.asSlice(0, host.shape.bufferSize()));
        Array a = wrapDevice(buffer, shape);
        return host.isReadOnly() ? a.asReadOnly() : a;
    }

    static Array wrap(MemorySegment segment, ArrayShape shape) {
        Objects.requireNonNull(segment, "segment");
        checkSupported(shape);
        long bytes = shape.bufferSize();
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException("segment: " + segment.byteSize() + " bytes is too small for "
                    + shape + ", which needs " + bytes + " bytes");
        }
        MemorySpaceProvider provider = MemorySpaces.providerFor(shape.layout().memorySpace());
        if (!provider.isHostAccessible()) {
            provider = MemorySpaces.host();
        }
        return new Array(segment, shape, 0, layoutStrides(shape), segment.isReadOnly(), provider);
    }

    static Array wrapAddress(long address, ArrayShape shape, Arena arena, Runnable cleanup) {
        Objects.requireNonNull(arena, "arena");
        checkSupported(shape);
        long bytes = shape.bufferSize();
        if (address == 0 && bytes != 0) {
            throw new IllegalArgumentException("address: 0 (NULL) for " + shape + ", which needs " + bytes + " bytes");
        }
        MemorySegment segment = MemorySegment.ofAddress(address)
                .reinterpret(bytes, arena, cleanup == null ? null : s -> cleanup.run());
        return wrap(segment, shape);
    }

    static Array wrapStrided(MemorySegment segment, ArrayShape shape, long slotOffset, long[] slotStrides,
                             MemorySpaceProvider provider) {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(slotStrides, "slotStrides");
        checkSupported(shape);
        Layout base = shape.layout();
        if (base.isTiled()) {
            throw new IllegalArgumentException("layout: " + shape + " is tiled; a strided array has no tiles");
        }
        int rank = shape.rank();
        if (slotStrides.length != rank) {
            throw new IllegalArgumentException("slotStrides: " + slotStrides.length + " strides for rank " + rank);
        }
        if (slotOffset < 0) {
            throw new IllegalArgumentException("slotOffset: " + slotOffset + " is negative");
        }
        long[] dims = shape.dimensions();
        long[] strides = slotStrides.clone();
        long last = slotOffset;
        boolean empty = Array.elementCountOf(dims) == 0;
        long bits = shape.slotBits();
        long bytes;
        try {
            for (int d = 0; d < rank; d++) {
                if (strides[d] < 0) {
                    throw new IllegalArgumentException("slotStrides[" + d + "]: " + strides[d] + " is negative");
                }
                if (!empty) {
                    last = Math.addExact(last, Math.multiplyExact(dims[d] - 1, strides[d]));
                }
            }
            bytes = empty ? 0 : Math.ceilDiv(Math.multiplyExact(Math.addExact(last, 1), bits), 8);
        } catch (ArithmeticException overflow) {
            throw new IllegalArgumentException("slotStrides: " + shape + " at slot offset " + slotOffset
                    + " with strides " + Arrays.toString(strides) + " reaches beyond the largest byte offset a long"
                    + " holds (2^63 - 1)", overflow);
        }
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException("segment: " + segment.byteSize() + " bytes is too small for " + shape
                    + " at slot offset " + slotOffset + " with strides " + Arrays.toString(strides)
                    + ", which reach byte " + bytes);
        }
        int[] m2m = java.util.stream.IntStream.range(0, rank).boxed()
                .sorted(java.util.Comparator.<Integer>comparingLong(d -> strides[d]).thenComparing(d -> -d))
                .mapToInt(Integer::intValue).toArray();
        Layout l = Layout.of(m2m).withElementSizeInBits(base.elementSizeInBits()).withMemorySpace(base.memorySpace());
        ArrayShape s = ArrayShape.of(shape.elementType(), dims).withLayout(l);
        MemorySpaceProvider p = provider != null ? provider : MemorySpaces.providerFor(base.memorySpace());
        if (provider == null && !p.isHostAccessible()) {
            p = MemorySpaces.host();
        }
        if (!p.isHostAccessible()) {     // the segment's address is the device's: never read, its arena the lifetime
            DeviceBuffer d = DeviceBuffer.of(p, segment.address(), segment.byteSize(), segment);
            return new Array(segment, s, slotOffset, strides, segment.isReadOnly(), p, d);
        }
        return new Array(segment, s, slotOffset, strides, segment.isReadOnly(), p);
    }

    /** Refuses shapes whose element storage the accessors cannot read. */
    static void checkSupported(ArrayShape shape) {
        Objects.requireNonNull(shape, "shape");
        ElementType t = shape.elementType();
        long bits = shape.slotBits();
        boolean whole = bits == 8L * t.byteWidth();
        boolean packed = (bits == 1 || bits == 2 || bits == 4) && bits >= t.bitWidth();
        if (!whole && !packed) {
            throw new IllegalArgumentException("elementSizeInBits: E(" + bits + ") for " + t + " in " + shape
                    + " is not supported: elements take " + 8 * t.byteWidth()
                    + " bits, or E(1|2|4) packed for sub-byte types; relayout first");
        }
        shape.bufferSize();   // throws IllegalArgumentException for unbounded dimensions
    }

    /** 64 bytes, or the first tile's bytes when larger (the largest power of two not above them, at most 4096). */
    static long alignment(ArrayShape shape) {
        Layout layout = shape.layout();
        if (!layout.isTiled()) {
            return 64;
        }
        Tile tile = layout.tiles().getFirst();
        long n = 1;
        for (long d : tile.dimensions()) {
            if (d != Tile.COMBINE) {
                n = Math.min(n * d, 1L << 32);
            }
        }
        long bytes = n * shape.slotBits() / 8;
        return Math.max(64, Math.min(MAX_TILE_ALIGNMENT, Long.highestOneBit(Math.max(1, bytes))));
    }

    /**
     * The slot stride of each logical dimension of an untiled layout (legacy padded sizes count as
     * the dimension sizes), or null for a tiled one.
     */
    static long[] layoutStrides(ArrayShape shape) {
        Layout layout = shape.layout();
        if (layout.isTiled()) {
            return null;
        }
        int rank = shape.rank();
        long[] padded = layout.paddedDimensions();
        long[] strides = new long[rank];
        long stride = 1;
        for (int k = 0; k < rank; k++) {
            int d = layout.minorToMajor(k);
            strides[d] = stride;
            stride *= padded.length == rank ? padded[d] : shape.dimension(d);
        }
        return strides;
    }

    /** Row-major dense strides of {@code dims}. */
    static long[] rowMajorStrides(long[] dims) {
        long[] s = new long[dims.length];
        long stride = 1;
        for (int d = dims.length - 1; d >= 0; d--) {
            s[d] = stride;
            stride *= dims[d];
        }
        return s;
    }

    /**
     * {@link Array#isDenseIn}: whether {@code layout} places the elements of {@code shape} in the same slots,
     * in a buffer of the same size and slot width (see there for what counts as the same).
     */
    static boolean placesElementsAlike(ArrayShape shape, Layout layout) {
        Layout own = shape.layout();
        if (own.equals(layout)) {
            return true;
        }
        ArrayShape other;
        try {
            other = shape.withLayout(layout);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (other.slotBits() != shape.slotBits() || other.slotCount() != shape.slotCount()) {
            return false;
        }
        if (shape.slotCount() != shape.elementCount() && own.paddingValue() != layout.paddingValue()) {
            return false;
        }
        if (!own.isTiled() && !layout.isTiled()) {
            long[] a = layoutStrides(shape);
            long[] b = layoutStrides(other);
            for (int d = 0; d < a.length; d++) {
                if (shape.dimension(d) > 1 && a[d] != b[d]) {
                    return false;
                }
            }
            return true;
        }
        return placement(own).equals(placement(layout));
    }

    /** The fields of a layout that place elements (the slot width is compared apart). */
    private static Layout placement(Layout l) {
        return Layout.of(l.minorToMajor()).withTiles(l.tiles()).withTailPaddingAlignment(l.tailPaddingAlignment())
                .withPaddedDimensions(l.paddingValue(), l.paddedDimensions());
    }

    /** {@link Array#byteSpan()}. */
    static MemorySegment byteSpan(Array a) {
        if (a.device != null) {
            throw Array.notHostAccessible(a.shape, a.provider);
        }
        if (a.dense) {   // arrays without elements are dense
            return a.segment.asSlice(0, a.shape.bufferSize());
        }
        long last = a.slotOffset;
        for (int d = 0; d < a.dims.length; d++) {
            last += (a.dims[d] - 1) * a.strides[d];
        }
        long bits = a.slotBits;
        long from = a.slotOffset * bits / 8;
        long to = Math.ceilDiv((last + 1) * bits, 8);
        return a.segment.asSlice(from, to - from);
    }

    static boolean isContiguous(Array a) {
        long n = Array.elementCountOf(a.dims);
        if (a.strides == null) {
            return n == a.shape.slotCount();
        }
        if (n == 0) {
            return true;
        }
        Integer[] order = new Integer[a.dims.length];
        for (int d = 0; d < order.length; d++) {
            order[d] = d;
        }
        Arrays.sort(order, (x, y) -> Long.compare(a.strides[x], a.strides[y]));
        long expect = 1;
        for (int d : order) {
            if (a.dims[d] == 1) {
                continue;
            }
            if (a.strides[d] != expect) {
                return false;
            }
            expect *= a.dims[d];
        }
        return true;
    }
}
