package dev.tegula.core;

import dev.tegula.core.internal.General;
import dev.tegula.core.internal.Strided1;
import dev.tegula.core.internal.Strided2;
import dev.tegula.core.internal.Strided3;
import dev.tegula.core.internal.Strided4;
import dev.tegula.core.internal.StridedN;
import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import java.util.Arrays;

/**
 * A layout-specialised address calculator: maps the multi-index of an element to its slot in the
 * buffer ({@link #slot}), to its byte offset ({@link #byteOffset}) and, for packed sub-byte layouts
 * ({@code E(1)}, {@code E(2)}, {@code E(4)}), to the bit position inside that byte
 * ({@link #bitShift}; element 0 in the low bits).
 *
 * <p>{@link #of(ArrayShape)} picks one {@code final} implementation per layout family, so a loop
 * that uses one calculator sees one exact type: strided (untiled and legacy-padded layouts) of rank
 * 1, 2, 3, 4 and N, with strides in fields; a 2-D tile on the two most minor physical dimensions,
 * optionally followed by a {@code (c,1)} tile ({@code T(8,128)}, {@code T(8,128)(2,1)}), for rank 2
 * and for higher ranks; and a general fallback running XLA's nested-tiling algorithm. All agree with
 * {@link ArrayShape#linearIndex(long...)}. {@link #kind()} names the family a calculator belongs
 * to; Tegula's own modules switch over the sealed type to keep a call site monomorphic.
 *
 * <p>Immutable and thread-safe. Every method checks the index against the shape and throws
 * {@link IndexOutOfBoundsException} naming the index and the shape; the rank-specialised overloads
 * of the matching implementation allocate nothing (a call with the wrong number of coordinates also
 * throws {@link IndexOutOfBoundsException}).
 */
