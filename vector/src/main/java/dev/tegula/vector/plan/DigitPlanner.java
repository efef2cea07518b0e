package dev.tegula.vector.plan;

import dev.tegula.core.SlotFormula;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Turns two {@link SlotTerms}s of the same logical dimensions into loop nests over a common digit space
 * (the approach of XLA's TransposePlan and HPTT, generalised to tiles): each logical dimension is
 * split into the mixed-radix digits that either side's formula uses; both sides are then strided
 * over those digits. Dimensions whose size is not a multiple of the coarsest digit (partial tiles)
 * become a few boxes, each a strided loop nest. Returns null where the two sides' digits do not
 * nest (the caller then uses the general kernel).
 */
public final class DigitPlanner {
    private DigitPlanner() {
    }

    /** A digit of one logical dimension: e / base mod range, with each side's stride for it. */
    private record CommonDigit(long base, long range, long srcStride, long dstStride) {
    }

    public static List<LoopNest> plan(SlotTerms src, SlotTerms dst) {
        long[] dims = src.dims();
        int rank = dims.length;
        List<List<CommonDigit>> digits = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            if (dims[d] == 0) {
                return List.of();
            }
            List<CommonDigit> dd = digitsOf(d, dims[d], src.terms(), dst.terms());
            if (dd == null) {
                return null;
            }
            digits.add(dd);
        }
        // per dimension: the boxes (ranges of each digit) that cover exactly [0, size)
        List<List<long[][]>> boxesPerDim = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            boxesPerDim.add(boxes(dims[d], digits.get(d)));
        }
        List<LoopNest> nests = new ArrayList<>();
        int[] choice = new int[rank];
        while (true) {
            List<Long> n = new ArrayList<>();
            List<Long> s = new ArrayList<>();
            List<Long> t = new ArrayList<>();
            long srcOffset = src.slotOffset();
            long dstOffset = dst.slotOffset();
            for (int d = 0; d < rank; d++) {
                long[][] box = boxesPerDim.get(d).get(choice[d]);
                List<CommonDigit> dd = digits.get(d);
                for (int k = 0; k < dd.size(); k++) {
                    CommonDigit g = dd.get(k);
                    srcOffset += box[k][0] * g.srcStride();
                    dstOffset += box[k][0] * g.dstStride();
                    n.add(box[k][1] - box[k][0]);
                    s.add(g.srcStride());
                    t.add(g.dstStride());
                }
            }
            nests.add(LoopNest.normalise(toArray(n), toArray(s), toArray(t), srcOffset, dstOffset));
            int d = rank - 1;
            while (d >= 0 && ++choice[d] == boxesPerDim.get(d).size()) {
                choice[d] = 0;
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        return nests;
    }

    private static long[] toArray(List<Long> l) {
        long[] a = new long[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    /** The common digits of dimension d, finest first, or null if the breakpoints do not nest. */
    private static List<CommonDigit> digitsOf(int d, long size, List<SlotFormula.Term> srcTerms, List<SlotFormula.Term> dstTerms) {
        TreeSet<Long> breaks = new TreeSet<>();
        breaks.add(1L);
        for (List<SlotFormula.Term> terms : List.of(srcTerms, dstTerms)) {
            for (SlotFormula.Term term : terms) {
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
        Long[] b = breaks.toArray(new Long[0]);
        for (int k = 0; k + 1 < b.length; k++) {
            if (b[k + 1] % b[k] != 0) {
                return null;
            }
        }
        List<CommonDigit> out = new ArrayList<>();
        for (int k = 0; k < b.length; k++) {
            long base = b[k];
            long range = k + 1 < b.length ? b[k + 1] / base : -Math.floorDiv(-size, base);
            out.add(new CommonDigit(base, range, stride(d, base, srcTerms), stride(d, base, dstTerms)));
        }
        return out;
    }

    /** Slots one unit of the digit with this base moves on a side. */
    private static long stride(int d, long base, List<SlotFormula.Term> terms) {
        long s = 0;
        for (SlotFormula.Term term : terms) {
            if (term.dimension() != d || term.divisor() > base) {
                continue;
            }
            if (term.modulus() != SlotFormula.UNBOUNDED && base >= term.divisor() * term.modulus()) {
                continue;
            }
            s += term.weight() * (base / term.divisor());
        }
        return s;
    }

    /**
     * Splits [0, size) into boxes of digit ranges (finest digit first in each box): with size's
     * digits δ, box j fixes the digits above j at δ, runs digit j over [0, δ_j) and every finer
     * digit over its full range.
     */
    private static List<long[][]> boxes(long size, List<CommonDigit> digits) {
        int kTop = digits.size() - 1;
        long[] delta = new long[digits.size()];
        for (int k = 0; k <= kTop; k++) {
            long q = size / digits.get(k).base();
            delta[k] = k < kTop ? q % digits.get(k).range() : q;
        }
        List<long[][]> out = new ArrayList<>();
        for (int j = kTop; j >= 0; j--) {
            if (delta[j] == 0) {
                continue;
            }
            long[][] box = new long[digits.size()][];
            for (int k = 0; k <= kTop; k++) {
                if (k > j) {
                    box[k] = new long[] {delta[k], delta[k] + 1};
                } else if (k == j) {
                    box[k] = new long[] {0, delta[k]};
                } else {
                    box[k] = new long[] {0, digits.get(k).range()};
                }
            }
            out.add(box);
        }
        return out;
    }

    /**
     * {@return the loop nests in words, e.g. {@code copy 8 x 4 = 32 elements in 2 loops (outermost
     * first): source strides 1, 8; destination strides 4, 1 (in slots); from source slot 0 to
     * destination slot 0}} At most four nests are spelled out; the rest are counted.
     */
    public static String describe(List<LoopNest> nests) {
        if (nests.isEmpty()) {
            return "nothing to copy";
        }
        StringBuilder b = new StringBuilder();
        if (nests.size() > 1) {
            b.append(nests.size()).append(" loop nests: ");
        }
        for (int i = 0; i < Math.min(nests.size(), 4); i++) {
            LoopNest n = nests.get(i);
            b.append(i == 0 ? "" : "; ").append(nests.size() > 1 ? "(" + (i + 1) + ") " : "");
            b.append("copy ").append(join(n.extents(), " x "));
            if (n.depth() > 1) {
                b.append(" = ").append(n.elements());
            }
            b.append(n.elements() == 1 ? " element" : " elements");
            if (n.depth() > 0) {
                b.append(" in ").append(n.depth()).append(n.depth() == 1 ? " loop" : " loops (outermost first)")
                        .append(": source ").append(n.depth() == 1 ? "stride " : "strides ").append(join(n.srcStrides(), ", "))
                        .append("; destination ").append(n.depth() == 1 ? "stride " : "strides ")
                        .append(join(n.dstStrides(), ", ")).append(" (in slots)");
            }
            b.append("; from source slot ").append(n.srcOffset()).append(" to destination slot ").append(n.dstOffset());
        }
        if (nests.size() > 4) {
            b.append("; and ").append(nests.size() - 4).append(" more like them");
        }
        return b.toString();
    }

    private static String join(long[] v, String separator) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : separator).append(v[i]);
        }
        return b.toString();
    }
}
