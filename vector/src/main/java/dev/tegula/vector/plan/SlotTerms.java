package dev.tegula.vector.plan;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;
import dev.tegula.ffm.Array;

/**
 * One side of a relayout as the planner sees it: the slot of a logical index as a layout's
 * {@link SlotFormula} plus a slot offset. Built from the layout's formula (dense arrays) or from
 * slot strides (strided views, {@link SlotFormula#strided}). Immutable.
 */
public record SlotTerms(long[] dims, SlotFormula formula, long slotOffset) {

    /** {@return the terms of a dense array in this layout, or null if its layout has no digit formula} */
    public static SlotTerms of(ArrayShape shape) {
        return SlotFormula.of(shape).map(f -> new SlotTerms(shape.dimensions(), f, 0)).orElse(null);
    }

    /** {@return the terms of a strided view: one term per dimension (its stride), the view's slot offset} */
    public static SlotTerms strided(Array view) {
        return strided(view.shape().dimensions(), view.slotOffset(), view.slotStrides());
    }

    /** {@return the terms of a strided view: one term per dimension} */
    public static SlotTerms strided(long[] dims, long offset, long[] strides) {
        return new SlotTerms(dims.clone(), SlotFormula.strided(strides), offset);
    }
}
