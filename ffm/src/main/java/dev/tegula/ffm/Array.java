package dev.tegula.ffm;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.CarryFormula;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * An N-dimensional array living in a {@link MemorySegment}: the logical array that an
 * {@link ArrayShape} (element type, dimensions, XLA layout) describes.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     Array a = Array.allocate(arena, ArrayShape.parse("f32[3,5]{1,0:T(2,2)}"));
 *     a.setFloat(2, 3, 1.5f);            // element (2,3) lands in slot 17 of the tiled buffer
 *     float x = a.getFloat(2, 3);        // 1.5
 *     Array row = a.permute(1, 0);       // a transposed view: no copy
 * }
 * }
 *
 * <h2>Memory</h2>
 * The element at a multi-index lives in slot {@code slotOffset() + Σ index[d]·slotStrides()[d]}
 * of {@link #segment()} for untiled layouts (legacy padded ones included) and strided views, and in
 * slot {@code addressing().slot(index)} for tiled layouts. A slot is {@code shape().slotBits()}
 * bits; packed sub-byte layouts ({@code E(1)}, {@code E(2)}, {@code E(4)}) put element 0 in the low
 * bits of byte 0. Values are in native byte order and read with unaligned accesses: any segment
 * alignment works. Element access supports storage of exactly the type's byte width, and packed
 * {@code E(1|2|4)} of a sub-byte type (or pred); other {@code E(n)} are refused when the array is created.
 *
 * <h2>Element access and conversions</h2>
 * Typed accessors exist for {@code float}, {@code double}, {@code long}, {@code int} and
 * {@code boolean}, by multi-index and with rank-specialised overloads for ranks 1 to 4 that
 * allocate nothing. For loops over many arrays and layouts, each element type with a Java value has
 * an accessor class of its own ({@link #floatAccessor()} and its siblings: f64, f32, s64, s32, s16,
 * s8, u8, and float-valued ones for bf16, f16 and the 8-bit floats); the rank 1 to 4 overloads of
 * {@code getFloat}/{@code setFloat} on f32, {@code getDouble}/{@code setDouble} on f64,
 * {@code getLong}/{@code setLong} on s64 and {@code getInt}/{@code setInt} on s32 run on that
 * object. Any accessor works on any element type and converts:
 * <ul>
 *   <li>floats (f16, bf16, the fp8/fp6/fp4 types) decode exactly; writes round once to nearest, ties
 *       to even, with overflow and NaN as {@link dev.tegula.ffm.codec.ElementCodec} documents;</li>
 *   <li>integers read through {@code getLong} exactly: signed types sign-extended, unsigned types
 *       zero-extended, u64 as its raw 64-bit pattern (read it with {@link Long#toUnsignedString});
 *       {@code getInt} is {@code (int) getLong} for integers (the low 32 bits) and a Java cast of
 *       the value for floats (truncation toward zero, NaN 0, saturation);
 *       writes keep the low bits of the integer (two's-complement wrap-around); a float written to
 *       an integer type is truncated toward zero;</li>
 *   <li>pred: a non-zero byte is true; {@code getBoolean} on other types is {@code value != 0} (NaN is
 *       true); {@code setBoolean} writes 1 or 0;</li>
 *   <li>complex (c64, c128): {@link #getReal}, {@link #getImaginary}, {@link #setComplex}; the real
 *       accessors read the real part and write a real number (imaginary part 0).</li>
 * </ul>
 *
 * <h2>Views</h2>
 * {@link #slice}, {@link #select}, {@link #permute} and {@link #reshape} return views that share
 * this array's segment and arena. Views of untiled arrays may be strided; for them
 * {@link #slotOffset()} and {@link #slotStrides()} describe memory, and {@link #shape()}'s
 * layout only orders the dimensions by decreasing stride. Views of tiled arrays must stay
 * tile-aligned, or they are refused: relayout first ({@code Relayout.to} in module vector).
 *
 * <h2>Lifetime and threads</h2>
 * An array never owns memory: its segment belongs to an {@link Arena} chosen by the caller, and
 * every access follows that arena's rules. Access after the arena is closed throws
 * {@link IllegalStateException}, whose message begins "Already closed" on every path (accessors,
 * bulk methods, relayouts); access to a confined arena's array from another thread throws
 * {@link WrongThreadException}. The {@code Array} object itself is immutable and may be shared;
 * reads of a shared arena's array from many threads are safe. Writes are plain memory writes:
 * concurrent writes need outside synchronisation, and in packed layouts writing an element rewrites
 * its whole byte, so two threads writing neighbours of one byte can lose an update.
 *
 * <h2>Memory spaces</h2>
 * The layout's {@code S(n)} chooses a {@link MemorySpaceProvider} ({@link MemorySpaces}) when an array
 * is allocated; by default every id is host memory. A device array (its provider not
 * {@linkplain #isHostAccessible host-accessible}) lives in a {@link DeviceBuffer}, a handle plus a
 * byte range ({@link #deviceBuffer()}), owned by the arena it was allocated in: closing the arena
 * releases the buffer once, and later use throws the same "Already closed" error as a host array.
 * Device arrays refuse element access with {@link IllegalStateException}, but can be allocated,
 * viewed, passed around, moved with {@link #copyTo}, relayouted ({@code Relayout.copy}) and
 * {@linkplain #map mapped}: a mapped array is a host array over the same bytes in the same layout,
 * with no copy where the device shares memory with the host. {@link #asDeviceArray} goes the other
 * way: a device buffer over this host array's memory.
 *
 * <h2>Exceptions</h2>
 * An out-of-bounds or wrong-rank index throws {@link IndexOutOfBoundsException} naming the index and
 * the shape; a write to a read-only array throws {@link UnsupportedOperationException}.
 */
public final class Array {
    // Hot-path fields: read by the accessors; the JIT hoists them out of loops over one array.
    final MemorySegment segment;
    final ElementType type;
    /** Rank when element access is allowed, -1 when the memory is not host-accessible. */
    final int accessRank;
    final boolean strided;
    final long slotOffset;
    final long d0, d1, d2, d3;
    private final boolean readOnly;
    /** Bytes of one slot (1, 2, 4, 8, 16), or 0 for packed slots. */
    final int slotBytes;
    /** Bits of a packed slot (1, 2, 4). */
    final int slotBits;
    final int packedMask;
    /** The element accessors' path: one of {@link ElementIO}'s kinds ({@code F32}, {@code SMALL}, ...). */
    final int kind;
    /** For kind {@code SMALL}: the value of each code 0..255, else null. */
    final float[] smallFloats;
    final double[] smallDoubles;
    /**
     * For kind {@code SMALL} floating types and pred: the codes of the f32s folded to 16 bits,
     * built on the first write ({@link ElementIO.CodeTable}), else null (the integer types truncate).
     */
    final ElementIO.CodeTable codeTable;
    /** The low {@code bitWidth} bits of the element type (for the inline integer writes). */
    final int codeMask;
    /** For kind {@code INT}: all ones for signed types, the width's mask for unsigned ones. */
    final long intMask;
    final Addressing addressing;

    final ArrayShape shape;
    final long[] dims;
    /** Slot strides per dimension, or null for tiled layouts. */
    final long[] strides;
    /**
     * True if {@code shape.layout()} describes memory exactly from {@code slotOffset}: element {@code i}
     * is in slot {@code slotOffset + shape.linearIndex(i)} (a byte copy of the buffer from there is a copy
     * of the array). {@link #isDense()} is this with the buffer at slot 0.
     */
    final boolean exactLayout;
    /** {@link #isDense()}. */
    final boolean dense;
    final MemorySpaceProvider provider;
    /** The device memory of an array whose provider is not host-accessible (then {@link #segment} is its lifetime), else null. */
    final DeviceBuffer device;
    /**
     * Ranks 1 to 4: the slot as {@code slotOffset + Σ x·stride + Σ (x >>> midShift)·midCarry
     * + Σ (x >>> topShift)·topCarry} over the dimensions' indices {@code x} (fields {@code stride0 …
     * topCarry3}, dimension 0 to 3; "mid" and "top" are the second and third digit of a tiled
     * dimension), for strided arrays (the strides are the {@code stride}s) and for tiled layouts whose tiles split each dimension into
     * power-of-two digits (core's {@link CarryFormula}, through {@link ArraySlots#carry}); {@code carry} is false when the layout needs
     * core's {@link Addressing}. {@code carries} is how many carry terms are in use: 0 (strided), 1,
     * or 2 (some {@code h} is not 0).
     */
    final boolean carry;
    /** The carry formula the fields below spell out (core's {@link CarryFormula}), or null where {@code carry} is false. */
    final CarryFormula carryFormula;
    final int carries;
    final long stride0, midShift0, midCarry0, topShift0, topCarry0;
    final long stride1, midShift1, midCarry1, topShift1, topCarry1;
    final long stride2, midShift2, midCarry2, topShift2, topCarry2;
    final long stride3, midShift3, midCarry3, topShift3, topCarry3;
    /**
     * The accessor of this array's element type ({@link FloatAccessor}, {@link DoubleAccessor}, ...;
     * {@link Accessors#of}), or null where there is none. The typed accessors of ranks 1 to 4 run on
     * it where the Java type is the element type's own (f32 {@code getFloat}, f64 {@code getDouble},
     * s64 {@code getLong}, s32 {@code getInt}), so that a loop over them has that class's profile
     * whatever else the JVM has run; {@link #floatAccessor()} and its siblings return it.
     */
    final Object typedAccessor;

    Array(MemorySegment segment, ArrayShape shape, long slotOffset, long[] strides, boolean readOnly,
          MemorySpaceProvider provider) {
        this(segment, shape, slotOffset, strides, readOnly, provider, null);
    }

    Array(MemorySegment segment, ArrayShape shape, long slotOffset, long[] strides, boolean readOnly,
          MemorySpaceProvider provider, DeviceBuffer device) {
        this.device = device;
        this.segment = segment;
        this.shape = shape;
        this.type = shape.elementType();
        this.dims = shape.dimensions();
        this.strides = strides;
        this.strided = strides != null;
        this.slotOffset = slotOffset;
        this.readOnly = readOnly;
        this.provider = provider;
        this.addressing = Addressing.of(shape);
        int rank = dims.length;
        this.accessRank = device == null && provider.isHostAccessible() ? rank : -1;
        d0 = rank > 0 ? dims[0] : 0;
        d1 = rank > 1 ? dims[1] : 0;
        d2 = rank > 2 ? dims[2] : 0;
        d3 = rank > 3 ? dims[3] : 0;
        long bits = shape.slotBits();
        slotBytes = bits >= 8 ? (int) (bits / 8) : 0;
        slotBits = (int) bits;
        packedMask = bits < 8 ? (1 << bits) - 1 : 0xFF;
        kind = ElementIO.kindOf(type, bits);
        smallFloats = kind == ElementIO.SMALL ? ElementIO.smallFloats(type) : null;
        smallDoubles = kind == ElementIO.SMALL ? ElementIO.smallDoubles(type) : null;
        codeTable = kind == ElementIO.SMALL ? ElementIO.codeTable(type) : null;
        codeMask = type.bitWidth() >= 32 ? -1 : (1 << type.bitWidth()) - 1;
        intMask = ElementIO.intMask(type);
        CarryFormula c = ArraySlots.carry(shape, strides);
        carryFormula = c;
        carry = c != null;
        int cr = c == null ? 0 : c.rank();
        stride0 = cr > 0 ? c.stride(0) : 0; midShift0 = cr > 0 ? c.midShift(0) : 0; midCarry0 = cr > 0 ? c.midCarry(0) : 0;
        topShift0 = cr > 0 ? c.topShift(0) : 0; topCarry0 = cr > 0 ? c.topCarry(0) : 0;
        stride1 = cr > 1 ? c.stride(1) : 0; midShift1 = cr > 1 ? c.midShift(1) : 0; midCarry1 = cr > 1 ? c.midCarry(1) : 0;
        topShift1 = cr > 1 ? c.topShift(1) : 0; topCarry1 = cr > 1 ? c.topCarry(1) : 0;
        stride2 = cr > 2 ? c.stride(2) : 0; midShift2 = cr > 2 ? c.midShift(2) : 0; midCarry2 = cr > 2 ? c.midCarry(2) : 0;
        topShift2 = cr > 2 ? c.topShift(2) : 0; topCarry2 = cr > 2 ? c.topCarry(2) : 0;
        stride3 = cr > 3 ? c.stride(3) : 0; midShift3 = cr > 3 ? c.midShift(3) : 0; midCarry3 = cr > 3 ? c.midCarry(3) : 0;
        topShift3 = cr > 3 ? c.topShift(3) : 0; topCarry3 = cr > 3 ? c.topCarry(3) : 0;
        carries = c == null ? 0 : c.carries();
        boolean empty = elementCountOf(dims) == 0;
        exactLayout = !strided || empty || Arrays.equals(
                nonUnit(dims, strides), nonUnit(dims, ArrayFactory.layoutStrides(shape)));
        dense = exactLayout && (slotOffset == 0 || empty);
        typedAccessor = Accessors.of(this);   // last: it reads the fields above
    }

    // ---- creation --------------------------------------------------------------------------------

    /**
     * {@return a new array of {@code shape} in memory from {@code arena}} The buffer has
     * {@code shape.bufferSize()} bytes (0 for a zero-element shape), comes from the provider of the
     * layout's memory space, and is aligned to 64 bytes, or for tiled layouts to the first tile's byte
     * size when larger (the largest power of two not above it, at most 4096). Elements are zero;
     * in host memory, padding slots hold the layout's padding value (zero, or for a legacy
     * {@code PaddingValue} one, lowest or highest: {@code ±inf} for floats that have infinities, else
     * the largest finite magnitude). In device memory the zeros and the padding are written through a
     * {@linkplain #map mapping} before this returns.
     *
     * @throws IllegalArgumentException if the shape has an unbounded ({@code ?}) dimension or an
     *                                  {@code E(n)} that element access does not support, its buffer
     *                                  size with its alignment exceeds what a {@code long} holds, or
     *                                  the device cannot hold the buffer (the message names the shape,
     *                                  and the device's limit; nothing is allocated)
     * @throws IllegalStateException    if the arena is closed
     * @throws WrongThreadException     if a confined arena is used from another thread
     * @throws OutOfMemoryError         if the memory cannot be had
     */
    public static Array allocate(Arena arena, ArrayShape shape) {
        return ArrayFactory.allocate(arena, shape);
    }

    /**
     * {@return an array over memory someone else owns (a mapped file, a native library's buffer), without copying}
     * The segment must hold at least {@code shape.bufferSize()} bytes, from its start. Any alignment
     * is accepted (accesses are unaligned). A read-only segment gives a read-only array. The
     * segment's arena decides lifetime and threads. The segment is host memory: the array's provider
     * is the layout's where that provider is host memory, else {@link MemorySpaces#host()} (device
     * memory is wrapped with {@link #wrap(DeviceBuffer, ArrayShape)}).
     *
     * @throws IllegalArgumentException if the segment is too small (the message names both sizes),
     *                                  or the shape is not supported as for {@link #allocate}
     */
    public static Array wrap(MemorySegment segment, ArrayShape shape) {
        return ArrayFactory.wrap(segment, shape);
    }

    /**
     * {@return an array over a range of device memory, without copying}: the buffer (its provider's,
     * its lifetime) must hold at least {@code shape.bufferSize()} bytes from its start. The array's
     * provider is the buffer's.
     *
     * @throws IllegalArgumentException if the buffer is too small (both sizes named), or the shape is
     *                                  not supported as for {@link #allocate}
     */
    public static Array wrap(DeviceBuffer buffer, ArrayShape shape) {
        return ArrayFactory.wrapDevice(buffer, shape);
    }

    /**
     * {@return an array over native memory at a raw {@code address}} (for example a pointer returned
     * by a native library), sized {@code shape.bufferSize()} and bound to {@code arena}:
     * {@code cleanup} (may be null) runs when the arena is closed. This uses
     * {@link MemorySegment#reinterpret(long, Arena, java.util.function.Consumer)}, a <em>restricted</em>
     * method: the caller must be sure that the memory exists and stays valid for the arena's
     * lifetime, and the JVM needs native access enabled for module {@code dev.tegula.ffm}
     * ({@code --enable-native-access=dev.tegula.ffm}, or {@code ALL-UNNAMED} on the class path).
     * It is the only restricted method of the {@code Array} API. Tegula makes other restricted
     * calls elsewhere: DLPack in {@code dev.tegula.io} uses {@code reinterpret}, an upcall stub
     * (its deleter) and a downcall handle (the producer's deleter), which need native access for
     * module {@code dev.tegula.io}.
     *
     * @throws IllegalArgumentException if {@code address} is 0 while the buffer is not empty
     * @throws IllegalCallerException   if native access is not enabled for this module
     */
    public static Array wrapAddress(long address, ArrayShape shape, Arena arena, Runnable cleanup) {
        return ArrayFactory.wrapAddress(address, shape, arena, cleanup);
    }

    /**
     * {@return an untiled array over memory someone else owns, with explicit strides} (DLPack-style):
     * element {@code i} is in slot {@code slotOffset + Σ i[d]·slotStrides[d]} of {@code segment}.
     * The shape gives the element type, the dimensions, {@code E(n)} and {@code S(n)}; its
     * {@code minor_to_major} is replaced by the order of the strides, as for strided views. Strides
     * that are those of a dense array in some order give an array whose layout is exact.
     *
     * @param provider the memory space provider, or null for the one of the layout's memory space where
     *                 that is host memory (else host memory); a provider that is not host memory makes
     *                 the segment's addresses that device's (a DLPack device pointer): never read, its
     *                 arena the array's lifetime
     * @throws IllegalArgumentException if the layout is tiled, a stride or the offset is negative, the
     *                                  strides do not match the rank, the extent (the last element's
     *                                  byte offset) exceeds what a {@code long} holds (the shape,
     *                                  offset and strides named), or the segment is smaller than the
     *                                  elements reach (both sizes named)
     */
    public static Array wrapStrided(MemorySegment segment, ArrayShape shape, long slotOffset, long[] slotStrides,
                                    MemorySpaceProvider provider) {
        return ArrayFactory.wrapStrided(segment, shape, slotOffset, slotStrides, provider);
    }

    // ---- properties ------------------------------------------------------------------------------

    /**
     * {@return the segment that holds the buffer (for views: the parent's, or a slice of it)} For a
     * device array it is not the memory: it carries the arena's lifetime and may have no bytes; the
     * memory is {@link #deviceBuffer()}.
     */
    public MemorySegment segment() {
        return segment;
    }

    /** {@return the shape: element type, dimensions, layout (for strided views, see the class doc)} */
    public ArrayShape shape() {
        return shape;
    }

    /** {@return the slot of element (0, …, 0) for strided arrays; 0 for tiled ones, whose views slice the segment} */
    public long slotOffset() {
        return slotOffset;
    }

    /** {@return the slot stride of each dimension (a copy), or null for a tiled layout} */
    public long[] slotStrides() {
        return strided ? strides.clone() : null;
    }

    /** {@return the byte stride of each dimension (like DLPack's strides, in bytes), or null if tiled or packed} */
    public long[] byteStrides() {
        if (!strided || slotBytes == 0) {
            return null;
        }
        long[] b = strides.clone();
        for (int d = 0; d < b.length; d++) {
            b[d] *= slotBytes;
        }
        return b;
    }

    /**
     * {@return true if the elements fill a gap-free run of exactly {@code elementCount} slots}: for
     * strided arrays, strides that (in some order) are those of a dense array; for tiled arrays, a
     * buffer without padding slots.
     */
    public boolean isContiguous() {
        return ArrayFactory.isContiguous(this);
    }

    /**
     * {@return true if this array is its layout's whole buffer}: element {@code index} is in slot
     * {@code shape().linearIndex(index)} of {@link #segment()}, from slot 0, so the first
     * {@code shape().bufferSize()} bytes of the segment are a buffer of {@link #shape()}, padding
     * included. Arrays from {@link #allocate}, {@link #wrap} and {@link #wrapAddress} are dense, and so
     * are views of tiled arrays (their segment is a slice) and views that keep the layout's order from
     * slot 0 (a permutation of a dense array, a selection of index 0 of the most major dimension).
     * Strided views that skip slots or start past slot 0 are not; nor is a {@link #wrapStrided} array
     * whose strides are not those of its dimensions in some order. An array without elements is dense.
     */
    public boolean isDense() {
        return dense;
    }

    /**
     * {@return true if this array is dense ({@link #isDense()}) and {@code layout} places every element
     * where this array's layout does}: the segment read as a buffer of {@code shape().withLayout(layout)}
     * holds the same elements, in a buffer of the same size, with the same slot width. Layouts that differ
     * only in what moves no element count as the same: the memory space {@code S(n)}, {@code M(n)},
     * split configs, and an {@code E(n)} equal to the element type's own width. Two untiled layouts
     * also count as the same when the dimensions of size greater than 1 have the same slot strides and
     * the buffers the same slot count (so the place of size-1 dimensions in {@code minor_to_major}, and
     * {@code L(n)}, which has no effect without tiles, do not matter). Otherwise the layouts must agree
     * on {@code minor_to_major}, tiles, {@code L(n)} and legacy padded dimensions, and where the buffer
     * has padding slots, on the padding value. False when {@code layout} does not fit the shape.
     *
     * {@snippet :
     * if (array.isDenseIn(Layout.rowMajor(array.shape().rank()))) {
     *     // the first shape().bufferSize() bytes of array.segment() are the elements in C order
     * }
     * }
     */
    public boolean isDenseIn(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return dense && ArrayFactory.placesElementsAlike(shape, layout);
    }

    /**
     * {@return the part of {@link #segment()} that this array's elements lie in}: for a dense array
     * ({@link #isDense()}), its layout's whole buffer, the first {@code shape().bufferSize()} bytes,
     * padding included; for a strided view, the bytes from its lowest element slot to its highest one,
     * both included (a packed view's first and last bytes may hold other elements' bits too).
     */
    public MemorySegment byteSpan() {
        return ArrayFactory.byteSpan(this);
    }

    /** {@return true if writes are refused} */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** {@return the address calculator of {@link #shape()} (for strided views, the strides are authoritative)} */
    public Addressing addressing() {
        return addressing;
    }

    /** {@return true if Java code may read and write the elements (the memory space's provider says so)} */
    public boolean isHostAccessible() {
        return accessRank >= 0;
    }

    /** {@return the provider of this array's memory space} */
    public MemorySpaceProvider memorySpaceProvider() {
        return provider;
    }

    /**
     * {@return the buffer that holds this array's memory}: for a device array the device's handle and
     * byte range (for tiled views, the range of the view; for strided views, the parent's); for a host
     * array its segment as a host buffer.
     */
    public DeviceBuffer deviceBuffer() {
        return device != null ? device : DeviceBuffer.ofHost(provider, segment);
    }

    /**
     * {@return this array's memory mapped into host memory for {@code mode}: a host array in the same
     * layout over the same bytes, until the mapping is closed} For a host array the mapping is the
     * array itself and closing it does nothing. For a device array the provider maps the buffer
     * ({@link MemorySpaceProvider#map}); on devices that share memory with the host nothing is
     * copied. A {@link MapMode#READ} mapping is read-only; a {@link MapMode#WRITE} mapping does not
     * read the device's bytes, so every byte the device should keep must be written. The device must
     * not use the buffer while it is mapped.
     *
     * {@snippet :
     * try (MappedArray m = device.map(MapMode.READ)) {
     *     float x = m.array().getFloat(0, 0);
     * }
     * }
     *
     * @throws IllegalStateException         if the arena is closed or the device cannot map
     * @throws UnsupportedOperationException if a writing mode is asked of a read-only array
     */
    public MappedArray map(MapMode mode) {
        return MappedArray.of(this, Objects.requireNonNull(mode, "mode"));
    }

    /**
     * {@return a device array of memory space {@code memorySpace} over this host array's memory, without
     * copying} (OpenCL's {@code CL_MEM_USE_HOST_PTR}): the device reads and writes these bytes, so
     * a kernel's writes appear in this array and this array's writes in the device's view. Its layout
     * is this array's with {@code S(memorySpace)}; its handle is released when {@code arena} closes,
     * which must not be after this array's arena. Where the device shares memory with the host a
     * {@linkplain #map mapping} of it is this memory itself. Where the provider of
     * {@code memorySpace} is host memory, the result is this array's memory under the new layout.
     *
     * @throws IllegalArgumentException      if this array is not dense ({@link #isDense()})
     * @throws IllegalStateException         if this array is itself device memory, or an arena is closed
     * @throws UnsupportedOperationException if the device cannot use host memory
     */
    public Array asDeviceArray(long memorySpace, Arena arena) {
        return ArrayFactory.asDeviceArray(this, memorySpace, arena);
    }

    /** {@return a read-only view of this array} */
    public Array asReadOnly() {
        return readOnly ? this : new Array(device != null ? segment : segment.asReadOnly(), shape, slotOffset, strides,
                true, provider, device);
    }

    /**
     * {@return the slot of the element at {@code index} in {@link #segment()}}
     *
     * @throws IndexOutOfBoundsException if the index has the wrong rank or is out of bounds
     * @throws IllegalStateException     if the memory is not host-accessible
     */
    public long slot(long... index) {
        return ArraySlots.slot(this, index);
    }

    private Array writable() {
        if (readOnly) {
            throw Accessors.readOnly(shape);
        }
        return this;
    }

    RuntimeException badAccess(long... index) {
        if (accessRank < 0) {
            return notHostAccessible(shape, provider);
        }
        return dev.tegula.core.internal.IndexErrors.rankMismatch(index, shape);
    }

    IndexOutOfBoundsException outOfBounds(long... index) {
        return Accessors.outOfBounds(shape, index);
    }

    static IllegalStateException notHostAccessible(ArrayShape shape, MemorySpaceProvider provider) {
        return new IllegalStateException("elements of " + shape + " are in memory space S("
                + shape.layout().memorySpace() + ") of provider " + provider.name()
                + ", which the host cannot address: map it (Array.map) or relayout it to host memory"
                + " (Relayout.copy, copyTo)");
    }

    // ---- typed accessors -------------------------------------------------------------------------
    // Every accessor: IndexOutOfBoundsException (bad index), IllegalStateException (closed arena or
    // memory not host-accessible), WrongThreadException (confined arena, other thread); setters also
    // UnsupportedOperationException (read-only). Conversions: see the class documentation.

    // Typed accessor objects: one final class per element type (generated from one template), for loops
    // that run over many arrays and layouts. Each method returns the one instance this array keeps.

    /**
     * {@return the accessor of this f32 array's elements: one exact class for every layout, for loops
     * that run over many arrays} (see {@link FloatAccessor}; {@link Runs} walks whole arrays faster).
     * The other element types have theirs: {@link #doubleAccessor()} (f64), {@link #longAccessor()}
     * (s64), {@link #intAccessor()} (s32), {@link #shortAccessor()} (s16), {@link #byteAccessor()}
     * (s8), {@link #unsignedByteAccessor()} (u8), and float-valued ones for the narrow floats:
     * {@link #bfloat16Accessor()}, {@link #float16Accessor()}, {@link #float8Accessor()}. Each
     * returns the same object on every call, immutable, valid as long as this array; each throws as
     * this one does.
     *
     * @throws IllegalArgumentException if the element type is not f32 in 32-bit slots, the rank is not
     *                                  1 to 4, or the tiles do not split each dimension into
     *                                  power-of-two digits (the message names the shape)
     * @throws IllegalStateException    if the memory is not host-accessible
     */
    public FloatAccessor floatAccessor() {
        if (typedAccessor instanceof FloatAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "floatAccessor", FloatAccessor.accepts(type, slotBits), FloatAccessor.TYPES);
    }

    /** {@return the accessor of this f64 array's elements} As {@link #floatAccessor()}; see {@link DoubleAccessor}. */
    public DoubleAccessor doubleAccessor() {
        if (typedAccessor instanceof DoubleAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "doubleAccessor", DoubleAccessor.accepts(type, slotBits), DoubleAccessor.TYPES);
    }

    /** {@return the accessor of this s64 array's elements} As {@link #floatAccessor()}; see {@link LongAccessor}. */
    public LongAccessor longAccessor() {
        if (typedAccessor instanceof LongAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "longAccessor", LongAccessor.accepts(type, slotBits), LongAccessor.TYPES);
    }

    /** {@return the accessor of this s32 array's elements} As {@link #floatAccessor()}; see {@link IntAccessor}. */
    public IntAccessor intAccessor() {
        if (typedAccessor instanceof IntAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "intAccessor", IntAccessor.accepts(type, slotBits), IntAccessor.TYPES);
    }

    /** {@return the accessor of this s16 array's elements} As {@link #floatAccessor()}; see {@link ShortAccessor}. */
    public ShortAccessor shortAccessor() {
        if (typedAccessor instanceof ShortAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "shortAccessor", ShortAccessor.accepts(type, slotBits), ShortAccessor.TYPES);
    }

    /** {@return the accessor of this s8 array's elements} As {@link #floatAccessor()}; see {@link ByteAccessor}. */
    public ByteAccessor byteAccessor() {
        if (typedAccessor instanceof ByteAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "byteAccessor", ByteAccessor.accepts(type, slotBits), ByteAccessor.TYPES);
    }

    /** {@return the accessor of this u8 array's elements} As {@link #floatAccessor()}; see {@link UnsignedByteAccessor}. */
    public UnsignedByteAccessor unsignedByteAccessor() {
        if (typedAccessor instanceof UnsignedByteAccessor x) {
            return x;
        }
        throw Accessors.refused(this, "unsignedByteAccessor", UnsignedByteAccessor.accepts(type, slotBits), UnsignedByteAccessor.TYPES);
    }

    /** {@return the accessor of this bf16 array's elements} As {@link #floatAccessor()}; see {@link BFloat16Accessor}. */
    public BFloat16Accessor bfloat16Accessor() {
        if (typedAccessor instanceof BFloat16Accessor x) {
            return x;
        }
        throw Accessors.refused(this, "bfloat16Accessor", BFloat16Accessor.accepts(type, slotBits), BFloat16Accessor.TYPES);
    }

    /** {@return the accessor of this f16 array's elements} As {@link #floatAccessor()}; see {@link Float16Accessor}. */
    public Float16Accessor float16Accessor() {
        if (typedAccessor instanceof Float16Accessor x) {
            return x;
        }
        throw Accessors.refused(this, "float16Accessor", Float16Accessor.accepts(type, slotBits), Float16Accessor.TYPES);
    }

    /** {@return the accessor of this 8-bit float (fp8, fp6) array's elements} As {@link #floatAccessor()}; see {@link Float8Accessor}. */
    public Float8Accessor float8Accessor() {
        if (typedAccessor instanceof Float8Accessor x) {
            return x;
        }
        throw Accessors.refused(this, "float8Accessor", Float8Accessor.accepts(type, slotBits), Float8Accessor.TYPES);
    }

    /** {@return the element at {@code index} as a float} */
    public float getFloat(long... index) { return ElementIO.getFloat(this, ArraySlots.slot(this, index)); }
    /** {@return element {@code (i)} as a float} */
    public float getFloat(long i) {
        return typedAccessor instanceof FloatAccessor x ? x.get(i) : ElementIO.getFloat(this, ArraySlots.slot(this, i));
    }
    /** {@return element {@code (i, j)} as a float} */
    public float getFloat(long i, long j) {
        return typedAccessor instanceof FloatAccessor x ? x.get(i, j) : ElementIO.getFloat(this, ArraySlots.slot(this, i, j));
    }
    /** {@return element {@code (i, j, k)} as a float} */
    public float getFloat(long i, long j, long k) {
        return typedAccessor instanceof FloatAccessor x ? x.get(i, j, k) : ElementIO.getFloat(this, ArraySlots.slot(this, i, j, k));
    }
    /** {@return element {@code (i, j, k, l)} as a float} */
    public float getFloat(long i, long j, long k, long l) {
        return typedAccessor instanceof FloatAccessor x ? x.get(i, j, k, l) : ElementIO.getFloat(this, ArraySlots.slot(this, i, j, k, l));
    }
    /** Sets the element at {@code index} to {@code value}, converted to the element type. */
    public void setFloat(long[] index, float value) { ElementIO.setFloat(writable(), ArraySlots.slot(this, index), value); }
    /** Sets element {@code (i)}. */
    public void setFloat(long i, float value) {
        if (typedAccessor instanceof FloatAccessor x) {
            x.set(i, value);
        } else {
            ElementIO.setFloat(writable(), ArraySlots.slot(this, i), value);
        }
    }
    /** Sets element {@code (i, j)}. */
    public void setFloat(long i, long j, float value) {
        if (typedAccessor instanceof FloatAccessor x) {
            x.set(i, j, value);
        } else {
            ElementIO.setFloat(writable(), ArraySlots.slot(this, i, j), value);
        }
    }
    /** Sets element {@code (i, j, k)}. */
    public void setFloat(long i, long j, long k, float value) {
        if (typedAccessor instanceof FloatAccessor x) {
            x.set(i, j, k, value);
        } else {
            ElementIO.setFloat(writable(), ArraySlots.slot(this, i, j, k), value);
        }
    }
    /** Sets element {@code (i, j, k, l)}. */
    public void setFloat(long i, long j, long k, long l, float value) {
        if (typedAccessor instanceof FloatAccessor x) {
            x.set(i, j, k, l, value);
        } else {
            ElementIO.setFloat(writable(), ArraySlots.slot(this, i, j, k, l), value);
        }
    }

    /** {@return the element at {@code index} as a double} */
    public double getDouble(long... index) { return ElementIO.getDouble(this, ArraySlots.slot(this, index)); }
    /** {@return element {@code (i)} as a double} */
    public double getDouble(long i) {
        return typedAccessor instanceof DoubleAccessor x ? x.get(i) : ElementIO.getDouble(this, ArraySlots.slot(this, i));
    }
    /** {@return element {@code (i, j)} as a double} */
    public double getDouble(long i, long j) {
        return typedAccessor instanceof DoubleAccessor x ? x.get(i, j) : ElementIO.getDouble(this, ArraySlots.slot(this, i, j));
    }
    /** {@return element {@code (i, j, k)} as a double} */
    public double getDouble(long i, long j, long k) {
        return typedAccessor instanceof DoubleAccessor x ? x.get(i, j, k) : ElementIO.getDouble(this, ArraySlots.slot(this, i, j, k));
    }
    /** {@return element {@code (i, j, k, l)} as a double} */
    public double getDouble(long i, long j, long k, long l) {
        return typedAccessor instanceof DoubleAccessor x ? x.get(i, j, k, l) : ElementIO.getDouble(this, ArraySlots.slot(this, i, j, k, l));
    }
    /** Sets the element at {@code index} to {@code value}, converted to the element type. */
    public void setDouble(long[] index, double value) { ElementIO.setDouble(writable(), ArraySlots.slot(this, index), value); }
    /** Sets element {@code (i)}. */
    public void setDouble(long i, double value) {
        if (typedAccessor instanceof DoubleAccessor x) {
            x.set(i, value);
        } else {
            ElementIO.setDouble(writable(), ArraySlots.slot(this, i), value);
        }
    }
    /** Sets element {@code (i, j)}. */
    public void setDouble(long i, long j, double value) {
        if (typedAccessor instanceof DoubleAccessor x) {
            x.set(i, j, value);
        } else {
            ElementIO.setDouble(writable(), ArraySlots.slot(this, i, j), value);
        }
    }
    /** Sets element {@code (i, j, k)}. */
    public void setDouble(long i, long j, long k, double value) {
        if (typedAccessor instanceof DoubleAccessor x) {
            x.set(i, j, k, value);
        } else {
            ElementIO.setDouble(writable(), ArraySlots.slot(this, i, j, k), value);
        }
    }
    /** Sets element {@code (i, j, k, l)}. */
    public void setDouble(long i, long j, long k, long l, double value) {
        if (typedAccessor instanceof DoubleAccessor x) {
            x.set(i, j, k, l, value);
        } else {
            ElementIO.setDouble(writable(), ArraySlots.slot(this, i, j, k, l), value);
        }
    }

    /** {@return the element at {@code index} as a long (u64: the raw bit pattern)} */
    public long getLong(long... index) { return ElementIO.getLong(this, ArraySlots.slot(this, index)); }
    /** {@return element {@code (i)} as a long} */
    public long getLong(long i) {
        return typedAccessor instanceof LongAccessor x ? x.get(i) : ElementIO.getLong(this, ArraySlots.slot(this, i));
    }
    /** {@return element {@code (i, j)} as a long} */
    public long getLong(long i, long j) {
        return typedAccessor instanceof LongAccessor x ? x.get(i, j) : ElementIO.getLong(this, ArraySlots.slot(this, i, j));
    }
    /** {@return element {@code (i, j, k)} as a long} */
    public long getLong(long i, long j, long k) {
        return typedAccessor instanceof LongAccessor x ? x.get(i, j, k) : ElementIO.getLong(this, ArraySlots.slot(this, i, j, k));
    }
    /** {@return element {@code (i, j, k, l)} as a long} */
    public long getLong(long i, long j, long k, long l) {
        return typedAccessor instanceof LongAccessor x ? x.get(i, j, k, l) : ElementIO.getLong(this, ArraySlots.slot(this, i, j, k, l));
    }
    /** Sets the element at {@code index} to {@code value}, converted to the element type. */
    public void setLong(long[] index, long value) { ElementIO.setLong(writable(), ArraySlots.slot(this, index), value); }
    /** Sets element {@code (i)}. */
    public void setLong(long i, long value) {
        if (typedAccessor instanceof LongAccessor x) {
            x.set(i, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i), value);
        }
    }
    /** Sets element {@code (i, j)}. */
    public void setLong(long i, long j, long value) {
        if (typedAccessor instanceof LongAccessor x) {
            x.set(i, j, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j), value);
        }
    }
    /** Sets element {@code (i, j, k)}. */
    public void setLong(long i, long j, long k, long value) {
        if (typedAccessor instanceof LongAccessor x) {
            x.set(i, j, k, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j, k), value);
        }
    }
    /** Sets element {@code (i, j, k, l)}. */
    public void setLong(long i, long j, long k, long l, long value) {
        if (typedAccessor instanceof LongAccessor x) {
            x.set(i, j, k, l, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j, k, l), value);
        }
    }

    /** {@return the element at {@code index} as an int} */
    public int getInt(long... index) { return ElementIO.getInt(this, ArraySlots.slot(this, index)); }
    /** {@return element {@code (i)} as an int} */
    public int getInt(long i) {
        return typedAccessor instanceof IntAccessor x ? x.get(i) : ElementIO.getInt(this, ArraySlots.slot(this, i));
    }
    /** {@return element {@code (i, j)} as an int} */
    public int getInt(long i, long j) {
        return typedAccessor instanceof IntAccessor x ? x.get(i, j) : ElementIO.getInt(this, ArraySlots.slot(this, i, j));
    }
    /** {@return element {@code (i, j, k)} as an int} */
    public int getInt(long i, long j, long k) {
        return typedAccessor instanceof IntAccessor x ? x.get(i, j, k) : ElementIO.getInt(this, ArraySlots.slot(this, i, j, k));
    }
    /** {@return element {@code (i, j, k, l)} as an int} */
    public int getInt(long i, long j, long k, long l) {
        return typedAccessor instanceof IntAccessor x ? x.get(i, j, k, l) : ElementIO.getInt(this, ArraySlots.slot(this, i, j, k, l));
    }
    /** Sets the element at {@code index} to {@code value}, converted to the element type. */
    public void setInt(long[] index, int value) { ElementIO.setLong(writable(), ArraySlots.slot(this, index), value); }
    /** Sets element {@code (i)}. */
    public void setInt(long i, int value) {
        if (typedAccessor instanceof IntAccessor x) {
            x.set(i, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i), value);
        }
    }
    /** Sets element {@code (i, j)}. */
    public void setInt(long i, long j, int value) {
        if (typedAccessor instanceof IntAccessor x) {
            x.set(i, j, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j), value);
        }
    }
    /** Sets element {@code (i, j, k)}. */
    public void setInt(long i, long j, long k, int value) {
        if (typedAccessor instanceof IntAccessor x) {
            x.set(i, j, k, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j, k), value);
        }
    }
    /** Sets element {@code (i, j, k, l)}. */
    public void setInt(long i, long j, long k, long l, int value) {
        if (typedAccessor instanceof IntAccessor x) {
            x.set(i, j, k, l, value);
        } else {
            ElementIO.setLong(writable(), ArraySlots.slot(this, i, j, k, l), value);
        }
    }

    /** {@return the element at {@code index} as a boolean (non-zero is true)} */
    public boolean getBoolean(long... index) { return ElementIO.getBoolean(this, ArraySlots.slot(this, index)); }
    /** {@return element {@code (i)} as a boolean} */
    public boolean getBoolean(long i) { return ElementIO.getBoolean(this, ArraySlots.slot(this, i)); }
    /** {@return element {@code (i, j)} as a boolean} */
    public boolean getBoolean(long i, long j) { return ElementIO.getBoolean(this, ArraySlots.slot(this, i, j)); }
    /** {@return element {@code (i, j, k)} as a boolean} */
    public boolean getBoolean(long i, long j, long k) { return ElementIO.getBoolean(this, ArraySlots.slot(this, i, j, k)); }
    /** {@return element {@code (i, j, k, l)} as a boolean} */
    public boolean getBoolean(long i, long j, long k, long l) { return ElementIO.getBoolean(this, ArraySlots.slot(this, i, j, k, l)); }
    /** Sets the element at {@code index} to 1 or 0 in the element type. */
    public void setBoolean(long[] index, boolean value) { ElementIO.setBoolean(writable(), ArraySlots.slot(this, index), value); }
    /** Sets element {@code (i)}. */
    public void setBoolean(long i, boolean value) { ElementIO.setBoolean(writable(), ArraySlots.slot(this, i), value); }
    /** Sets element {@code (i, j)}. */
    public void setBoolean(long i, long j, boolean value) { ElementIO.setBoolean(writable(), ArraySlots.slot(this, i, j), value); }
    /** Sets element {@code (i, j, k)}. */
    public void setBoolean(long i, long j, long k, boolean value) { ElementIO.setBoolean(writable(), ArraySlots.slot(this, i, j, k), value); }
    /** Sets element {@code (i, j, k, l)}. */
    public void setBoolean(long i, long j, long k, long l, boolean value) { ElementIO.setBoolean(writable(), ArraySlots.slot(this, i, j, k, l), value); }

    /**
     * {@return the real part of the complex element at {@code index}} (for real types: the value)
     */
    public double getReal(long... index) {
        long s = ArraySlots.slot(this, index);
        return type.isComplex() ? ElementIO.getReal(this, s) : ElementIO.getDouble(this, s);
    }

    /** {@return the imaginary part of the complex element at {@code index} (for real types: 0)} */
    public double getImaginary(long... index) {
        long s = ArraySlots.slot(this, index);
        if (!type.isComplex()) {
            // the answer is 0, but the element is still read: after the arena closed, or from a thread a
            // confined arena does not belong to, this accessor throws like every other one
            ElementIO.getDouble(this, s);
            return 0.0;
        }
        return ElementIO.getImaginary(this, s);
    }

    /**
     * Sets the complex element at {@code index} (c64 rounds both parts to float).
     *
     * @throws IllegalArgumentException if the element type is not complex
     */
    public void setComplex(long[] index, double real, double imaginary) {
        if (!type.isComplex()) {
            throw new IllegalArgumentException("setComplex: element type " + type + " is not complex");
        }
        ElementIO.setComplex(writable(), ArraySlots.slot(this, index), real, imaginary);
    }

    /**
     * {@return the stored bits of the element at {@code index}, zero-extended} (c64: real part in the
     * low 32 bits; packed layouts: the slot's bits)
     *
     * @throws IllegalArgumentException for c128, whose 128 bits do not fit
     */
    public long getRawBits(long... index) {
        long s = ArraySlots.slot(this, index);
        if (type == ElementType.C128) {
            throw new IllegalArgumentException("getRawBits: c128 elements have 128 bits");
        }
        return ElementIO.readRaw(this, s);
    }

    /**
     * Stores the low bits of {@code bits} as the element at {@code index}, unconverted.
     *
     * @throws IllegalArgumentException for c128
     */
    public void setRawBits(long[] index, long bits) {
        if (type == ElementType.C128) {
            throw new IllegalArgumentException("setRawBits: c128 elements have 128 bits");
        }
        ElementIO.writeRaw(writable(), ArraySlots.slot(this, index), bits);
    }

    // ---- bulk ------------------------------------------------------------------------------------

    /** Sets every element (not the padding) to {@code value}, converted as {@link #setDouble(long[], double)}. */
    public void fill(double value) { ArrayBulk.fill(writable(), value); }
    /** Sets every element (not the padding) to {@code value}, converted as {@link #setLong(long[], long)}. */
    public void fill(long value) { ArrayBulk.fill(writable(), value); }
    /** Sets every element (not the padding) to 1 or 0. */
    public void fill(boolean value) { ArrayBulk.fill(writable(), value ? 1L : 0L); }

    // Bulk copies between the elements, in logical row-major order, and Java arrays. Each method
    // reads or writes the elements as the accessor of its Java type does (to*Array as get*, copyFrom as
    // set*; short and byte as (short)/(byte) getLong and setLong). They run, in this order of
    // preference: as one MemorySegment.copy when the elements lie in row-major order in consecutive
    // slots of the Java type's width and the element type is that of the Java type (or its unsigned
    // twin: u64, u32, u16, u8); as a relayout into or out of the Java array's heap segment through the
    // relayout engine of module vector (Relayout.copy, found through ServiceLoader) when that module is
    // present and converts as the accessor does; else element by element through the accessors.
    // Destination padding slots that a relayout passes get the layout's padding value.

    /**
     * Copies {@code values} into the elements in logical row-major order, converting as
     * {@link #setFloat(long[], float)} does.
     *
     * <p>Every {@code copyFrom} and {@code to*Array} method is a relayout between this array's layout
     * and a dense row-major Java array: one {@link MemorySegment#copy} where this array already is
     * dense row-major of the Java type's width and element type (unsigned twins included); else
     * through the relayout engine ({@code Relayout.copy}) when module {@code dev.tegula.vector} is on
     * the module or class path and the JVM has the Vector API; else element by element through the
     * accessors (the same values, slower). Padding slots that a relayout writes get the layout's
     * padding value. The calling thread does the work; threads and lifetime are as for the accessors.
     *
     * @throws IllegalArgumentException      if {@code values.length} is not the element count
     * @throws IllegalStateException         if the arena is closed or the memory is not host-accessible
     * @throws UnsupportedOperationException if this array is read-only
     */
    public void copyFrom(float[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(float[])}, converting as {@link #setDouble(long[], double)}. */
    public void copyFrom(double[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(float[])}, converting as {@link #setLong(long[], long)}. */
    public void copyFrom(long[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(float[])}, converting as {@link #setInt(long[], int)}. */
    public void copyFrom(int[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(float[])}; values are numbers (not raw bytes) converted as {@link #setLong(long[], long)}. */
    public void copyFrom(short[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(short[])}. */
    public void copyFrom(byte[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }
    /** As {@link #copyFrom(float[])}, writing 1 or 0 (always element by element). */
    public void copyFrom(boolean[] values) { ArrayBulk.checkLength(this, values); copyFrom(values, 0); }

    /**
     * Copies {@code src[offset]} to {@code src[offset + elementCount - 1]} into the elements in logical
     * row-major order, as {@link #copyFrom(float[])} does (allocating nothing when it runs as a copy or a
     * relayout). {@code src} may hold more values around them.
     *
     * @throws IndexOutOfBoundsException     if {@code offset} is negative or {@code src} has fewer than
     *                                       {@code offset + elementCount} values (the message names them)
     * @throws IllegalStateException         if the arena is closed or the memory is not host-accessible
     * @throws UnsupportedOperationException if this array is read-only
     */
    public void copyFrom(float[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.FLOAT, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(double[])}. */
    public void copyFrom(double[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.DOUBLE, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(long[])}. */
    public void copyFrom(long[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.LONG, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(int[])}. */
    public void copyFrom(int[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.INT, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(short[])}. */
    public void copyFrom(short[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.SHORT, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(byte[])}. */
    public void copyFrom(byte[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.BYTE, src, offset); }
    /** As {@link #copyFrom(float[], int)}, converting as {@link #copyFrom(boolean[])}. */
    public void copyFrom(boolean[] src, int offset) { ArrayBulk.copyFrom(writable(), ArrayBulk.JavaArray.BOOLEAN, src, offset); }

    /**
     * {@return the elements in logical row-major order, as {@link #getFloat(long...)} reads them} Runs
     * as {@link #copyFrom(float[])} describes.
     *
     * @throws IllegalArgumentException if there are more than {@code Integer.MAX_VALUE - 8} elements
     * @throws IllegalStateException    if the arena is closed or the memory is not host-accessible
     */
    public float[] toFloatArray() { return (float[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.FLOAT); }
    /** {@return the elements in row-major order, as {@link #getDouble(long...)} reads them} As {@link #toFloatArray()}. */
    public double[] toDoubleArray() { return (double[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.DOUBLE); }
    /** {@return the elements in row-major order, as {@link #getLong(long...)} reads them} As {@link #toFloatArray()}. */
    public long[] toLongArray() { return (long[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.LONG); }
    /** {@return the elements in row-major order, as {@link #getInt(long...)} reads them} As {@link #toFloatArray()}. */
    public int[] toIntArray() { return (int[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.INT); }
    /** {@return the elements in row-major order, {@code (short) getLong}} As {@link #toFloatArray()}. */
    public short[] toShortArray() { return (short[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.SHORT); }
    /** {@return the elements in row-major order, {@code (byte) getLong}} As {@link #toFloatArray()}. */
    public byte[] toByteArray() { return (byte[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.BYTE); }
    /** {@return the elements in row-major order, as {@link #getBoolean(long...)} reads them (always element by element)} */
    public boolean[] toBooleanArray() { return (boolean[]) ArrayBulk.toNewArray(this, ArrayBulk.JavaArray.BOOLEAN); }

    /**
     * Writes the elements in logical row-major order, as {@link #getFloat(long...)} reads them, into
     * {@code dst[offset]} to {@code dst[offset + elementCount - 1]}; the rest of {@code dst} is not
     * touched. Runs as {@link #copyFrom(float[])} describes, allocating nothing when it runs as a copy
     * or a relayout: a caller can reuse one buffer.
     *
     * @throws IndexOutOfBoundsException if {@code offset} is negative or {@code dst} has fewer than
     *                                   {@code offset + elementCount} places (the message names them)
     * @throws IllegalStateException     if the arena is closed or the memory is not host-accessible
     */
    public void toFloatArray(float[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.FLOAT, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toDoubleArray()}. */
    public void toDoubleArray(double[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.DOUBLE, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toLongArray()}. */
    public void toLongArray(long[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.LONG, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toIntArray()}. */
    public void toIntArray(int[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.INT, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toShortArray()}. */
    public void toShortArray(short[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.SHORT, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toByteArray()}. */
    public void toByteArray(byte[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.BYTE, dst, offset); }
    /** As {@link #toFloatArray(float[], int)}, reading as {@link #toBooleanArray()}. */
    public void toBooleanArray(boolean[] dst, int offset) { ArrayBulk.toArray(this, ArrayBulk.JavaArray.BOOLEAN, dst, offset); }

    // Bytes for native consumers (ONNX Runtime, Jlama, DLPack importers): a row-major view as a
    // ByteBuffer, and a copy into row-major when the layout is another.

    /**
     * {@return the elements' bytes as a {@link java.nio.ByteBuffer} in native byte order, without copying}
     * For arrays whose elements lie in row-major (C) order in consecutive slots of whole bytes: dense
     * row-major arrays, and views of them that stay contiguous (a range of rows). Position 0, limit and
     * capacity {@code elementCount × bytes per element}. Writes through the buffer are writes to the
     * array; a read-only array gives a read-only buffer.
     *
     * <p><b>Lifetime.</b> The buffer is valid while the array's arena is open. A native consumer
     * handed the buffer or its address (ONNX Runtime's {@code OnnxTensor.createTensor}, Jlama, a
     * DLPack importer) keeps only the address: if the arena is closed while the consumer still uses
     * it, the JVM crashes inside the native library (reproduced with ONNX Runtime: {@code SIGSEGV} in
     * {@code libonnxruntime.so}), where Java would have thrown {@link IllegalStateException}. So
     * close the consumer's objects (tensors, ONNX Runtime's {@code OrtSession}s, models) before the arena, for example with the
     * arena's {@code try} block around them; or allocate in {@link Arena#ofAuto()} and keep this
     * array or the buffer reachable (a field next to the consumer's object) for as long as the
     * consumer may read the memory.
     *
     * {@snippet :
     * try (Arena arena = Arena.ofConfined()) {
     *     Array rm = weights.toRowMajor(arena);                 // no copy if already row-major
     *     java.nio.FloatBuffer data = rm.asByteBuffer().asFloatBuffer();
     *     // try (OnnxTensor t = OnnxTensor.createTensor(env, data, dims)) { ... }   closed before the arena
     * }
     * }
     *
     * @throws IllegalStateException if the layout is not dense row-major (tiled, padded, transposed,
     *                               strided, packed {@code E(n)}: the message names
     *                               {@code Relayout.to} and {@link #toRowMajor}), the buffer would hold
     *                               more than {@code Integer.MAX_VALUE} bytes, the memory is not
     *                               host-accessible, or the arena is closed
     */
    public java.nio.ByteBuffer asByteBuffer() { return ArrayBulk.asByteBuffer(this); }

    /**
     * {@return this array if it is dense in the row-major layout ({@link #isDenseIn isDenseIn}
     * {@code (Layout.rowMajor(rank))}), else a new dense row-major copy allocated in {@code arena}}
     * The copy has this array's element type and dimensions and runs through the relayout engine
     * ({@code Relayout.copy}) when module {@code dev.tegula.vector} is present, else element by
     * element. Either way {@code result.segment()} from byte 0, and {@link #asByteBuffer()}, hold the
     * elements in C order: the form a native consumer wants. The lifetime rules of
     * {@link #asByteBuffer()} apply to the result's arena (which is this array's when nothing was copied).
     *
     * @throws IllegalStateException if this array is not host-accessible and needs a copy, or an arena is closed
     * @throws WrongThreadException  if a confined arena is used from another thread
     */
    public Array toRowMajor(Arena arena) {
        Objects.requireNonNull(arena, "arena");
        Layout rowMajor = Layout.rowMajor(dims.length);
        if (isDenseIn(rowMajor)) {
            return this;
        }
        if (!isHostAccessible()) {
            throw notHostAccessible(shape, provider);
        }
        Array copy = allocate(arena, shape.withLayout(rowMajor));
        ArrayBulk.relayout(this, copy);
        return copy;
    }

    /**
     * {@return true if {@code other} has the same element type and dimensions and the same element
     * codes at every index, whatever the two layouts} Comparison is of the stored codes: NaNs with
     * equal bits are equal, {@code +0} and {@code -0} differ; pred compares true/false; the spare
     * bits of an unpacked sub-byte slot are ignored.
     */
    public boolean contentEquals(Array other) { return ArrayBulk.contentEquals(this, other); }

    /**
     * Copies this array's elements into {@code destination} of the same layout (memory space aside).
     * Arrays whose layouts describe their memory exactly are copied as bytes with one enqueued copy of
     * the device's provider ({@link MemorySpaceProvider#write}, {@code read} or {@code copy}), awaited
     * before this returns: this is how arrays move between memory spaces. Views (slices, strided
     * views) of one layout are copied element by element in host memory, device arrays through
     * {@linkplain #map mappings}. To move elements into another layout, use {@code Relayout.copy}
     * (module {@code dev.tegula.vector}), the relayout engine.
     *
     * @throws IllegalArgumentException      if element types, dimensions or layouts differ (the message
     *                                       names {@code Relayout.copy}), or views are copied and an
     *                                       array is neither host memory nor mappable
     * @throws IllegalStateException         if an arena is closed
     * @throws UnsupportedOperationException if {@code destination} is read-only
     */
    public void copyTo(Array destination) { ArrayBulk.copyTo(this, destination.writable()); }

    // ---- views -----------------------------------------------------------------------------------

    /** {@return the view of indices {@code [start, end)} of dimension {@code dim}} As {@link #slice(int, long, long, long)} with step 1. */
    public Array slice(int dim, long start, long end) { return Views.slice(this, dim, start, end, 1); }

    /**
     * {@return the view of indices {@code start, start+step, …} below {@code end} of dimension {@code dim}}
     *
     * @throws IndexOutOfBoundsException if {@code dim} is not a dimension or not {@code 0 <= start <= end <= size}
     * @throws IllegalArgumentException  if {@code step < 1}, or the array is tiled and the slice is not tile-aligned
     */
    public Array slice(int dim, long start, long end, long step) { return Views.slice(this, dim, start, end, step); }

    /**
     * {@return the view at index {@code index} of dimension {@code dim}, that dimension dropped}
     *
     * @throws IndexOutOfBoundsException if {@code dim} or {@code index} is out of range
     * @throws IllegalArgumentException  if the array is tiled and the result is not tile-aligned
     */
    public Array select(int dim, long index) { return Views.select(this, dim, index); }

    /**
     * {@return the view whose dimension {@code k} is this array's dimension {@code order[k]}}: a new
     * {@code minor_to_major} (tiles, padding and strides follow), never a copy.
     *
     * @throws IllegalArgumentException if {@code order} is not a permutation of the dimensions
     */
    public Array permute(int... order) { return Views.permute(this, order); }

    /**
     * {@return the view with dimensions {@code dims} of the same elements in logical row-major order}
     *
     * Adding or removing dimensions of size 1 (the other sizes in the same order) is a view on any
     * layout: strided arrays keep their strides, tiled ones their tiles, as long as no tile reaches a
     * dimension of size 1 that is removed or added. Any other change of dimensions needs an untiled
     * array contiguous in row-major order.
     *
     * @throws IllegalArgumentException if a size is negative, the sizes' product exceeds what a
     *                                  {@code long} holds, the element count differs, or the memory
     *                                  does not allow it (the message names the dimensions)
     */
    public Array reshape(long... dims) { return Views.reshape(this, dims); }

    // ---- object ----------------------------------------------------------------------------------

    /** {@return the shape in a header line, then the logical values, NumPy style, with "..." for large arrays} */
    @Override
    public String toString() {
        return ArrayPrinter.print(this);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    static long elementCountOf(long[] dims) {
        long n = 1;
        for (long d : dims) {
            n *= d;
        }
        return n;
    }

    private static long[] nonUnit(long[] dims, long[] strides) {
        return java.util.stream.IntStream.range(0, dims.length).filter(d -> dims[d] > 1)
                .mapToLong(d -> strides[d]).toArray();
    }

    static <T> T requireNonNull(T t, String what) {
        return Objects.requireNonNull(t, what);
    }
}
