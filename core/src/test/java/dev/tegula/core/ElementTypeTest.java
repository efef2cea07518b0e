package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every element type against the spec's section 1 table. */
class ElementTypeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // text, enum, proto, bits, bytes, subByte
            "pred, PRED, 1, 1, 1, false",
            "s1, S1, 30, 1, 1, true",
            "s2, S2, 26, 2, 1, true",
            "s4, S4, 21, 4, 1, true",
            "s8, S8, 2, 8, 1, false",
            "s16, S16, 3, 16, 2, false",
            "s32, S32, 4, 32, 4, false",
            "s64, S64, 5, 64, 8, false",
            "u1, U1, 31, 1, 1, true",
            "u2, U2, 27, 2, 1, true",
            "u4, U4, 22, 4, 1, true",
            "u8, U8, 6, 8, 1, false",
            "u16, U16, 7, 16, 2, false",
            "u32, U32, 8, 32, 4, false",
            "u64, U64, 9, 64, 8, false",
            "f16, F16, 10, 16, 2, false",
            "bf16, BF16, 16, 16, 2, false",
            "f32, F32, 11, 32, 4, false",
            "f64, F64, 12, 64, 8, false",
            "f8e5m2, F8E5M2, 19, 8, 1, false",
            "f8e4m3, F8E4M3, 28, 8, 1, false",
            "f8e4m3fn, F8E4M3FN, 20, 8, 1, false",
            "f8e4m3b11fnuz, F8E4M3B11FNUZ, 23, 8, 1, false",
            "f8e3m4, F8E3M4, 29, 8, 1, false",
            "f8e5m2fnuz, F8E5M2FNUZ, 24, 8, 1, false",
            "f8e4m3fnuz, F8E4M3FNUZ, 25, 8, 1, false",
            "f8e8m0fnu, F8E8M0FNU, 33, 8, 1, false",
            "f4e2m1fn, F4E2M1FN, 32, 4, 1, true",
            "f6e3m2fn, F6E3M2FN, 35, 8, 1, false",
            "f6e2m3fn, F6E2M3FN, 36, 8, 1, false",
            "c64, C64, 15, 64, 8, false",
            "c128, C128, 18, 128, 16, false",
    })
    void arrayTypes(String text, ElementType type, int proto, int bits, int bytes, boolean subByte) {
        assertEquals(text, type.hloName());
        assertEquals(text, type.toString());
        assertEquals(proto, type.protoNumber());
        assertEquals(bits, type.bitWidth());
        assertEquals(bytes, type.byteWidth());
        assertEquals(subByte, type.isSubByte());
        assertTrue(type.isArrayType());
        assertSame(type, ElementType.fromName(text));
        assertSame(type, ElementType.fromProtoNumber(proto));
        // every array type is a type token of the text form, with one byte-width per element by default
        ArrayShape s = ArrayShape.parse(text + "[3]");
        assertSame(type, s.elementType());
        assertEquals(3L * bytes, s.byteSize());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "tuple, TUPLE, 13",
            "opaque, OPAQUE_TYPE, 14",
            "token, TOKEN, 17",
            "buffer, BUFFER, 34",
    })
    void shapeKindsAreNotArrayTypes(String text, ElementType type, int proto) {
        assertEquals(text, type.hloName());
        assertEquals(proto, type.protoNumber());
        assertFalse(type.isArrayType());
        assertFalse(type.isSubByte());
        assertSame(type, ElementType.fromName(text));
        assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(type, 2));
    }

    @Test
    void tableIsComplete() {
        assertEquals(36, ElementType.values().length, "32 array types + tuple, opaque, token, buffer");
        Set<ElementType> subByte = EnumSet.noneOf(ElementType.class);
        for (ElementType t : ElementType.values()) {
            if (t.isSubByte()) {
                subByte.add(t);
            }
        }
        assertEquals(EnumSet.of(ElementType.S1, ElementType.S2, ElementType.S4, ElementType.U1, ElementType.U2,
                ElementType.U4, ElementType.F4E2M1FN), subByte);
    }

    @Test
    void invalidTypeHasNoEnumValue() {
        // PRIMITIVE_TYPE_INVALID (0) is not a type Tegula models
        assertThrows(IllegalArgumentException.class, () -> ElementType.fromProtoNumber(0));
        assertThrows(IllegalArgumentException.class, () -> ElementType.fromName("invalid"));
        assertThrows(IllegalArgumentException.class, () -> ElementType.fromName("F32"), "names are case-sensitive");
        assertThrows(IllegalArgumentException.class, () -> ElementType.fromName("OPAQUE_TYPE"));
    }

    @Test
    void kinds() {
        assertTrue(ElementType.PRED.isPred());
        assertFalse(ElementType.PRED.isIntegral());
        assertTrue(ElementType.S4.isIntegral());
        assertTrue(ElementType.S4.isSigned());
        assertTrue(ElementType.U8.isUnsigned());
        assertFalse(ElementType.U8.isSigned());
        assertTrue(ElementType.BF16.isFloating());
        assertTrue(ElementType.F8E5M2.isSigned());
        assertFalse(ElementType.F8E8M0FNU.isSigned(), "the MX scale type has no sign bit");
        assertTrue(ElementType.C64.isComplex());
        assertFalse(ElementType.C64.isFloating());
        assertSame(ElementType.F32, ElementType.C64.componentType());
        assertSame(ElementType.F64, ElementType.C128.componentType());
        assertThrows(IllegalStateException.class, ElementType.F32::componentType);
    }
}
