package dev.tegula.vector.plan;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.kernels.Conversion;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import java.util.List;

/**
 * How a relayout plan moves the elements, chosen once when the plan is made. Immutable.
 */
public sealed interface RelayoutStrategy {

    /**
     * Strided loop nests over a common digit space, normalised ({@link LoopNest#normalise}), each
     * walked as its plan's {@link Walk} says, moving {@code elements} (the same type and storage, or
     * converted on the way: f32 to bf16, or one of the widening conversions of {@link Conversion}).
     */
    record Nests(List<LoopNest> nests, Elements elements) implements RelayoutStrategy {
        public Nests {
            nests = List.copyOf(nests);
        }
    }

    /**
     * A 4-bit type between one slot per byte and {@code E(4)} (two per byte), layouts otherwise
     * equal and without padding, run by {@link Kernel#PACK_4} or {@link Kernel#UNPACK_4}.
     *
     * @param pack true: 8-bit slots to {@code E(4)}; false: {@code E(4)} to 8-bit slots
     */
    record Pack4(boolean pack) implements RelayoutStrategy {
        /** {@return the kernel that runs it} */
        public Kernel kernel() {
            return pack ? Kernel.PACK_4 : Kernel.UNPACK_4;
        }
    }

    /**
     * Every logical index in row-major order, each element read, converted when the types differ,
     * and written through the two sides' address calculators: the element-type conversions without
     * a {@link Conversion}, packed
     * sub-byte layouts, and tiles whose digits do not nest.
     */
    record ElementWalk() implements RelayoutStrategy {
    }

    /**
     * {@return the fastest strategy for these shapes}
     *
     * @param srcTerms the source's slot terms, or null if its layout has none
     * @param dstTerms the destination's slot terms, or null if its layout has none
     * @param views    true if either side is a strided view (no pack kernel then)
     */
    public static RelayoutStrategy choose(ArrayShape from, ArrayShape to, SlotTerms srcTerms, SlotTerms dstTerms,
                                   boolean views) {
        long fb = from.slotBits();
        long tb = to.slotBits();
        if (!views) {
            int direction = packDirection(from, to);
            if (direction != 0) {
                return new Pack4(direction > 0);
            }
        }
        if (from.elementType() == to.elementType() && fb == tb && fb >= 8 && srcTerms != null && dstTerms != null) {
            List<LoopNest> nests = DigitPlanner.plan(srcTerms, dstTerms);
            if (nests != null) {
                return new Nests(nests, Elements.same((int) (fb / 8)));
            }
        }
        Conversion conversion = Conversion.of(from.elementType(), fb, to.elementType(), tb);
        if (conversion != null && srcTerms != null && dstTerms != null) {
            List<LoopNest> nests = DigitPlanner.plan(srcTerms, dstTerms);
            if (nests != null) {
                return new Nests(nests, Elements.of(conversion));
            }
        }
        return new ElementWalk();
    }

    /** {@return 1 or -1 when the layouts differ only in E(4) vs one byte per element and have no padding} */
    private static int packDirection(ArrayShape from, ArrayShape to) {
        if (from.elementType() != to.elementType() || from.elementType().bitWidth() != 4
                || from.slotCount() != from.elementCount() || to.slotCount() != to.elementCount()) {
            return 0;
        }
        long fb = from.slotBits();
        long tb = to.slotBits();
        if (!from.layout().withElementSizeInBits(0).equals(to.layout().withElementSizeInBits(0))) {
            return 0;
        }
        return fb == 8 && tb == 4 ? 1 : fb == 4 && tb == 8 ? -1 : 0;
    }
}