public abstract sealed class Addressing
        permits Strided1, Strided2, Strided3, Strided4, StridedN, Tiled2, TiledN, General {

    final ArrayShape shape;
    final IndexPlan plan;
    final int rank;
    /** Bits of one slot ({@link ArrayShape#slotBits()}). */
    final long bits;
    /** Bytes of one slot (unpacked layouts). */
    final long bytes;
    final boolean packed;

    /** For the implementations in {@code dev.tegula.core.internal} (the only permitted subclasses). */
    protected Addressing(ArrayShape shape) {
        this.shape = shape;
        this.plan = shape.plan();
        this.rank = shape.rank();
        this.bits = shape.slotBits();
        this.packed = bits < 8;
        this.bytes = bits / 8;
    }

    /**
     * {@return the address calculator for this shape's layout}
     *
     * @throws IllegalArgumentException if the shape is not valid or has an unbounded ({@code ?}) dimension
     */
    public static Addressing of(ArrayShape shape) {
        IndexPlan p = shape.plan();
        if (!p.tiled) {
            long[] s = p.logicalStrides;
            return switch (p.rank) {
                case 1 -> new Strided1(shape, p.dims, s);
                case 2 -> new Strided2(shape, p.dims, s);
                case 3 -> new Strided3(shape, p.dims, s);
                case 4 -> new Strided4(shape, p.dims, s);
                default -> new StridedN(shape, p.dims, s);
            };
        }
        if (p.isMinor2Tiling()) {
            long[] t = p.minor2TileSizes();
            return p.rank == 2 ? new Tiled2(shape, p.dims, p.physicalSizes, t[0], t[1], t[2])
                    : new TiledN(shape, p.dims, p.physicalSizes, t[0], t[1], t[2]);
        }
        return new General(shape);
    }

    /**
     * Which specialised address calculator {@link #of(ArrayShape)} picked for a shape: one constant per
     * implementation, named for the layouts it serves. Where a calculator is used in a hot loop, its kind
     * says which exact type the loop sees.
     */
    public enum Kind {
        /** Rank 1, untiled: {@code slot = i·stride}. */
        STRIDED_1,
        /** Rank 2, untiled (any order, legacy padded dimensions included): one stride per dimension. */
        STRIDED_2,
        /** Rank 3, untiled: one stride per dimension. */
        STRIDED_3,
        /** Rank 4, untiled: one stride per dimension. */
        STRIDED_4,
        /** Untiled of rank 0 or of rank 5 and more: a loop over the strides. */
        STRIDED_N,
        /**
         * Rank 2 with one 2-D tile {@code (a,b)} on the two physical dimensions, optionally followed by a
         * {@code (c,1)} tile, as {@code T(8,128)} or {@code T(8,128)(2,1)}.
         */
        TILED_2,
        /**
         * Rank 3 and more with one 2-D tile (and optionally a {@code (c,1)} tile) on the two most minor
         * physical dimensions; the more major dimensions are strided over whole tile grids.
         */
        TILED_N,
        /**
         * Every other tiled layout (a tiled rank-1 array; a first tile of one, three or more dimensions; a
         * second tile other than {@code (c,1)}; three tiles or more): XLA's general nested-tiling algorithm.
         */
        GENERAL
    }

    /** {@return which specialised calculator this is} */
    public final Kind kind() {
        return switch (this) {
            case Strided1 x -> Kind.STRIDED_1;
            case Strided2 x -> Kind.STRIDED_2;
            case Strided3 x -> Kind.STRIDED_3;
            case Strided4 x -> Kind.STRIDED_4;
            case StridedN x -> Kind.STRIDED_N;
            case Tiled2 x -> Kind.TILED_2;
            case TiledN x -> Kind.TILED_N;
            case General x -> Kind.GENERAL;
        };
    }

    /** {@return the shape this calculator addresses} */
    public final ArrayShape shape() {
        return shape;
    }

    /** {@return true if several elements share a byte ({@code E(1)}, {@code E(2)}, {@code E(4)})} */
    public final boolean isPacked() {
        return packed;
    }

    /** {@return the bits of one slot, as {@link ArrayShape#slotBits()}} */
    public final long slotBits() {
        return bits;
    }

    /** {@return the number of slots in the buffer, padding included} */
    public final long slotCount() {
        return plan.slotCount;
    }

    /** {@return the bytes of the buffer} */
    public final long bufferSize() {
        return plan.bufferSize;
    }

    /**
     * {@return the slot of the element at {@code index}} (same as {@link ArrayShape#linearIndex(long...)}).
     *
     * @throws IndexOutOfBoundsException if the index has the wrong rank or is out of bounds
     */
    public abstract long slot(long... index);

    /** {@return the slot of element {@code (i)} of a rank-1 array} */
    public long slot(long i) {
        return slot(new long[] {i});
    }

    /** {@return the slot of element {@code (i, j)} of a rank-2 array} */
    public long slot(long i, long j) {
        return slot(new long[] {i, j});
    }

    /** {@return the slot of element {@code (i, j, k)} of a rank-3 array} */
    public long slot(long i, long j, long k) {
        return slot(new long[] {i, j, k});
    }

    /** {@return the slot of element {@code (i, j, k, l)} of a rank-4 array} */
    public long slot(long i, long j, long k, long l) {
        return slot(new long[] {i, j, k, l});
    }

    /** {@return the byte that holds slot {@code slot} (for packed layouts, the byte holding its bits)} */
    public final long byteOffsetOfSlot(long slot) {
        return packed ? (slot * bits) >>> 3 : slot * bytes;
    }

    /** {@return the lowest bit of slot {@code slot} within its byte: 0 for unpacked layouts} */
    public final int bitShift(long slot) {
        return packed ? (int) ((slot * bits) & 7) : 0;
    }

    /** {@return the byte offset of the element at {@code index}} */
    public final long byteOffset(long... index) {
        return byteOffsetOfSlot(slot(index));
    }

    /** {@return the byte offset of element {@code (i)}} */
    public final long byteOffset(long i) {
        return byteOffsetOfSlot(slot(i));
    }

    /** {@return the byte offset of element {@code (i, j)}} */
    public final long byteOffset(long i, long j) {
        return byteOffsetOfSlot(slot(i, j));
    }

    /** {@return the byte offset of element {@code (i, j, k)}} */
    public final long byteOffset(long i, long j, long k) {
        return byteOffsetOfSlot(slot(i, j, k));
    }

    /** {@return the byte offset of element {@code (i, j, k, l)}} */
    public final long byteOffset(long i, long j, long k, long l) {
        return byteOffsetOfSlot(slot(i, j, k, l));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + shape + "]";
    }

    // ---- cold helpers ----------------------------------------------------------------------------------

    static IndexOutOfBoundsException outOfBounds(long[] index, ArrayShape shape) {
        return new IndexOutOfBoundsException("index " + Arrays.toString(index) + " is out of bounds for "
                + shape.toStringWithoutLayout());
    }

    /** {@return the exception for a wrong index: the rank if it differs, else the index and the shape} */
    protected final IndexOutOfBoundsException oob(long... index) {
        if (index.length != rank) {
            return dev.tegula.core.internal.IndexErrors.rankMismatch(index, shape);
        }
        return outOfBounds(index, shape);
    }

    /** {@return true if {@code i} is outside {@code [0, size)}} */
    protected static boolean out(long i, long size) {
        return Long.compareUnsigned(i, size) >= 0;
    }

    /** {@return true if {@code x} is a positive power of two} */
    protected static boolean isPowerOfTwo(long x) {
        return x > 0 && (x & (x - 1)) == 0;
    }

    /**
     * {@return the slot of {@code index} by XLA's general nested-tiling algorithm}, the same as
     * {@link ArrayShape#linearIndex(long...)}
     *
     * @throws IndexOutOfBoundsException if the index has the wrong rank or is out of bounds
     */
    protected final long generalSlot(long[] index) {
        plan.checkIndex(index, shape);
        return plan.linearIndex(index);
    }
}
