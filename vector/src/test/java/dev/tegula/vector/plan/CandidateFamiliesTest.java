package dev.tegula.vector.plan;

import static dev.tegula.vector.plan.EstimateTest.nest;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.kernels.Elements;
import org.junit.jupiter.api.Test;

/** The candidate families ({@link CandidateFamilies}): every walk they make fits its nest. */
class CandidateFamiliesTest {

    @Test
    void everyCandidateOfANestFitsIt() {
        LoopNest base = nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1});
        for (Walk w : CandidateFamilies.all(base, Elements.same(4), 2, 10_000)) {
            assertEquals(w.toString(), Walk.parse(w.toString(), base, Elements.same(4)).toString());
            assertEquals(base.elements(), w.nest().elements());
            assertEquals(3, w.order()[3], "the innermost loop stays innermost: " + w);
        }
    }
}
