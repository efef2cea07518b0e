package dev.tegula.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A layout's index math written as a sum of digit terms: for an in-bounds logical index {@code e},
 * {@code slot(e) = Σ weight · ((e[dim] / divisor) mod modulus)} (no {@code mod} for terms whose
 * modulus is {@link #UNBOUNDED}). Untiled and legacy-padded layouts have one term per dimension
 * (its stride); a tile splits a dimension's term into an outer and an inner digit; nested tiles and
 * {@code *} combined dimensions give more digits where the tile sizes divide evenly.
 *
 * <p>This is what a relayout planner needs to see a tiled layout as a strided view of a
 * higher-rank digit space. {@link #of(ArrayShape)} returns empty when a tile cuts a digit at a
 * size that does not divide it (then only the general algorithm of {@link ArrayShape#linearIndex}
 * applies). A shape without elements has the formula without terms (there is no index to map).
 * Immutable and thread-safe.
 */
public final class SlotFormula {
    /** Modulus of a term that is not reduced (the most major digit of its dimension). */
    public static final long UNBOUNDED = 0;

    /**
     * One digit term.
     *
     * @param dimension logical dimension
     * @param divisor   the digit is {@code e[dimension] / divisor} ...
     * @param modulus   ... {@code mod modulus}, or {@link #UNBOUNDED}
     * @param weight    slots per unit of the digit
     */
    public record Term(int dimension, long divisor, long modulus, long weight) {
        long value(long e) {
            long q = e / divisor;
            return modulus == UNBOUNDED ? q : q % modulus;
        }
    }

    private final List<Term> terms;

    private SlotFormula(List<Term> terms) {
        this.terms = List.copyOf(terms);
    }

    /** {@return the terms, grouped by logical dimension, finest digit first within a dimension} */
    public List<Term> terms() {
        return terms;
    }

    /** {@return the slot of an in-bounds index by this formula (no bounds check)} */
    public long slot(long... index) {
        long s = 0;
        for (Term t : terms) {
            s += t.weight() * t.value(index[t.dimension()]);
        }
        return s;
    }

    /**
     * {@return the digit-term formula of this shape's layout, or empty where a tile does not divide
     * the digit it cuts} Built once per shape object and kept with it: calls on the same
     * {@code ArrayShape} return the same answer without building it again.
     *
     * @throws IllegalArgumentException if the shape is invalid or has an unbounded dimension
     */
    public static Optional<SlotFormula> of(ArrayShape shape) {
        return shape.plan().slotFormula();
    }

    /**
     * {@return the formula of slot strides: one unbounded term of divisor 1 a dimension, weighted by
     * its stride} It is a strided array's or view's index math without its slot offset.
     */
    public static SlotFormula strided(long... slotStrides) {
        List<Term> terms = new ArrayList<>();
        for (int d = 0; d < slotStrides.length; d++) {
            terms.add(new Term(d, 1, UNBOUNDED, slotStrides[d]));
        }
        return new SlotFormula(terms);
    }

    @Override
    public String toString() {
        return "SlotFormula" + terms;
    }

    // ---- construction (used by IndexPlan) --------------------------------------------------------------

    /** A digit of a coordinate: a term without weight, its coefficient inside the coordinate and its range. */
    record CoordDigit(int dim, long div, long mod, long coef, long range) {
    }

    /** A physical coordinate: a mixed-radix sum of digits (finest first) and its size. */
    static final class Coord {
        final List<CoordDigit> digits;
        final long size;

        Coord(List<CoordDigit> digits, long size) {
            this.digits = digits;
            this.size = size;
        }
    }

    /** Splits a coordinate by tile size t into {outer, inner}, or null if t cuts a digit unevenly. */
    static Coord[] split(Coord c, long t) {
        List<CoordDigit> low = new ArrayList<>();
        List<CoordDigit> high = new ArrayList<>();
        for (CoordDigit g : c.digits) {
            long top = g.coef * g.range;   // coefficient just above this digit
            if (top <= t) {
                // wholly below t: clean if t is a multiple of top, or if nothing lies above this digit
                if (t % top != 0 && !isTopDigit(c, top)) {
                    return null;
                }
                low.add(g);
            } else if (g.coef >= t) {
                if (g.coef % t != 0) {
                    return null;
                }
                high.add(new CoordDigit(g.dim, g.div, g.mod, g.coef / t, g.range));
            } else {
                // t falls inside this digit: coef < t < coef*range
                if (t % g.coef != 0) {
                    return null;
                }
                long f = t / g.coef;
                if (g.mod != UNBOUNDED && g.mod % f != 0) {
                    return null;
                }
                low.add(new CoordDigit(g.dim, g.div, f, g.coef, f));
                long hiMod = g.mod == UNBOUNDED ? UNBOUNDED : g.mod / f;
                long hiRange = Math.ceilDiv(g.range, f);
                high.add(new CoordDigit(g.dim, Math.multiplyExact(g.div, f), hiMod, 1, hiRange));
            }
        }
        return new Coord[] {new Coord(high, Math.ceilDiv(c.size, t)), new Coord(low, t)};
    }

    private static boolean isTopDigit(Coord c, long top) {
        for (CoordDigit g : c.digits) {
            if (g.coef >= top) {
                return false;
            }
        }
        return true;
    }

    /** Merges coordinates (major first) into one: the more minor ones get the small coefficients. */
    static Coord merge(List<Coord> coords) {
        List<CoordDigit> out = new ArrayList<>();
        long coef = 1;
        for (int i = coords.size() - 1; i >= 0; i--) {
            Coord c = coords.get(i);
            for (CoordDigit g : c.digits) {
                out.add(new CoordDigit(g.dim, g.div, g.mod, Math.multiplyExact(g.coef, coef), g.range));
            }
            coef = Math.multiplyExact(coef, c.size);
        }
        return new Coord(out, coef);
    }

    static SlotFormula build(List<Coord> finalCoords, long[] finalStrides, int rank) {
        List<List<Term>> byDim = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            byDim.add(new ArrayList<>());
        }
        for (int q = 0; q < finalCoords.size(); q++) {
            for (CoordDigit g : finalCoords.get(q).digits) {
                long w = Math.multiplyExact(finalStrides[q], g.coef);
                byDim.get(g.dim).add(new Term(g.dim, g.div, g.mod, w));
            }
        }
        List<Term> terms = new ArrayList<>();
        for (List<Term> l : byDim) {
            Term[] a = l.toArray(new Term[0]);
            Arrays.sort(a, (x, y) -> Long.compare(x.divisor(), y.divisor()));
            terms.addAll(Arrays.asList(a));
        }
        return new SlotFormula(terms);
    }
}
