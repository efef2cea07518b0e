package dev.tegula.vector.plan;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;
import dev.tegula.ffm.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a relayout as the planner sees it: the slot of a logical index as a sum of digit
 * terms plus a slot offset. Built from a layout's {@link SlotFormula} (dense arrays) or from
 * slot strides (strided views). Immutable.
 */
public record SlotTerms(long[] dims, List<SlotFormula.Term> terms, long slotOffset) {

    /** {@return the terms of a dense array in this layout, or null if its layout has no digit formula} */
    public static SlotTerms of(ArrayShape shape) {
        return SlotFormula.of(shape).map(f -> new SlotTerms(shape.dimensions(), f.terms(), 0)).orElse(null);
    }

    /** {@return the terms of a strided view: one term per dimension (its stride), the view's slot offset} */
    public static SlotTerms strided(Array view) {
        return strided(view.shape().dimensions(), view.slotOffset(), view.slotStrides());
    }

    /** {@return the terms of a strided view: one term per dimension} */
    public static SlotTerms strided(long[] dims, long offset, long[] strides) {
        List<SlotFormula.Term> terms = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            terms.add(new SlotFormula.Term(d, 1, SlotFormula.UNBOUNDED, strides[d]));
        }
        return new SlotTerms(dims.clone(), terms, offset);
    }
}
