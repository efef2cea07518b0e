package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.util.List;

/**
 * How a {@link RelayoutPlan} moves the elements, chosen once when the plan is made. Immutable.
 */
sealed interface RelayoutStrategy {

    /**
     * Strided loop nests over a common digit space, normalised ({@link LoopNest#normalise}), each
     * walked as its plan's {@link Walk} says: by {@link Kernels} (same type and storage) or, with
     * {@code convert}, from f32 to bf16 by {@link ConvertKernels}.
     */
    record Nests(List<LoopNest> nests, boolean convert) implements RelayoutStrategy {
        public Nests {
            nests = List.copyOf(nests);
        }

        /** {@return the element size the walks of these nests are planned for: destination bytes, or -4 for f32 to bf16} */
        int walkBytes(int elementBytes) {
            return convert ? -4 : elementBytes;
        }
    }

    /**
     * A 4-bit type between one slot per byte and {@code E(4)} (two per byte), layouts otherwise
     * equal and without padding, run by {@link PackKernels}.
     *
     * @param pack true: 8-bit slots to {@code E(4)}; false: {@code E(4)} to 8-bit slots
     */
    record Pack4(boolean pack) implements RelayoutStrategy {
    }

    /**
     * Every logical index in row-major order, each element read, converted when the types differ,
     * and written through the two sides' address calculators: element-type conversion, packed
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
    static RelayoutStrategy choose(ArrayShape from, ArrayShape to, SlotTerms srcTerms, SlotTerms dstTerms,
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
                return new Nests(nests, false);
            }
        }
        if (from.elementType() == ElementType.F32 && to.elementType() == ElementType.BF16 && fb == 32 && tb == 16
                && srcTerms != null && dstTerms != null) {
            List<LoopNest> nests = DigitPlanner.plan(srcTerms, dstTerms);
            if (nests != null) {
                return new Nests(nests, true);
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
