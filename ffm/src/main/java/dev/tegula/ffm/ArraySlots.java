package dev.tegula.ffm;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;

/**
 * The hot path of {@link Array}'s accessors: index to slot. Untiled arrays and strided views add
 * {@code index · stride} from fields (ranks 1 to 4 unrolled); tiled arrays go to core's
 * {@link Addressing}, tested with {@code instanceof} against the sealed leaves so that every call
 * has an exact receiver type and a loop over one array never sees a megamorphic call. One
 * {@code accessRank} comparison covers both the rank check and the host-memory check (it is -1 for
 * memory the host cannot address); the exceptions are built in {@link Array}'s cold helpers.
 *
 * <p>The tiled branch goes through a tiny static method ({@code tiled2}, {@code tiledN}, under 35
 * bytecodes, so C2 inlines it whatever its call frequency). C2 inlines a large callee only where the
 * call is frequent relative to its immediate caller (25%); inside the trampoline the call on the
 * exact tiled type has the trampoline's full frequency, so it stays inlined when a polluted profile
 * says that tiled arrays were a minority of the calls.
 */
final class ArraySlots {
    private ArraySlots() {
    }

    static long slot(Array a, long i) {
        if (a.accessRank != 1) {
            throw a.badAccess(i);
        }
        if (a.strided) {
            if (Long.compareUnsigned(i, a.d0) >= 0) {
                throw a.outOfBounds(i);
            }
            return a.elementOffset + i * a.s0;
        }
        return a.addressing instanceof Addressing.General g ? g.slot(i) : a.addressing.slot(i);
    }

    static long slot(Array a, long i, long j) {
        if (a.accessRank != 2) {
            throw a.badAccess(i, j);
        }
        if (a.strided) {
            if (Long.compareUnsigned(i, a.d0) >= 0 || Long.compareUnsigned(j, a.d1) >= 0) {
                throw a.outOfBounds(i, j);
            }
            return a.elementOffset + i * a.s0 + j * a.s1;
        }
        if (a.digits2 != 0) {
            if (Long.compareUnsigned(i, a.d0) >= 0 || Long.compareUnsigned(j, a.d1) >= 0) {
                throw a.outOfBounds(i, j);
            }
            long s = (((i >>> a.ish0) & a.imk0) << a.iw0) + (((i >>> a.ish1) & a.imk1) << a.iw1)
                    + (((j >>> a.jsh0) & a.jmk0) << a.jw0) + (((j >>> a.jsh1) & a.jmk1) << a.jw1);
            return a.digits2 == 2 ? s
                    : s + (((i >>> a.ish2) & a.imk2) << a.iw2) + (((j >>> a.jsh2) & a.jmk2) << a.jw2);
        }
        return tiled2(a.addressing, i, j);
    }

    /**
     * {@return the inline digit terms of a rank-2 {@link Addressing.Tiled2} layout, or null}: from
     * core's {@link SlotFormula}, when every divisor, modulus and weight is a power of two and each
     * dimension has at most three digits; 19 longs, (shift, mask, weight shift) × 3 for dimension 0,
     * then dimension 1, then the most digits a dimension has (2 or 3). Unused terms have mask 0.
     */
    static long[] digits2(ArrayShape shape, Addressing addressing) {
        if (!(addressing instanceof Addressing.Tiled2)) {
            return null;
        }
        SlotFormula f = SlotFormula.of(shape).orElse(null);
        if (f == null) {
            return null;
        }
        long[] out = new long[19];
        int[] used = new int[2];
        for (SlotFormula.Term t : f.terms()) {
            int d = t.dimension();
            long mod = t.modulus();
            if (Long.bitCount(t.divisor()) != 1 || (mod != SlotFormula.UNBOUNDED && Long.bitCount(mod) != 1)
                    || Long.bitCount(t.weight()) != 1 || used[d] == 3) {
                return null;
            }
            int at = d * 9 + used[d]++ * 3;
            out[at] = Long.numberOfTrailingZeros(t.divisor());
            out[at + 1] = mod == SlotFormula.UNBOUNDED ? -1L : mod - 1;
            out[at + 2] = Long.numberOfTrailingZeros(t.weight());
        }
        out[18] = Math.max(2, Math.max(used[0], used[1]));
        return out;
    }

    // instanceof on the sealed leaves: each call below has an exact receiver type (no megamorphic call)
    private static long tiled2(Addressing t, long i, long j) {
        return t instanceof Addressing.Tiled2 t2 ? t2.slot(i, j) : general(t, i, j);
    }

    private static long general(Addressing t, long i, long j) {
        return t instanceof Addressing.General g ? g.slot(i, j) : t.slot(i, j);
    }

    static long slot(Array a, long i, long j, long k) {
        if (a.accessRank != 3) {
            throw a.badAccess(i, j, k);
        }
        if (a.strided) {
            if (Long.compareUnsigned(i, a.d0) >= 0 || Long.compareUnsigned(j, a.d1) >= 0
                    || Long.compareUnsigned(k, a.d2) >= 0) {
                throw a.outOfBounds(i, j, k);
            }
            return a.elementOffset + i * a.s0 + j * a.s1 + k * a.s2;
        }
        return tiledN(a.addressing, i, j, k);
    }

    private static long tiledN(Addressing t, long i, long j, long k) {
        return t instanceof Addressing.TiledN tn ? tn.slot(i, j, k) : general(t, i, j, k);
    }

    private static long general(Addressing t, long i, long j, long k) {
        return t instanceof Addressing.General g ? g.slot(i, j, k) : t.slot(i, j, k);
    }

    static long slot(Array a, long i, long j, long k, long l) {
        if (a.accessRank != 4) {
            throw a.badAccess(i, j, k, l);
        }
        if (a.strided) {
            if (Long.compareUnsigned(i, a.d0) >= 0 || Long.compareUnsigned(j, a.d1) >= 0
                    || Long.compareUnsigned(k, a.d2) >= 0 || Long.compareUnsigned(l, a.d3) >= 0) {
                throw a.outOfBounds(i, j, k, l);
            }
            return a.elementOffset + i * a.s0 + j * a.s1 + k * a.s2 + l * a.s3;
        }
        if (a.addressing instanceof Addressing.TiledN t) {
            return t.slot(i, j, k, l);
        }
        return a.addressing instanceof Addressing.General g ? g.slot(i, j, k, l) : a.addressing.slot(i, j, k, l);
    }

    static long slot(Array a, long[] index) {
        if (a.accessRank != index.length) {
            throw a.badAccess(index);
        }
        if (a.strided) {
            long s = a.elementOffset;
            for (int d = 0; d < index.length; d++) {
                if (Long.compareUnsigned(index[d], a.dims[d]) >= 0) {
                    throw a.outOfBounds(index);
                }
                s += index[d] * a.strides[d];
            }
            return s;
        }
        if (a.addressing instanceof Addressing.TiledN t) {
            return t.slot(index);
        }
        if (a.addressing instanceof Addressing.Tiled2 t) {
            return t.slot(index);
        }
        return a.addressing instanceof Addressing.General g ? g.slot(index) : a.addressing.slot(index);
    }
}
