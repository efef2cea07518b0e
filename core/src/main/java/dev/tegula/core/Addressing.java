package dev.tegula.core;

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
 * {@link ArrayShape#linearIndex(long...)}. Callers that want to stay monomorphic when several
 * layouts meet at one call site can switch over the sealed type.
 *
 * <p>Immutable and thread-safe. Every method checks the index against the shape and throws
 * {@link IndexOutOfBoundsException} naming the index and the shape; the rank-specialised overloads
 * of the matching implementation allocate nothing (a call with the wrong number of coordinates also
 * throws {@link IndexOutOfBoundsException}).
 */
public abstract sealed class Addressing
        permits Addressing.Strided1, Addressing.Strided2, Addressing.Strided3, Addressing.Strided4,
        Addressing.StridedN, Addressing.Tiled2, Addressing.TiledN, Addressing.General {

    final ArrayShape shape;
    final IndexPlan plan;
    final int rank;
    /** Storage bits of one slot. */
    final long bits;
    /** Bytes of one slot (unpacked layouts). */
    final long bytes;
    final boolean packed;

    Addressing(ArrayShape shape, IndexPlan plan) {
        this.shape = shape;
        this.plan = plan;
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
                case 1 -> new Strided1(shape, p, s);
                case 2 -> new Strided2(shape, p, s);
                case 3 -> new Strided3(shape, p, s);
                case 4 -> new Strided4(shape, p, s);
                default -> new StridedN(shape, p, s);
            };
        }
        if (p.isMinor2Tiling()) {
            long[] t = p.minor2TileSizes();
            return p.rank == 2 ? new Tiled2(shape, p, t[0], t[1], t[2]) : new TiledN(shape, p, t[0], t[1], t[2]);
        }
        return new General(shape, p);
    }

    /** {@return the shape this calculator addresses} */
    public final ArrayShape shape() {
        return shape;
    }

    /** {@return true if several elements share a byte ({@code E(1)}, {@code E(2)}, {@code E(4)})} */
    public final boolean isPacked() {
        return packed;
    }

    /** {@return the storage bits of one element slot} */
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

    final IndexOutOfBoundsException oob(long... index) {
        if (index.length != rank) {
            return new IndexOutOfBoundsException("index has " + index.length + " coordinates, but "
                    + shape.toStringWithoutLayout() + " has rank " + rank);
        }
        return outOfBounds(index, shape);
    }

    static boolean out(long i, long size) {
        return Long.compareUnsigned(i, size) >= 0;
    }

    static boolean isPowerOfTwo(long x) {
        return x > 0 && (x & (x - 1)) == 0;
    }

    // ---- strided ---------------------------------------------------------------------------------------

    /** Untiled rank 1. */
    public static final class Strided1 extends Addressing {
        private final long d0;
        private final long s0;

        Strided1(ArrayShape shape, IndexPlan p, long[] s) {
            super(shape, p);
            d0 = p.dims[0];
            s0 = s[0];
        }

        @Override
        public long slot(long... index) {
            if (index.length != 1) {
                throw oob(index);
            }
            return slot(index[0]);
        }

        @Override
        public long slot(long i) {
            if (out(i, d0)) {
                throw oob(i);
            }
            return i * s0;
        }
    }

    /** Untiled rank 2. */
    public static final class Strided2 extends Addressing {
        private final long d0;
        private final long d1;
        private final long s0;
        private final long s1;

        Strided2(ArrayShape shape, IndexPlan p, long[] s) {
            super(shape, p);
            d0 = p.dims[0];
            d1 = p.dims[1];
            s0 = s[0];
            s1 = s[1];
        }

        @Override
        public long slot(long... index) {
            if (index.length != 2) {
                throw oob(index);
            }
            return slot(index[0], index[1]);
        }

        @Override
        public long slot(long i, long j) {
            if (out(i, d0) || out(j, d1)) {
                throw oob(i, j);
            }
            return i * s0 + j * s1;
        }
    }

    /** Untiled rank 3. */
    public static final class Strided3 extends Addressing {
        private final long d0;
        private final long d1;
        private final long d2;
        private final long s0;
        private final long s1;
        private final long s2;

        Strided3(ArrayShape shape, IndexPlan p, long[] s) {
            super(shape, p);
            d0 = p.dims[0];
            d1 = p.dims[1];
            d2 = p.dims[2];
            s0 = s[0];
            s1 = s[1];
            s2 = s[2];
        }

        @Override
        public long slot(long... index) {
            if (index.length != 3) {
                throw oob(index);
            }
            return slot(index[0], index[1], index[2]);
        }

        @Override
        public long slot(long i, long j, long k) {
            if (out(i, d0) || out(j, d1) || out(k, d2)) {
                throw oob(i, j, k);
            }
            return i * s0 + j * s1 + k * s2;
        }
    }

    /** Untiled rank 4. */
    public static final class Strided4 extends Addressing {
        private final long d0;
        private final long d1;
        private final long d2;
        private final long d3;
        private final long s0;
        private final long s1;
        private final long s2;
        private final long s3;

        Strided4(ArrayShape shape, IndexPlan p, long[] s) {
            super(shape, p);
            d0 = p.dims[0];
            d1 = p.dims[1];
            d2 = p.dims[2];
            d3 = p.dims[3];
            s0 = s[0];
            s1 = s[1];
            s2 = s[2];
            s3 = s[3];
        }

        @Override
        public long slot(long... index) {
            if (index.length != 4) {
                throw oob(index);
            }
            return slot(index[0], index[1], index[2], index[3]);
        }

        @Override
        public long slot(long i, long j, long k, long l) {
            if (out(i, d0) || out(j, d1) || out(k, d2) || out(l, d3)) {
                throw oob(i, j, k, l);
            }
            return i * s0 + j * s1 + k * s2 + l * s3;
        }
    }

    /** Untiled, any rank (0 and 5+). */
    public static final class StridedN extends Addressing {
        private final long[] dims;
        private final long[] strides;

        StridedN(ArrayShape shape, IndexPlan p, long[] s) {
            super(shape, p);
            dims = p.dims;
            strides = s;
        }

        @Override
        public long slot(long... index) {
            if (index.length != dims.length) {
                throw oob(index);
            }
            long s = 0;
            for (int d = 0; d < dims.length; d++) {
                if (out(index[d], dims[d])) {
                    throw oob(index);
                }
                s += index[d] * strides[d];
            }
            return s;
        }
    }

    // ---- tiled -----------------------------------------------------------------------------------------

    /**
     * Rank 2 with tile {@code (a,b)} on the physical dimensions, optionally followed by {@code (c,1)}:
     * {@code slot = ((r/a)·⌈C/b⌉ + q/b)·⌈a/c⌉·c·b + (((r%a)/c)·b + q%b)·c + (r%a)%c}, where
     * {@code r} is the physically major coordinate and {@code q} the minor one. When {@code a},
     * {@code b} and {@code c} are powers of two, the same formula runs with shifts and masks.
     */
    public static final class Tiled2 extends Addressing {
        private final long d0;
        private final long d1;
        private final boolean swap;
        private final long a;
        private final long b;
        private final long c;
        private final long tilesAcross;
        private final long tileSlots;
        // When a, b and c are powers of two (decided once, here): the same formula with shifts and
        // masks. A long division costs tens of cycles; T(8,128) would otherwise pay for six of them.
        private final boolean pow2;
        private final int aShift;
        private final int bShift;
        private final int cShift;
        private final int tileShift;

        Tiled2(ArrayShape shape, IndexPlan p, long a, long b, long c) {
            super(shape, p);
            d0 = p.dims[0];
            d1 = p.dims[1];
            swap = shape.layout().major(0) != 0;   // logical dim 1 is physically major
            this.a = a;
            this.b = b;
            this.c = c;
            tilesAcross = IndexPlan.ceilDiv(p.physicalSizes[1], b);
            tileSlots = IndexPlan.ceilDiv(a, c) * c * b;
            pow2 = isPowerOfTwo(a) && isPowerOfTwo(b) && isPowerOfTwo(c);   // then tileSlots = max(a,c)·b is one too
            aShift = Long.numberOfTrailingZeros(a);
            bShift = Long.numberOfTrailingZeros(b);
            cShift = Long.numberOfTrailingZeros(c);
            tileShift = Long.numberOfTrailingZeros(tileSlots);
        }

        @Override
        public long slot(long... index) {
            if (index.length != 2) {
                throw oob(index);
            }
            return slot(index[0], index[1]);
        }

        @Override
        public long slot(long i, long j) {
            if (out(i, d0) || out(j, d1)) {
                throw oob(i, j);
            }
            long r = swap ? j : i;
            long q = swap ? i : j;
            if (pow2) {   // r, q >= 0 (checked above): x/2^k = x>>>k, x%2^k = x&(2^k-1)
                long ri = r & (a - 1);
                return (((r >>> aShift) * tilesAcross + (q >>> bShift)) << tileShift)
                        + ((((ri >>> cShift) << bShift) + (q & (b - 1))) << cShift) + (ri & (c - 1));
            }
            return divided(r, q);
        }

        /**
         * The formula with divisions, out of line: six long divisions dwarf a call, and keeping their
         * machine code out of {@link #slot(long, long)} keeps callers that inline it small.
         */
        private long divided(long r, long q) {
            long ri = r % a;
            return ((r / a) * tilesAcross + q / b) * tileSlots + ((ri / c) * b + q % b) * c + ri % c;
        }
    }

    /**
     * Rank 3 and more with tile {@code (a,b)} (and optionally {@code (c,1)}) on the two most minor
     * physical dimensions; the more major physical dimensions are strided over whole tile grids.
     */
    public static final class TiledN extends Addressing {
        private final long[] dims;
        /** Logical dimension at each physical position. */
        private final int[] physical;
        /** Slot stride of each leading physical position (0..rank-3). */
        private final long[] leadStrides;
        private final long a;
        private final long b;
        private final long c;
        private final long tilesAcross;
        private final long tileSlots;
        // When a, b and c are powers of two (decided once, here): the same formula with shifts and
        // masks. A long division costs tens of cycles; T(8,128) would otherwise pay for six of them.
        private final boolean pow2;
        private final int aShift;
        private final int bShift;
        private final int cShift;
        private final int tileShift;

        TiledN(ArrayShape shape, IndexPlan p, long a, long b, long c) {
            super(shape, p);
            dims = p.dims;
            int n = p.rank;
            physical = new int[n];
            for (int q = 0; q < n; q++) {
                physical[q] = shape.layout().major(q);
            }
            this.a = a;
            this.b = b;
            this.c = c;
            tilesAcross = IndexPlan.ceilDiv(p.physicalSizes[n - 1], b);
            tileSlots = IndexPlan.ceilDiv(a, c) * c * b;
            pow2 = isPowerOfTwo(a) && isPowerOfTwo(b) && isPowerOfTwo(c);   // then tileSlots = max(a,c)·b is one too
            aShift = Long.numberOfTrailingZeros(a);
            bShift = Long.numberOfTrailingZeros(b);
            cShift = Long.numberOfTrailingZeros(c);
            tileShift = Long.numberOfTrailingZeros(tileSlots);
            leadStrides = new long[n - 2];
            long stride = IndexPlan.ceilDiv(p.physicalSizes[n - 2], a) * tilesAcross * tileSlots;
            for (int q = n - 3; q >= 0; q--) {
                leadStrides[q] = stride;
                stride *= p.physicalSizes[q];
            }
        }

        @Override
        public long slot(long... index) {
            if (index.length != dims.length) {
                throw oob(index);
            }
            for (int d = 0; d < dims.length; d++) {
                if (out(index[d], dims[d])) {
                    throw oob(index);
                }
            }
            int n = dims.length;
            long s = 0;
            for (int q = 0; q < n - 2; q++) {
                s += index[physical[q]] * leadStrides[q];
            }
            long r = index[physical[n - 2]];
            long col = index[physical[n - 1]];
            if (pow2) {   // as in Tiled2
                long ri = r & (a - 1);
                return s + (((r >>> aShift) * tilesAcross + (col >>> bShift)) << tileShift)
                        + ((((ri >>> cShift) << bShift) + (col & (b - 1))) << cShift) + (ri & (c - 1));
            }
            long ri = r % a;
            return s + ((r / a) * tilesAcross + col / b) * tileSlots + ((ri / c) * b + col % b) * c + ri % c;
        }
    }

    /** Any valid layout: XLA's general nested-tiling algorithm (combined dimensions, long tiles, ...). */
    public static final class General extends Addressing {
        General(ArrayShape shape, IndexPlan p) {
            super(shape, p);
        }

        @Override
        public long slot(long... index) {
            plan.checkIndex(index, shape);
            return plan.linearIndex(index);
        }
    }
}
