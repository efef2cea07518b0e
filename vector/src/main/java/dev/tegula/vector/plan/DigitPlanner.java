package dev.tegula.vector.plan;

import dev.tegula.core.DigitSpace;
import dev.tegula.core.StridedNest;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns two {@link SlotTerms}s of the same logical dimensions into loop nests over their common digit
 * space (core's {@link DigitSpace}: each logical dimension split into the mixed-radix digits that
 * either side's formula uses, both sides strided over them). Dimensions whose size is not a multiple
 * of the coarsest digit (partial tiles) become a few boxes ({@link DigitSpace#boxes()}), each a
 * strided loop nest. Returns null where the two sides' digits do not nest (the caller then uses the
 * general kernel).
 */
public final class DigitPlanner {
    private DigitPlanner() {
    }

    public static List<LoopNest> plan(SlotTerms src, SlotTerms dst) {
        long[] dims = src.dims();
        for (long d : dims) {
            if (d == 0) {
                return List.of();
            }
        }
        DigitSpace space = DigitSpace.of(dims, List.of(src.formula(), dst.formula())).orElse(null);
        if (space == null) {
            return null;
        }
        List<LoopNest> nests = new ArrayList<>();
        for (long[][] box : space.boxes()) {
            StridedNest box1 = StridedNest.ofBox(space, box, new long[] {src.slotOffset(), dst.slotOffset()});
            nests.add(LoopNest.normalise(boxExtents(box), space.weights(0), space.weights(1), box1.offset(0), box1.offset(1)));
        }
        return nests;
    }

    private static long[] boxExtents(long[][] box) {
        long[] n = new long[box.length];
        for (int k = 0; k < box.length; k++) {
            n[k] = box[k][1] - box[k][0];
        }
        return n;
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
