package dev.tegula.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One layout's slot of an in-bounds index as one "carry" formula a dimension: for the index
 * {@code x} of dimension {@code d},
 * {@code x·stride(d) + (x >>> midShift(d))·midCarry(d) + (x >>> topShift(d))·topCarry(d)}, and the
 * slot is the sum over the dimensions (plus, for a view, its slot offset). It is the index math of
 * an accessor's hot path: no division, no call, the same code for strided and tiled arrays.
 *
 * <p>A strided array or view ({@link #strided}) has its slot strides as {@code stride} and no
 * carries. A tiled layout has a carry formula ({@link #of(SlotFormula, long[])}) when its
 * {@link SlotFormula} splits each dimension into at most three digits that tile the index's bits
 * from the bottom: divisors {@code 1 = v0 < v1 < v2}, each a power of two, each digit's modulus the
 * ratio to the next divisor, the top digit unbounded or bounded above the dimension's size. With
 * digits {@code x = d0 + d1·v1 + d2·v2} and weights {@code w0, w1, w2}, the slot
 * {@code d0·w0 + d1·w1 + d2·w2} is {@code x·w0 + (x >>> log v1)·(w1 − (v1/v0)·w0)
 * + (x >>> log v2)·(w2 − (v2/v1)·w1)}: each carry takes back what the lower digit's weight wrongly
 * gave the higher digits. The arithmetic may wrap between terms but is exact modulo 2<sup>64</sup>,
 * and the true slot is below 2<sup>63</sup>. A term whose carry is 0 adds 0 whatever its shift.
 *
 * <p>Immutable and thread-safe.
 */
public final class CarryFormula {
    private final long[] stride;
    private final long[] midShift;
    private final long[] midCarry;
    private final long[] topShift;
    private final long[] topCarry;
    private final int carries;

    private CarryFormula(long[] stride, long[] midShift, long[] midCarry, long[] topShift, long[] topCarry) {
        this.stride = stride;
        this.midShift = midShift;
        this.midCarry = midCarry;
        this.topShift = topShift;
        this.topCarry = topCarry;
        int c = 0;
        for (int d = 0; d < stride.length; d++) {
            c = Math.max(c, topCarry[d] != 0 ? 2 : midCarry[d] != 0 ? 1 : 0);
        }
        carries = c;
    }

    /**
     * {@return the carry formula of slot strides: {@code slot = Σ x·slotStrides[d]}, no carries}
     *
     * @throws NullPointerException if {@code slotStrides} is null
     */
    public static CarryFormula strided(long[] slotStrides) {
        int rank = slotStrides.length;
        return new CarryFormula(slotStrides.clone(), new long[rank], new long[rank], new long[rank], new long[rank]);
    }

    /**
     * {@return the carry formula of this shape's layout, or empty where it has none} Empty where
     * core writes no {@link SlotFormula} for the layout or a dimension's digits do not qualify
     * (class comment).
     *
     * @throws IllegalArgumentException if the shape is invalid or has an unbounded dimension
     */
    public static Optional<CarryFormula> of(ArrayShape shape) {
        return SlotFormula.of(shape).flatMap(f -> of(f, shape.dimensions()));
    }

    /**
     * {@return the carry formula of {@code formula} over dimensions of sizes {@code dimensions}, or
     * empty where a dimension's digits do not qualify (class comment)}
     *
     * @throws IllegalArgumentException if a term names a dimension outside {@code dimensions}
     */
    public static Optional<CarryFormula> of(SlotFormula formula, long[] dimensions) {
        int rank = dimensions.length;
        List<List<SlotFormula.Term>> byDim = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            byDim.add(new ArrayList<>());
        }
        for (SlotFormula.Term t : formula.terms()) {
            if (t.dimension() < 0 || t.dimension() >= rank) {
                throw new IllegalArgumentException("formula: term " + t + " names dimension " + t.dimension()
                        + " of a rank-" + rank + " shape");
            }
            byDim.get(t.dimension()).add(t);
        }
        long[] stride = new long[rank];
        long[] midShift = new long[rank];
        long[] midCarry = new long[rank];
        long[] topShift = new long[rank];
        long[] topCarry = new long[rank];
        for (int d = 0; d < rank; d++) {
            SlotFormula.Term[] t = byDim.get(d).toArray(new SlotFormula.Term[0]);
            Arrays.sort(t, (p, q) -> Long.compare(p.divisor(), q.divisor()));
            if (t.length > 3 || (t.length > 0 && t[0].divisor() != 1)) {
                return Optional.empty();
            }
            for (int n = 0; n < t.length; n++) {
                long div = t[n].divisor();
                long mod = t[n].modulus();
                if (Long.bitCount(div) != 1) {
                    return Optional.empty();
                }
                boolean top = n == t.length - 1;
                if (!top && (mod == SlotFormula.UNBOUNDED || t[n + 1].divisor() != div * mod)) {
                    return Optional.empty();   // a gap or an overlap between digits
                }
                if (top && mod != SlotFormula.UNBOUNDED && dimensions[d] > 0 && (dimensions[d] - 1) / div >= mod) {
                    return Optional.empty();   // the top digit would wrap inside the dimension
                }
            }
            stride[d] = t.length > 0 ? t[0].weight() : 0;
            if (t.length > 1) {
                midShift[d] = Long.numberOfTrailingZeros(t[1].divisor());
                midCarry[d] = t[1].weight() - t[1].divisor() * t[0].weight();
            }
            if (t.length > 2) {
                topShift[d] = Long.numberOfTrailingZeros(t[2].divisor());
                topCarry[d] = t[2].weight() - (t[2].divisor() / t[1].divisor()) * t[1].weight();
            }
        }
        return Optional.of(new CarryFormula(stride, midShift, midCarry, topShift, topCarry));
    }

    /** {@return the number of dimensions} */
    public int rank() {
        return stride.length;
    }

    /** {@return slots per unit of dimension {@code d}'s index (its lowest digit's weight)} */
    public long stride(int d) {
        return stride[d];
    }

    /** {@return the shift that gives dimension {@code d}'s second digit and above} 0 where it has no second digit. */
    public long midShift(int d) {
        return midShift[d];
    }

    /** {@return the carry of dimension {@code d}'s second digit} 0 where it has none. */
    public long midCarry(int d) {
        return midCarry[d];
    }

    /** {@return the shift that gives dimension {@code d}'s third digit} 0 where it has none. */
    public long topShift(int d) {
        return topShift[d];
    }

    /** {@return the carry of dimension {@code d}'s third digit} 0 where it has none. */
    public long topCarry(int d) {
        return topCarry[d];
    }

    /** {@return how many carry terms a dimension uses at most: 0 (strided), 1 or 2} */
    public int carries() {
        return carries;
    }

    /** {@return true if dimension {@code d}'s term is its index: stride 1 and no carry} */
    public boolean isPlain(int d) {
        return stride[d] == 1 && midCarry[d] == 0 && topCarry[d] == 0;
    }

    /**
     * {@return the slot of an in-bounds index by this formula, without a view's slot offset} No bounds check.
     *
     * @throws IllegalArgumentException if the index has not one coordinate per dimension
     */
    public long slot(long... index) {
        if (index.length != stride.length) {
            throw new IllegalArgumentException("index: " + index.length + " coordinates for a rank-" + stride.length
                    + " carry formula");
        }
        long s = 0;
        for (int d = 0; d < stride.length; d++) {
            long x = index[d];
            s += x * stride[d] + (x >>> midShift[d]) * midCarry[d] + (x >>> topShift[d]) * topCarry[d];
        }
        return s;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("CarryFormula[");
        for (int d = 0; d < stride.length; d++) {
            b.append(d == 0 ? "" : ", ").append(stride[d]);
            if (midCarry[d] != 0) {
                b.append(" + >>").append(midShift[d]).append("·").append(midCarry[d]);
            }
            if (topCarry[d] != 0) {
                b.append(" + >>").append(topShift[d]).append("·").append(topCarry[d]);
            }
        }
        return b.append(']').toString();
    }
}
