package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Shape;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * The inline digit-term path of rank-2 tiled arrays gives core's slot for every index; layouts whose
 * tile grid makes a weight that is not a power of two (f32[3,5] T(2,2): 3 tiles across) keep the
 * Addressing path, and agree too.
 */
class ArraySlotsDigitsTest {

    @Test
    void digitTermsEqualLinearIndex() {
        String[] shapes = {"f32[1024,1024]{1,0:T(8,128)}", "bf16[64,256]{1,0:T(8,128)(2,1)}", "f32[3,5]{1,0:T(2,2)}",
            "s8[40,300]{0,1:T(8,128)(4,1)}", "f16[13,17]{0,1:T(2,2)}", "pred[64,200]{1,0:T(32,128)(32,1)}",
            "f32[9,7]{1,0:T(4,2)L(64)}"};
        try (Arena arena = Arena.ofConfined()) {
            for (String text : shapes) {
                ArrayShape s = (ArrayShape) Shape.parse(text);
                Array a = Array.allocate(arena, s);
                if (text.contains("1024") || text.contains("[64,256]")) {   // power-of-two tile grids
                    assertNotEquals(0, a.digits2, text + " should use the inline digit terms");
                }
                for (long i = 0; i < s.dimension(0); i++) {
                    for (long j = 0; j < s.dimension(1); j++) {
                        assertEquals(s.linearIndex(i, j), ArraySlots.slot(a, i, j), text + " at (" + i + "," + j + ")");
                    }
                }
            }
            Array notPow2 = Array.allocate(arena, (ArrayShape) Shape.parse("f32[12,12]{1,0:T(3,4)}"));
            assertEquals(0, notPow2.digits2);
            assertEquals(notPow2.shape().linearIndex(7, 9), ArraySlots.slot(notPow2, 7, 9));
        }
    }
}
