package dev.tegula.ffm;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;

import dev.tegula.core.CarryFormula;
import dev.tegula.core.ElementType;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Reads and writes the elements of one {@code f32} array by index, through one exact class whatever
 * the layout: the accessor for loops that run over many arrays and layouts in one JVM.
 *
 * {@snippet :
 * FloatAccessor x = array.floatAccessor();         // once, outside the loop
 * for (long i = 0; i < rows; i++) {
 *     for (long j = 0; j < cols; j++) {
 *         x.set(i, j, x.get(i, j) * 2);
 *     }
 * }
 * }
 *
 * <p>{@link Array#getFloat(long, long)} serves every element type and layout from one routine: once
 * a JVM has run it over several types and layouts, a loop that calls it carries every path it has
 * seen. A {@code FloatAccessor} has one element type, f32, and one slot formula with the layout's
 * constants in final fields: {@code slotOffset + Σ x·stride + (x >>> midShift)·midCarry +
 * (x >>> topShift)·topCarry} over the indices {@code x} of the dimensions, which covers row-major,
 * column-major and permuted layouts, strided views and tiled layouts whose tiles split each dimension
 * into power-of-two digits ({@code T(8,128)}, {@code T(8,128)(2,1)}, {@code T(2,2)}, ...). A loop over
 * accessors of different layouts sees one receiver type and no call. The formula's tests (is the
 * innermost index the slot step, are there carry terms) are loop-invariant, so that C2 can compile
 * a loop of writes over a row-major array into vector stores.
 *
 * <p>Each method checks the rank and the indices ({@link IndexOutOfBoundsException}); the segment
 * checks liveness and the owner thread ({@link IllegalStateException}, {@link WrongThreadException});
 * a write to a read-only array throws {@link UnsupportedOperationException}. The accessor is immutable and
 * follows its array's rules for threads and lifetime. For whole arrays, the bulk methods and the
 * kernels over {@link Runs} are faster than any per-element accessor.
 */
public final class FloatAccessor {
    private final MemorySegment segment;
    private final int rank;
    private final long slotOffset;
    private final long d0, d1, d2, d3;
    private final int carries;
    private final long stride0, midShift0, midCarry0, topShift0, topCarry0;
    private final long stride1, midShift1, midCarry1, topShift1, topCarry1;
    private final long stride2, midShift2, midCarry2, topShift2, topCarry2;
    private final long stride3, midShift3, midCarry3, topShift3, topCarry3;
    private final Array array;
    private final boolean readOnly;
    /** The innermost dimension's term is its index: stride 1 and no carry (one loop-invariant test for C2 to unswitch on). */
    private final boolean plainInner;

    FloatAccessor(Array a) {
        if (a.type != ElementType.F32 || a.slotBytes != 4) {
            throw new IllegalArgumentException("floatAccessor: " + a.shape + " is not f32 in 4-byte slots; use "
                    + "getFloat and setFloat (they convert), or the bulk methods");
        }
        if (!a.isHostAccessible()) {
            throw Array.notHostAccessible(a.shape, a.provider);
        }
        if (!a.carry) {
            throw new IllegalArgumentException("floatAccessor: " + a.shape + " is of rank " + a.dims.length
                    + (a.dims.length < 1 || a.dims.length > 4 ? " (ranks 1 to 4 have accessors)"
                    : " with tiles that are not powers of two") + "; use getFloat and setFloat, or walk it with Runs");
        }
        array = a;
        readOnly = a.isReadOnly();
        segment = a.segment;
        rank = a.dims.length;
        slotOffset = a.slotOffset;
        d0 = a.d0; d1 = a.d1; d2 = a.d2; d3 = a.d3;
        CarryFormula f = a.carryFormula;   // core's carry formula, its constants in final fields here
        carries = f.carries();
        stride0 = f.stride(0); midShift0 = f.midShift(0); midCarry0 = f.midCarry(0); topShift0 = f.topShift(0); topCarry0 = f.topCarry(0);
        stride1 = rank > 1 ? f.stride(1) : 0; midShift1 = rank > 1 ? f.midShift(1) : 0; midCarry1 = rank > 1 ? f.midCarry(1) : 0;
        topShift1 = rank > 1 ? f.topShift(1) : 0; topCarry1 = rank > 1 ? f.topCarry(1) : 0;
        stride2 = rank > 2 ? f.stride(2) : 0; midShift2 = rank > 2 ? f.midShift(2) : 0; midCarry2 = rank > 2 ? f.midCarry(2) : 0;
        topShift2 = rank > 2 ? f.topShift(2) : 0; topCarry2 = rank > 2 ? f.topCarry(2) : 0;
        stride3 = rank > 3 ? f.stride(3) : 0; midShift3 = rank > 3 ? f.midShift(3) : 0; midCarry3 = rank > 3 ? f.midCarry(3) : 0;
        topShift3 = rank > 3 ? f.topShift(3) : 0; topCarry3 = rank > 3 ? f.topCarry(3) : 0;
        plainInner = f.isPlain(rank - 1);
    }

    /** {@return the array this accessor reads and writes} */
    public Array array() {
        return array;
    }

    // ---- slots -----------------------------------------------------------------------------------

