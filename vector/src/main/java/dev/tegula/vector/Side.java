package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.SlotFormula;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a relayout as the planner sees it: the element slot of a logical index as a sum of
 * digit terms plus a base slot. Built from a layout's {@link SlotFormula} (dense arrays) or from
 * element strides (strided views). Immutable.
 */
record Side(long[] dims, List<SlotFormula.Term> terms, long baseSlot) {

    /** {@return the side of a dense array in this layout, or null if its layout has no digit formula} */
    static Side of(ArrayShape shape) {
        return SlotFormula.of(shape).map(f -> new Side(shape.dimensions(), f.terms(), 0)).orElse(null);
    }

    /** {@return the side of a strided view: one term per dimension} */
    static Side strided(long[] dims, long offset, long[] strides) {
        List<SlotFormula.Term> terms = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            terms.add(new SlotFormula.Term(d, 1, SlotFormula.UNBOUNDED, strides[d]));
        }
        return new Side(dims.clone(), terms, offset);
    }
}
