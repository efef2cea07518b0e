package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ElementCodecTest {

    @Test
    void signedIntegersAreSignExtended() {
        assertEquals(-1, ElementCodec.toLong(ElementType.S1, 1));
        assertEquals(0, ElementCodec.toLong(ElementType.S1, 0));
        assertEquals(-2, ElementCodec.toLong(ElementType.S2, 0b10));
        assertEquals(1, ElementCodec.toLong(ElementType.S2, 0b01));
        assertEquals(-8, ElementCodec.toLong(ElementType.S4, 0x8));
        assertEquals(7, ElementCodec.toLong(ElementType.S4, 0x7));
        assertEquals(-1, ElementCodec.toLong(ElementType.S4, 0xFFFF_FFFF_FFFF_FFF0L | 0xF));
        assertEquals(5, ElementCodec.toLong(ElementType.S4, 0x75), "bits above the width are ignored");
        assertEquals(-128, ElementCodec.toLong(ElementType.S8, 0x80));
        assertEquals(-32768, ElementCodec.toLong(ElementType.S16, 0x8000));
        assertEquals(Integer.MIN_VALUE, ElementCodec.toLong(ElementType.S32, 0x8000_0000L));
        assertEquals(Long.MIN_VALUE, ElementCodec.toLong(ElementType.S64, Long.MIN_VALUE));
        assertEquals(-3.0, ElementCodec.toDouble(ElementType.S8, 0xFD));
        assertEquals(-3.0f, ElementCodec.toFloat(ElementType.S8, 0xFD));
    }

    @Test
    void unsignedIntegersAreZeroExtended() {
        assertEquals(1, ElementCodec.toLong(ElementType.U1, 0xFF));
        assertEquals(3, ElementCodec.toLong(ElementType.U2, 0b11));
        assertEquals(15, ElementCodec.toLong(ElementType.U4, 0xF));
        assertEquals(255, ElementCodec.toLong(ElementType.U8, 0xFF));
        assertEquals(65535, ElementCodec.toLong(ElementType.U16, 0xFFFF));
        assertEquals(0xFFFF_FFFFL, ElementCodec.toLong(ElementType.U32, -1));
        assertEquals(-1, ElementCodec.toLong(ElementType.U64, -1), "u64 as long: the bit pattern");
        assertEquals(4294967295.0, ElementCodec.toDouble(ElementType.U32, 0xFFFF_FFFFL));
        assertEquals(0x1p64, ElementCodec.toDouble(ElementType.U64, -1));
        assertEquals(0x1p63, ElementCodec.toDouble(ElementType.U64, Long.MIN_VALUE));
        assertEquals(0x1p64f, ElementCodec.toFloat(ElementType.U64, -1));
    }

    @Property(tries = 2000)
    void u64ToDoubleAndFloatRoundToNearestEven(@ForAll long raw) {
        BigInteger exact = new BigInteger(Long.toUnsignedString(raw));    // doubleValue/floatValue: nearest even
        assertEquals(exact.doubleValue(), ElementCodec.toDouble(ElementType.U64, raw));
        assertEquals(exact.floatValue(), ElementCodec.toFloat(ElementType.U64, raw));
    }

    @Test
    void predIsZeroOrOne() {
        assertEquals(0, ElementCodec.toLong(ElementType.PRED, 0));
        assertEquals(1, ElementCodec.toLong(ElementType.PRED, 1));
        assertEquals(1, ElementCodec.toLong(ElementType.PRED, 0x40));
        assertEquals(0, ElementCodec.toLong(ElementType.PRED, 0x100), "only the storage byte counts");
        assertEquals(1.0, ElementCodec.toDouble(ElementType.PRED, 2));
        assertEquals(1, ElementCodec.fromDouble(ElementType.PRED, -0.5));
        assertEquals(1, ElementCodec.fromDouble(ElementType.PRED, Double.NaN));
        assertEquals(0, ElementCodec.fromDouble(ElementType.PRED, -0.0));
        assertEquals(1, ElementCodec.fromLong(ElementType.PRED, 42));
        assertEquals(0, ElementCodec.fromLong(ElementType.PRED, 0));
    }

    @Test
    void integersFromDoubleTruncateThenKeepTheLowBits() {
        assertEquals(0x7F, ElementCodec.fromDouble(ElementType.S8, 127.9));
        assertEquals(0xFE, ElementCodec.fromDouble(ElementType.S8, -2.7), "-2, as its 8-bit pattern");
        assertEquals(0x2C, ElementCodec.fromDouble(ElementType.S8, 300.0), "300 wraps to 44");
        assertEquals(0xF, ElementCodec.fromDouble(ElementType.S4, -1.0));
        assertEquals(0x3, ElementCodec.fromDouble(ElementType.U2, 7.0));
        assertEquals(0, ElementCodec.fromDouble(ElementType.S32, Double.NaN));
        assertEquals(0xFFFF_FFFFL, ElementCodec.fromDouble(ElementType.U32, -1.0));
        assertEquals(Long.MAX_VALUE, ElementCodec.fromDouble(ElementType.S64, Math.nextDown(0x1p63)) | 0x3FF);
        assertEquals(0xA000_0000_0000_0000L, ElementCodec.fromDouble(ElementType.S64, 0x1.4p63),
                "2^63 + 2^61 keeps its low 64 bits");
        assertEquals(Long.MIN_VALUE, ElementCodec.fromDouble(ElementType.U64, 0x1p63));
        assertEquals(0xC000_0000_0000_0000L, ElementCodec.fromDouble(ElementType.U64, 0x1.8p63));
        assertEquals(-1, ElementCodec.fromDouble(ElementType.U64, 1e30), "clamped to 2^64 - 1");
        assertEquals(Long.MIN_VALUE, ElementCodec.fromDouble(ElementType.S64, -1e30), "clamped to -2^63");
        assertEquals(0, ElementCodec.fromDouble(ElementType.S8, -1e30), "-2^63 has low byte 0");
        assertEquals(5, ElementCodec.fromFloat(ElementType.U8, 5.99f));
    }

    @Test
    void integersFromLongKeepTheLowBits() {
        assertEquals(0xFF, ElementCodec.fromLong(ElementType.S8, -1));
        assertEquals(0x1, ElementCodec.fromLong(ElementType.S1, -1));
        assertEquals(0x2, ElementCodec.fromLong(ElementType.U2, 6));
        assertEquals(-1, ElementCodec.fromLong(ElementType.S64, -1));
        assertEquals(-5, ElementCodec.fromLong(ElementType.U64, -5));
        for (ElementType t : new ElementType[] {ElementType.S4, ElementType.S8, ElementType.S16, ElementType.S32}) {
            for (long v = -8; v < 8; v++) {
                assertEquals(v, ElementCodec.toLong(t, ElementCodec.fromLong(t, v)), t + " " + v);
            }
        }
    }

    @Test
    void floatTypesDispatchToTheirCodecs() {
        assertEquals(0x3C00, ElementCodec.fromDouble(ElementType.F16, 1.0));
        assertEquals(0x3F80, ElementCodec.fromDouble(ElementType.BF16, 1.0));
        assertEquals(0x3F80_0000L, ElementCodec.fromDouble(ElementType.F32, 1.0));
        assertEquals(0xBF80_0000L, ElementCodec.fromDouble(ElementType.F32, -1.0), "no sign extension");
        assertEquals(0x8000, ElementCodec.fromFloat(ElementType.BF16, -0f));
        assertEquals(Double.doubleToRawLongBits(-2.5), ElementCodec.fromDouble(ElementType.F64, -2.5));
        assertEquals(0x7E, ElementCodec.fromDouble(ElementType.F8E4M3FN, 448.0));
        assertEquals(0x38, ElementCodec.fromFloat(ElementType.F8E4M3FN, 1f));
        assertEquals(0xC, ElementCodec.fromDouble(ElementType.F4E2M1FN, -2.0));
        assertEquals(0x3F, ElementCodec.fromDouble(ElementType.F6E2M3FN, -100.0));
        assertEquals(-1.0, ElementCodec.toDouble(ElementType.F16, 0xBC00));
        assertEquals(-1.0, ElementCodec.toDouble(ElementType.BF16, 0xBF80));
        assertEquals(1.5, ElementCodec.toDouble(ElementType.F32, Float.floatToRawIntBits(1.5f)));
        assertEquals(-2.5, ElementCodec.toDouble(ElementType.F64, Double.doubleToRawLongBits(-2.5)));
        assertEquals(-0.125, ElementCodec.toDouble(ElementType.F6E2M3FN, 0x21));
        assertEquals(-0.125, ElementCodec.toDouble(ElementType.F6E2M3FN, 0xE1), "storage bits above 6 ignored");
        assertEquals(0x1p127, ElementCodec.toDouble(ElementType.F8E8M0FNU, 0xFE));
        assertEquals(-6, ElementCodec.toLong(ElementType.F4E2M1FN, 0xF));
        assertEquals(2, ElementCodec.toLong(ElementType.F32, Float.floatToRawIntBits(2.9f)));
        assertEquals(0, ElementCodec.toLong(ElementType.F16, 0x7E00), "NaN to long is 0");
        assertEquals(Long.MAX_VALUE, ElementCodec.toLong(ElementType.BF16, 0x7F80));
        assertTrue(Float.isNaN(ElementCodec.toFloat(ElementType.F8E4M3FNUZ, 0x80)));
    }

    @Test
    void floatTypesFromLongRoundOnce() {
        // 2^62 + 2^54 + 1 lies just above a bf16 tie; a double would round it onto the tie.
        long v = (1L << 62) + (1L << 54) + 1;
        assertEquals(0x5E80, BFloat16.fromDouble((double) v) & 0xFFFF, "through double: tie to even");
        assertEquals(0x5E81, ElementCodec.fromLong(ElementType.BF16, v), "direct: above the tie");
        assertEquals(0xDE81, ElementCodec.fromLong(ElementType.BF16, -v));
        assertEquals(0xDF00, ElementCodec.fromLong(ElementType.BF16, Long.MIN_VALUE));
        assertEquals(0x5F00, ElementCodec.fromLong(ElementType.BF16, Long.MAX_VALUE));
        assertEquals(0x7C00, ElementCodec.fromLong(ElementType.F16, 65520));
        assertEquals(0x7BFF, ElementCodec.fromLong(ElementType.F16, 65519));
        assertEquals(0x7F, ElementCodec.fromLong(ElementType.F8E4M3FN, 1L << 40), "overflow to NaN");
        assertEquals(0x7E, ElementCodec.fromLong(ElementType.F8E4M3FN, 464));
        assertEquals(Float.floatToRawIntBits((float) v), ElementCodec.fromLong(ElementType.F32, v));
        assertEquals(0x7F, ElementCodec.fromLong(ElementType.F8E8M0FNU, 1));
        assertEquals(0xFF, ElementCodec.fromLong(ElementType.F8E8M0FNU, 0));
    }

    @Property(tries = 2000)
    void fromLongToBf16IsNearestEven(@ForAll long v) {
        // round |v| to 8 significant bits by hand, ties to even; the result is exact in a double
        BigInteger magnitude = BigInteger.valueOf(v).abs();
        int shift = Math.max(0, magnitude.bitLength() - 8);
        BigInteger kept = magnitude.shiftRight(shift);
        if (shift > 0) {
            BigInteger rest = magnitude.subtract(kept.shiftLeft(shift));
            int cmp = rest.compareTo(BigInteger.ONE.shiftLeft(shift - 1));
            if (cmp > 0 || (cmp == 0 && kept.testBit(0))) {
                kept = kept.add(BigInteger.ONE);
            }
        }
        double rounded = Math.scalb(kept.doubleValue(), shift) * Long.signum(v);
        int expected = v == 0 ? 0 : BFloat16.fromDouble(rounded) & 0xFFFF;
        assertEquals(expected, ElementCodec.fromLong(ElementType.BF16, v));
    }

    @Test
    void complexAndNonArrayTypesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ElementCodec.toDouble(ElementType.C64, 0));
        assertTrue(e.getMessage().contains("f32"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ElementCodec.fromDouble(ElementType.C128, 0));
        assertThrows(IllegalArgumentException.class, () -> ElementCodec.fromLong(ElementType.C64, 0));
        assertThrows(IllegalArgumentException.class, () -> ElementCodec.toLong(ElementType.TUPLE, 0));
        assertThrows(IllegalArgumentException.class, () -> ElementCodec.fromFloat(ElementType.TOKEN, 0));
        assertThrows(IllegalArgumentException.class, () -> ElementCodec.toFloat(ElementType.OPAQUE_TYPE, 0));
    }

    @Test
    void everyRealArrayTypeRoundTripsSmallIntegers() {
        for (ElementType t : ElementType.values()) {
            if (!t.isArrayType() || t.isComplex()) {
                continue;
            }
            long v = 1;
            long expected = t == ElementType.S1 ? -1 : v;    // s1 has values -1 and 0
            long raw = ElementCodec.fromLong(t, v);
            assertEquals(expected, ElementCodec.toLong(t, raw), t.hloName());
            assertEquals((double) expected, ElementCodec.toDouble(t, ElementCodec.fromDouble(t, v)), t.hloName());
        }
    }
}
