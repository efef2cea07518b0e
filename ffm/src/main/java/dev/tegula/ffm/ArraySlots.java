package dev.tegula.ffm;

import dev.tegula.core.internal.General;
import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;
import java.util.Comparator;
import java.util.Objects;

/**
 * The hot path of {@link Array}'s accessors: index to slot. One {@code accessRank} comparison covers
 * both the rank check and the host-memory check (it is -1 for memory the host cannot address); the
 * exceptions are built in {@link Array}'s cold helpers.
 *
 * <p>For ranks 1 to 4, every strided array and every tiled layout whose tiles split each dimension
 * into power-of-two digits ({@link #carry}) evaluates one inline formula from the array's fields:
 * {@code slotOffset + Σ x·stride}, plus, for tiled layouts, one or two "carry" terms
 * {@code (x >>> shift)·carry} a dimension. There is no call in it and few loop invariants (with a
 * polluted profile, C2 compiles every path it saw into the loop, and the invariants of all of them
 * compete for registers): a row-major or column-major read loop runs at the hand loop's speed after
 * a profile of every element type, while a tiled one still depends on how C2 compiles the loop
 * (figures in {@code docs/benchmarks.md}, "Element access").
 *
 * <p>Two details let C2 vectorize a loop of writes over the innermost index, as it does the hand
 * loop. The index checks are {@link Objects#checkIndex(long, long)}, which C2 knows as range checks
 * and lifts out of a counted loop (an unsigned comparison of our own stayed in it, once per element);
 * their exception is replaced by one that names the index and the shape. And the innermost
 * dimension's term is written {@code stride == 1 ? x : x·stride}: the test is loop-invariant, so C2
 * makes a copy of the loop for each answer, and in the unit-stride copy the address steps by a
 * constant, which its vectorizer needs (a stride read from a field is not a constant to it).
 *
 * <p>Other layouts (tiles that are not powers of two, nested tilings beyond a second level, ranks
 * above 4, the varargs accessor) go to core's {@link Addressing}, tested with {@code instanceof}
 * against the sealed leaves inside tiny static methods, so that every call has an exact receiver
 * type, no loop sees a megamorphic call, and C2 inlines them whatever their call frequency.
 */
final class ArraySlots {
    private ArraySlots() {
    }

    static long slot(Array a, long i) {
        if (a.accessRank != 1) {
            throw a.badAccess(i);
        }
        try {
            Objects.checkIndex(i, a.d0);
        } catch (IndexOutOfBoundsException e) {
            throw a.outOfBounds(i);
        }
        if (a.carry) {
            long s = a.slotOffset + (a.stride0 == 1 ? i : i * a.stride0);
            if (a.carries != 0) {
                s += (i >>> a.midShift0) * a.midCarry0;
                if (a.carries == 2) {
                    s += (i >>> a.topShift0) * a.topCarry0;
                }
            }
            return s;
        }
        return a.addressing instanceof General g ? g.slot(i) : a.addressing.slot(i);
    }

    static long slot(Array a, long i, long j) {
        if (a.accessRank != 2) {
            throw a.badAccess(i, j);
        }
        try {
            Objects.checkIndex(i, a.d0);
            Objects.checkIndex(j, a.d1);
        } catch (IndexOutOfBoundsException e) {
            throw a.outOfBounds(i, j);
        }
        if (a.carry) {
            long s = a.slotOffset + i * a.stride0 + (a.stride1 == 1 ? j : j * a.stride1);
            if (a.carries != 0) {   // three levels, so that the common cases carry no unused invariants
                s += (i >>> a.midShift0) * a.midCarry0 + (j >>> a.midShift1) * a.midCarry1;
                if (a.carries == 2) {
                    s += (i >>> a.topShift0) * a.topCarry0 + (j >>> a.topShift1) * a.topCarry1;
                }
            }
            return s;
        }
        return tiled2(a.addressing, i, j);
    }

    /** Index of the constants of one dimension in {@link #carry}'s answer: stride, then (shift, carry) of the middle and the top digit. */
    static final int STRIDE = 0, MID_SHIFT = 1, MID_CARRY = 2, TOP_SHIFT = 3, TOP_CARRY = 4, PER_DIM = 5;

