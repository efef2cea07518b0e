package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.Addressing.Kind;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Addressing#kind()} names the calculator family each layout gets, as {@link Kind}'s contract
 * states it: strided by rank when untiled, {@code TILED_2} / {@code TILED_N} for one 2-D tile on the two
 * most minor physical dimensions (optionally followed by a {@code (c,1)} tile), {@code GENERAL} otherwise.
 */
class AddressingKindTest {

    private static Kind kindOf(String text) {
        return Addressing.of(ArrayShape.parse(text)).kind();
    }

    /** Each shape with the kind the contract gives it. */
    private static Map<String, Kind> examples() {
        Map<String, Kind> m = new LinkedHashMap<>();
        m.put("f32[7]", Kind.STRIDED_1);
        m.put("f32[3,5]", Kind.STRIDED_2);
        m.put("f32[3,5]{0,1}", Kind.STRIDED_2);
        m.put("f32[2,3]{0,1:PAD(3,5:zero)}", Kind.STRIDED_2);
        m.put("u8[2,3,4]{0,2,1}", Kind.STRIDED_3);
        m.put("f64[2,3,4,5]{0,1,2,3}", Kind.STRIDED_4);
        m.put("f32[2,2,2,2,2]", Kind.STRIDED_N);
        m.put("f32[]", Kind.STRIDED_N);
        m.put("f32[3,5]{1,0:T(2,2)}", Kind.TILED_2);
        m.put("bf16[256,256]{0,1:T(8,128)(2,1)}", Kind.TILED_2);
        m.put("f32[4,3,5]{2,1,0:T(2,2)}", Kind.TILED_N);
        m.put("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}", Kind.TILED_N);
        m.put("f32[8]{0:T(4)}", Kind.GENERAL);
        m.put("f32[8,8]{1,0:T(4)}", Kind.GENERAL);
        m.put("bf16[8,8]{1,0:T(2,4)(2,1,1,1)}", Kind.GENERAL);
        m.put("f32[16,16]{1,0:T(4,4)(2,2)}", Kind.GENERAL);
        m.put("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", Kind.GENERAL);
        return m;
    }

    @Test
    void eachLayoutFamilyHasItsKind() {
        examples().forEach((text, kind) -> assertEquals(kind, kindOf(text), text));
    }

    @Test
    void theExamplesReachEveryKind() {
        Set<Kind> seen = EnumSet.noneOf(Kind.class);
        seen.addAll(examples().values());
        assertEquals(EnumSet.allOf(Kind.class), seen);
    }

    @Test
    void theElementTypeDoesNotChangeTheKind() {
        for (String type : new String[] {"pred", "s4", "bf16", "f32", "c128"}) {
            assertEquals(Kind.STRIDED_2, kindOf(type + "[16,256]{0,1}"), type);
            assertEquals(Kind.TILED_2, kindOf(type + "[16,256]{1,0:T(8,128)}"), type);
            assertEquals(Kind.TILED_N, kindOf(type + "[2,16,256]{2,1,0:T(8,128)}"), type);
        }
    }
}
