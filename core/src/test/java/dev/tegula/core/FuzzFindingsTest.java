package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Inputs the fuzz targets found, pinned as plain unit tests (their raw inputs also sit in the
 * targets' {@code ...FuzzTestInputs} directories). See docs/reliability.md.
 */
class FuzzFindingsTest {

    /**
     * Shapes without elements but with tiles: {@link SlotFormula#of} threw {@link ArithmeticException}
     * ({@code / by zero} on the zero range of an empty dimension's digit, found by ShapeTextFuzzTest in
     * {@code f32[0]{0:T(2)}}; {@code long overflow} multiplying strides no element uses, found by
     * LayoutFuzzTest), which also broke {@code Relayout.plan} for such arrays. Now: the formula without terms.
     */
    @Test
    void slotFormulaOfZeroSizeTiledShapes() {
        for (String text : new String[] {"f32[0]{0:T(2)}", "f32[0,5]{1,0:T(2,2)}", "f32[5,0]{0,1:T(2,2)(2,1)}",
            "f32[3,0,4]{2,1,0:T(*,2,2)}", "bf16[0,0]{1,0:T(8,128)(2,1)}",
            "f8e4m3fnuz[12,12,0]{1,0,2:T(*,*,*,128,128)(3,9007199254740992,3)(*,*,*,128,6)}"}) {
            ArrayShape s = ArrayShape.parse(text);
            assertEquals(0, s.elementCount());
            assertTrue(SlotFormula.of(s).orElseThrow().terms().isEmpty(), text);
            ArrayShapeChecks.check(s, 1);
        }
    }
}