    /**
     * {@return the slot of a rank 1 to 4 array as one "carry" formula a dimension, or null when it cannot be one}
     * For each dimension {@code d} with index {@code x}:
     * {@code x·stride + (x >>> midShift)·midCarry + (x >>> topShift)·topCarry}, five longs
     * ({@link #STRIDE}, {@link #MID_SHIFT}, {@link #MID_CARRY}, {@link #TOP_SHIFT}, {@link #TOP_CARRY})
     * for dimension 0, then five for dimension 1, and so on; the slot is their sum plus the array's
     * slot offset. A strided array has {@code stride} = its stride and no carries
     * ({@code midCarry = topCarry = 0}; a term whose carry is 0 adds 0
     * whatever its shift).
     *
     * <p>A tiled layout qualifies when core's {@link SlotFormula} splits each dimension into at most
     * three digits that tile its index bits from the bottom: divisors {@code 1 = v0 < v1 < v2}, each a
     * power of two, each digit's modulus the ratio to the next divisor, the top digit unbounded (or
     * bounded above the dimension). The weights need not be powers of two. With digits
     * {@code x = d0 + d1·v1 + d2·v2} and weights {@code w0, w1, w2}, the slot
     * {@code d0·w0 + d1·w1 + d2·w2} equals {@code x·w0 + (x >>> log v1)·(w1 − (v1/v0)·w0)
     * + (x >>> log v2)·(w2 − (v2/v1)·w1)}: each carry term replaces what the lower digit's weight
     * wrongly gave the higher digits. The arithmetic may wrap in between but is exact modulo
     * 2<sup>64</sup>, and the true slot is below 2<sup>63</sup>. One formula for strided and tiled
     * arrays means one code path in a loop whatever arrays the profile has seen, with few loop
     * invariants (register pressure was what made a polluted tiled loop slow).
     */
    static long[] carry(ArrayShape shape, long[] strides) {
        int rank = shape.rank();
        if (rank < 1 || rank > 4) {
            return null;
        }
        long[] out = new long[rank * PER_DIM];
        if (strides != null) {
            for (int d = 0; d < rank; d++) {
                out[d * PER_DIM + STRIDE] = strides[d];
            }
            return out;
        }
        SlotFormula f = SlotFormula.of(shape).orElse(null);
        if (f == null) {
            return null;
        }
        for (int d = 0; d < rank; d++) {
            final int dim = d;
            SlotFormula.Term[] t = f.terms().stream().filter(x -> x.dimension() == dim)
                    .sorted(Comparator.comparingLong(SlotFormula.Term::divisor))
                    .toArray(SlotFormula.Term[]::new);
            if (!carries(t, shape.dimension(d), out, d * PER_DIM)) {
                return null;
            }
        }
        return out;
    }

    /** Fills the five constants of one dimension's digits {@code t} (sorted by divisor); false if they do not qualify. */
    private static boolean carries(SlotFormula.Term[] t, long extent, long[] out, int at) {
        if (t.length > 3 || (t.length > 0 && t[0].divisor() != 1)) {
            return false;
        }
        for (int n = 0; n < t.length; n++) {
            long div = t[n].divisor();
            long mod = t[n].modulus();
            if (Long.bitCount(div) != 1) {
                return false;
            }
            boolean top = n == t.length - 1;
            if (!top && (mod == SlotFormula.UNBOUNDED || t[n + 1].divisor() != div * mod)) {
                return false;   // a gap or an overlap between digits
            }
            if (top && mod != SlotFormula.UNBOUNDED && extent > 0 && (extent - 1) / div >= mod) {
                return false;   // the top digit would wrap inside the dimension
            }
        }
        out[at + STRIDE] = t.length > 0 ? t[0].weight() : 0;
        if (t.length > 1) {
            out[at + MID_SHIFT] = Long.numberOfTrailingZeros(t[1].divisor());
            out[at + MID_CARRY] = t[1].weight() - t[1].divisor() * t[0].weight();
        }
        if (t.length > 2) {
            out[at + TOP_SHIFT] = Long.numberOfTrailingZeros(t[2].divisor());
            out[at + TOP_CARRY] = t[2].weight() - (t[2].divisor() / t[1].divisor()) * t[1].weight();
        }
        return true;
    }

