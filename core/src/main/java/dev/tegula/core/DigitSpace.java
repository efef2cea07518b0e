package dev.tegula.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The common digit space of N layouts of the same logical dimensions (the approach of XLA's
 * TransposePlan and HPTT, generalised to tiles): each dimension is split into the mixed-radix digits
 * that any operand's {@link SlotFormula} uses, so that every operand is strided over the digits.
 * Digit {@code k} is {@code (e[dimension(k)] / divisor(k)) mod range(k)} (the top digit of a
 * dimension is not reduced), and moving it by one moves operand {@code x}'s slot by
 * {@code weight(x, k)}: {@code slot_x(e) = Σ_k weight(x, k)·digit_k(e)} for every in-bounds index.
 *
 * <p>Digits are grouped by dimension, dimension 0 first, finest digit first within a dimension
 * (divisor 1 first). A dimension's breakpoints are 1 and every divisor and {@code divisor·modulus}
 * of any operand's terms below its extent; the space exists where each breakpoint divides the next
 * ({@link #of} is empty otherwise). The top digit of a dimension has range
 * {@code ceil(extent / divisor)}, so the digits' box may reach past the extent where a tile is
 * partial: {@link #boxes()} are the boxes of digit ranges that cover exactly {@code [0, extent)}.
 *
 * <p>Immutable and thread-safe.
 */
public final class DigitSpace {
    private final long[] extents;
    private final int[] dimension;
    private final long[] divisor;
    private final long[] range;
    /** [operand][digit]. */
    private final long[][] weight;

    private DigitSpace(long[] extents, int[] dimension, long[] divisor, long[] range, long[][] weight) {
        this.extents = extents;
        this.dimension = dimension;
        this.divisor = divisor;
        this.range = range;
        this.weight = weight;
    }

    /**
     * {@return the common digit space of {@code formulas} over dimensions of sizes {@code extents},
     * or empty where the operands' digits do not nest} A dimension of size 0 gives a space without
     * digits for it (there is no index to map).
     *
     * @param extents  the size of each dimension (for a walk of padding, the padded sizes)
     * @param formulas each operand's slot formula, exact for indices within {@code extents}
     * @throws IllegalArgumentException if an extent is negative or a term names a dimension outside them
     */
    public static Optional<DigitSpace> of(long[] extents, List<SlotFormula> formulas) {
        int rank = extents.length;
        for (int d = 0; d < rank; d++) {
            if (extents[d] < 0) {
                throw new IllegalArgumentException("extents: dimension " + d + " has size " + extents[d]);
            }
        }
        for (SlotFormula f : formulas) {
            for (SlotFormula.Term t : f.terms()) {
                if (t.dimension() < 0 || t.dimension() >= rank) {
                    throw new IllegalArgumentException("formulas: term " + t + " names dimension " + t.dimension()
                            + " of " + rank);
                }
            }
        }
        List<Integer> dims = new ArrayList<>();
        List<Long> divs = new ArrayList<>();
        List<Long> ranges = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            if (extents[d] == 0) {
                continue;
            }
            long[] b = breakpoints(d, extents[d], formulas);
            if (b == null) {
                return Optional.empty();
            }
            for (int k = 0; k < b.length; k++) {
                dims.add(d);
                divs.add(b[k]);
                ranges.add(k + 1 < b.length ? b[k + 1] / b[k] : Math.ceilDiv(extents[d], b[k]));
            }
        }
        int n = dims.size();
        int[] dimension = new int[n];
        long[] divisor = new long[n];
        long[] range = new long[n];
        long[][] weight = new long[formulas.size()][n];
        for (int k = 0; k < n; k++) {
            dimension[k] = dims.get(k);
            divisor[k] = divs.get(k);
            range[k] = ranges.get(k);
            for (int x = 0; x < formulas.size(); x++) {
                weight[x][k] = weight(dimension[k], divisor[k], formulas.get(x).terms());
            }
        }
        return Optional.of(new DigitSpace(extents.clone(), dimension, divisor, range, weight));
    }

    /** The breakpoints of dimension {@code d} ascending, or null if one does not divide the next. */
    private static long[] breakpoints(int d, long size, List<SlotFormula> formulas) {
        TreeSet<Long> breaks = new TreeSet<>();
        breaks.add(1L);
        for (SlotFormula f : formulas) {
            for (SlotFormula.Term term : f.terms()) {
                if (term.dimension() != d) {
                    continue;
                }
                if (term.divisor() < size) {
                    breaks.add(term.divisor());
                }
                if (term.modulus() != SlotFormula.UNBOUNDED) {
                    long top = Math.multiplyExact(term.divisor(), term.modulus());
                    if (top < size) {
                        breaks.add(top);
                    }
                }
            }
        }
        long[] b = breaks.stream().mapToLong(Long::longValue).toArray();
        for (int k = 0; k + 1 < b.length; k++) {
            if (b[k + 1] % b[k] != 0) {
                return null;
            }
        }
        return b;
    }

    /** Slots one unit of the digit of dimension {@code d} with divisor {@code base} moves an operand. */
    private static long weight(int d, long base, List<SlotFormula.Term> terms) {
        long s = 0;
        for (SlotFormula.Term term : terms) {
            if (term.dimension() != d || term.divisor() > base) {
                continue;
            }
            if (term.modulus() != SlotFormula.UNBOUNDED && base >= term.divisor() * term.modulus()) {
                continue;
            }
            s = Math.addExact(s, Math.multiplyExact(term.weight(), base / term.divisor()));
        }
        return s;
    }

    /** {@return the number of dimensions} */
    public int rank() {
        return extents.length;
    }

    /** {@return the size of dimension {@code d} this space covers} */
    public long extent(int d) {
        return extents[d];
    }

    /** {@return the number of operands} */
    public int operandCount() {
        return weight.length;
    }

    /** {@return the number of digits, over all dimensions} */
    public int digitCount() {
        return dimension.length;
    }

    /** {@return the logical dimension of digit {@code k}} */
    public int dimension(int k) {
        return dimension[k];
    }

    /** {@return the divisor of digit {@code k}: one unit of it is {@code divisor} units of its dimension's index} */
    public long divisor(int k) {
        return divisor[k];
    }

    /**
     * {@return the range of digit {@code k}: its values are {@code [0, range)}} For the top digit of a
     * dimension, {@code ceil(extent / divisor)}: where that is not a whole multiple, the last value
     * reaches past the extent.
     */
    public long range(int k) {
        return range[k];
    }

    /** {@return true if digit {@code k} is the most major digit of its dimension} */
    public boolean isTop(int k) {
        return k + 1 == dimension.length || dimension[k + 1] != dimension[k];
    }

    /** {@return slots of operand {@code operand} per unit of digit {@code k}} */
    public long weight(int operand, int k) {
        return weight[operand][k];
    }

    /** {@return the weights of operand {@code operand}, one per digit (a copy)} */
    public long[] weights(int operand) {
        return weight[operand].clone();
    }

    /**
     * {@return boxes of digit ranges that together cover exactly the indices within the extents,
     * each once} Row {@code k} of a box is digit {@code k}'s {@code [from, to)}. Where every
     * dimension is a whole multiple of its top digit's divisor there is one box, the whole space;
     * a partial tile adds boxes: for each dimension with size digits {@code δ}, box {@code j} fixes
     * the digits above {@code j} at {@code δ}, runs digit {@code j} over {@code [0, δ_j)} and every
     * finer digit over its whole range, and the boxes of the dimensions are combined every way
     * (the last dimension's box changes fastest). No boxes where an extent is 0.
     */
    public List<long[][]> boxes() {
        int rank = extents.length;
        List<List<long[][]>> perDim = new ArrayList<>();
        int[] first = new int[rank + 1];
        for (int d = 0; d < rank; d++) {
            if (extents[d] == 0) {
                return List.of();
            }
            first[d] = firstDigit(d);
            perDim.add(boxesOf(d));
        }
        List<long[][]> out = new ArrayList<>();
        int[] choice = new int[rank];
        while (true) {
            long[][] box = new long[dimension.length][];
            for (int d = 0; d < rank; d++) {
                long[][] b = perDim.get(d).get(choice[d]);
                System.arraycopy(b, 0, box, first[d], b.length);
            }
            out.add(box);
            int d = rank - 1;
            while (d >= 0 && ++choice[d] == perDim.get(d).size()) {
                choice[d] = 0;
                d--;
            }
            if (d < 0) {
                return out;
            }
        }
    }

    private int firstDigit(int d) {
        int k = 0;
        while (k < dimension.length && dimension[k] < d) {
            k++;
        }
        return k;
    }

    /** The boxes of one dimension's digits (finest first in each) that cover exactly {@code [0, extent)}. */
    private List<long[][]> boxesOf(int d) {
        int from = firstDigit(d);
        int to = from;
        while (to < dimension.length && dimension[to] == d) {
            to++;
        }
        int m = to - from;
        long size = extents[d];
        int kTop = m - 1;
        long[] delta = new long[m];
        for (int k = 0; k <= kTop; k++) {
            long q = size / divisor[from + k];
            delta[k] = k < kTop ? q % range[from + k] : q;
        }
        List<long[][]> out = new ArrayList<>();
        for (int j = kTop; j >= 0; j--) {
            if (delta[j] == 0) {
                continue;
            }
            long[][] box = new long[m][];
            for (int k = 0; k <= kTop; k++) {
                if (k > j) {
                    box[k] = new long[] {delta[k], delta[k] + 1};
                } else if (k == j) {
                    box[k] = new long[] {0, delta[k]};
                } else {
                    box[k] = new long[] {0, range[from + k]};
                }
            }
            out.add(box);
        }
        return out;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("DigitSpace[");
        for (int k = 0; k < dimension.length; k++) {
            b.append(k == 0 ? "" : ", ").append("e").append(dimension[k]).append('/').append(divisor[k])
                    .append('%').append(range[k]).append(" w=");
            for (int x = 0; x < weight.length; x++) {
                b.append(x == 0 ? "" : "|").append(weight[x][k]);
            }
        }
        return b.append(']').toString();
    }
}
