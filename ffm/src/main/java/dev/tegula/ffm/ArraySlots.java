package dev.tegula.ffm;

import dev.tegula.core.internal.General;
import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.CarryFormula;
import dev.tegula.core.SlotFormula;
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

    /**
     * {@return the carry formula of a rank 1 to 4 array, or null when it has none} A strided array's
     * is its slot strides; a tiled layout's is core's {@link CarryFormula} of its {@link SlotFormula},
     * where the layout's tiles split each dimension into power-of-two digits. One formula for strided
     * and tiled arrays means one code path in a loop whatever arrays the profile has seen, with few
     * loop invariants (register pressure was what made a polluted tiled loop slow).
     */
    static CarryFormula carry(ArrayShape shape, long[] strides) {
        int rank = shape.rank();
        if (rank < 1 || rank > 4) {
            return null;
        }
        if (strides != null) {
            return CarryFormula.strided(strides);
        }
        return CarryFormula.of(shape).orElse(null);
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