    // instanceof on the sealed leaves: each call below has an exact receiver type (no megamorphic call)
    private static long tiled2(Addressing t, long i, long j) {
        return t instanceof Tiled2 t2 ? t2.slot(i, j) : general(t, i, j);
    }

    private static long general(Addressing t, long i, long j) {
        return t instanceof General g ? g.slot(i, j) : t.slot(i, j);
    }

    static long slot(Array a, long i, long j, long k) {
        if (a.accessRank != 3) {
            throw a.badAccess(i, j, k);
        }
        try {
            Objects.checkIndex(i, a.d0);
            Objects.checkIndex(j, a.d1);
            Objects.checkIndex(k, a.d2);
        } catch (IndexOutOfBoundsException e) {
            throw a.outOfBounds(i, j, k);
        }
        if (a.carry) {
            long s = a.slotOffset + i * a.stride0 + j * a.stride1 + (a.stride2 == 1 ? k : k * a.stride2);
            if (a.carries != 0) {
                s += (i >>> a.midShift0) * a.midCarry0 + (j >>> a.midShift1) * a.midCarry1 + (k >>> a.midShift2) * a.midCarry2;
                if (a.carries == 2) {
                    s += (i >>> a.topShift0) * a.topCarry0 + (j >>> a.topShift1) * a.topCarry1 + (k >>> a.topShift2) * a.topCarry2;
                }
            }
            return s;
        }
        return tiledN(a.addressing, i, j, k);
    }

    private static long tiledN(Addressing t, long i, long j, long k) {
        return t instanceof TiledN tn ? tn.slot(i, j, k) : general(t, i, j, k);
    }

    private static long general(Addressing t, long i, long j, long k) {
        return t instanceof General g ? g.slot(i, j, k) : t.slot(i, j, k);
    }

    static long slot(Array a, long i, long j, long k, long l) {
        if (a.accessRank != 4) {
            throw a.badAccess(i, j, k, l);
        }
        try {
            Objects.checkIndex(i, a.d0);
            Objects.checkIndex(j, a.d1);
            Objects.checkIndex(k, a.d2);
            Objects.checkIndex(l, a.d3);
        } catch (IndexOutOfBoundsException e) {
            throw a.outOfBounds(i, j, k, l);
        }
        if (a.carry) {
            long s = a.slotOffset + i * a.stride0 + j * a.stride1 + k * a.stride2 + (a.stride3 == 1 ? l : l * a.stride3);
            if (a.carries != 0) {
                s += (i >>> a.midShift0) * a.midCarry0 + (j >>> a.midShift1) * a.midCarry1 + (k >>> a.midShift2) * a.midCarry2 + (l >>> a.midShift3) * a.midCarry3;
                if (a.carries == 2) {
                    s += (i >>> a.topShift0) * a.topCarry0 + (j >>> a.topShift1) * a.topCarry1 + (k >>> a.topShift2) * a.topCarry2 + (l >>> a.topShift3) * a.topCarry3;
                }
            }
            return s;
        }
        return tiledN(a.addressing, i, j, k, l);
    }

    private static long tiledN(Addressing t, long i, long j, long k, long l) {
        return t instanceof TiledN tn ? tn.slot(i, j, k, l) : general(t, i, j, k, l);
    }

    private static long general(Addressing t, long i, long j, long k, long l) {
        return t instanceof General g ? g.slot(i, j, k, l) : t.slot(i, j, k, l);
    }

    static long slot(Array a, long[] index) {
        if (a.accessRank != index.length) {
            throw a.badAccess(index);
        }
        if (a.strided) {
            long s = a.slotOffset;
            for (int d = 0; d < index.length; d++) {
                if (Long.compareUnsigned(index[d], a.dims[d]) >= 0) {
                    throw a.outOfBounds(index);
                }
                s += index[d] * a.strides[d];
            }
            return s;
        }
        if (a.addressing instanceof TiledN t) {
            return t.slot(index);
        }
        if (a.addressing instanceof Tiled2 t) {
            return t.slot(index);
        }
        return a.addressing instanceof General g ? g.slot(index) : a.addressing.slot(index);
    }
}