    /** The term of a dimension other than the innermost: {@code x·stride} plus its carries. */
    private long term(long x, long stride, long midShift, long midCarry, long topShift, long topCarry) {
        long s = x * stride;
        if (carries != 0) {
            s += (x >>> midShift) * midCarry;
            if (carries == 2) {
                s += (x >>> topShift) * topCarry;
            }
        }
        return s;
    }

    /**
     * The innermost term. {@code plainInner} is one loop-invariant test: C2 unswitches a loop over the
     * innermost index on it, and the copy where it holds has a unit-stride address that its
     * vectorizer needs, however many layouts the profile has seen.
     */
    private long last(long x, long stride, long midShift, long midCarry, long topShift, long topCarry) {
        if (plainInner) {
            return x;
        }
        long s = stride == 1 ? x : x * stride;
        if (carries != 0) {
            s += (x >>> midShift) * midCarry;
            if (carries == 2) {
                s += (x >>> topShift) * topCarry;
            }
        }
        return s;
    }

    private long slot(long i) {
        if (rank != 1) {
            throw wrongRank(1);
        }
        try {
            Objects.checkIndex(i, d0);
        } catch (IndexOutOfBoundsException e) {
            throw array.outOfBounds(i);
        }
        return (slotOffset + last(i, stride0, midShift0, midCarry0, topShift0, topCarry0)) << 2;
    }

    private long slot(long i, long j) {
        if (rank != 2) {
            throw wrongRank(2);
        }
        try {
            Objects.checkIndex(i, d0);
            Objects.checkIndex(j, d1);
        } catch (IndexOutOfBoundsException e) {
            throw array.outOfBounds(i, j);
        }
        return (slotOffset + term(i, stride0, midShift0, midCarry0, topShift0, topCarry0)
                + last(j, stride1, midShift1, midCarry1, topShift1, topCarry1)) << 2;
    }

    private long slot(long i, long j, long k) {
        if (rank != 3) {
            throw wrongRank(3);
        }
        try {
            Objects.checkIndex(i, d0);
            Objects.checkIndex(j, d1);
            Objects.checkIndex(k, d2);
        } catch (IndexOutOfBoundsException e) {
            throw array.outOfBounds(i, j, k);
        }
        return (slotOffset + term(i, stride0, midShift0, midCarry0, topShift0, topCarry0)
                + term(j, stride1, midShift1, midCarry1, topShift1, topCarry1)
                + last(k, stride2, midShift2, midCarry2, topShift2, topCarry2)) << 2;
    }

    private long slot(long i, long j, long k, long l) {
        if (rank != 4) {
            throw wrongRank(4);
        }
        try {
            Objects.checkIndex(i, d0);
            Objects.checkIndex(j, d1);
            Objects.checkIndex(k, d2);
            Objects.checkIndex(l, d3);
        } catch (IndexOutOfBoundsException e) {
            throw array.outOfBounds(i, j, k, l);
        }
        return (slotOffset + term(i, stride0, midShift0, midCarry0, topShift0, topCarry0)
                + term(j, stride1, midShift1, midCarry1, topShift1, topCarry1)
                + term(k, stride2, midShift2, midCarry2, topShift2, topCarry2)
                + last(l, stride3, midShift3, midCarry3, topShift3, topCarry3)) << 2;
    }

    private long writable(long byteOffset) {
        if (readOnly) {
            throw new UnsupportedOperationException("array is read-only: " + array.shape);
        }
        return byteOffset;
    }

    private IndexOutOfBoundsException wrongRank(int coordinates) {
        return new IndexOutOfBoundsException("index has " + coordinates + " coordinates, but "
                + array.shape.toStringWithoutLayout() + " has rank " + rank);
    }

    // ---- access ----------------------------------------------------------------------------------

    /** {@return element {@code (i)} of a rank-1 array} */
    public float get(long i) {
        return segment.get(JAVA_FLOAT_UNALIGNED, slot(i));
    }

    /** {@return element {@code (i, j)} of a rank-2 array} */
    public float get(long i, long j) {
        return segment.get(JAVA_FLOAT_UNALIGNED, slot(i, j));
    }

    /** {@return element {@code (i, j, k)} of a rank-3 array} */
    public float get(long i, long j, long k) {
        return segment.get(JAVA_FLOAT_UNALIGNED, slot(i, j, k));
    }

    /** {@return element {@code (i, j, k, l)} of a rank-4 array} */
    public float get(long i, long j, long k, long l) {
        return segment.get(JAVA_FLOAT_UNALIGNED, slot(i, j, k, l));
    }

    /** Sets element {@code (i)} of a rank-1 array. */
    public void set(long i, float value) {
        segment.set(JAVA_FLOAT_UNALIGNED, writable(slot(i)), value);
    }

    /** Sets element {@code (i, j)} of a rank-2 array. */
    public void set(long i, long j, float value) {
        segment.set(JAVA_FLOAT_UNALIGNED, writable(slot(i, j)), value);
    }

    /** Sets element {@code (i, j, k)} of a rank-3 array. */
    public void set(long i, long j, long k, float value) {
        segment.set(JAVA_FLOAT_UNALIGNED, writable(slot(i, j, k)), value);
    }

    /** Sets element {@code (i, j, k, l)} of a rank-4 array. */
    public void set(long i, long j, long k, long l, float value) {
        segment.set(JAVA_FLOAT_UNALIGNED, writable(slot(i, j, k, l)), value);
    }

    @Override
    public String toString() {
        return "FloatAccessor[" + array.shape + "]";
    }
}
