package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.Reference.Spec;
import dev.tegula.ffm.codec.Reference.Specials;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MiniFloatTest {

    static Stream<Spec> specs() {
        return Reference.SPECS.stream();
    }

    @Test
    void everyFormatHasASpec() {
        assertEquals(MiniFloatFormat.values().length, Reference.SPECS.size());
    }

    @ParameterizedTest
    @MethodSource("specs")
    void fieldsMatchTheDefinition(Spec s) {
        MiniFloatFormat f = s.format();
        assertEquals(s.bits(), f.bitWidth());
        assertEquals(s.e(), f.exponentBits());
        assertEquals(s.m(), f.mantissaBits());
        assertEquals(s.bias(), f.bias());
        assertEquals((1 << s.bits()) - 1, f.codeMask());
        assertEquals(s.specials() == Specials.IEEE, f.hasInfinity());
        assertEquals(s.specials() != Specials.NONE, f.hasNaN());
        assertEquals(s.negativeZeroExists(), f.hasNegativeZero());
        assertEquals(s.specials() != Specials.E8M0, f.isSigned());
        assertSame(f, MiniFloatFormat.of(f.elementType()));
        assertEquals(f.elementType().hloName(), f.toString());
    }

    @ParameterizedTest
    @MethodSource("specs")
    void goldenLandmarks(Spec s) {
        MiniFloatFormat f = s.format();
        assertEquals(s.max(), f.maxFinite());
        assertEquals(s.minNormal(), f.minNormal());
        assertEquals(s.minPositive(), f.minPositive());
        assertEquals(s.max(), f.toDouble(f.maxFiniteCode()));
        if (f.isSigned()) {
            assertEquals(-s.max(), f.toDouble(f.maxFiniteCode() | s.signBit()));
        }
    }

    @Test
    void goldenCodesFromTheSpecifications() {
        assertEquals(448f, MiniFloatFormat.F8E4M3FN.toFloat(0x7E));
        assertEquals(-448f, MiniFloatFormat.F8E4M3FN.toFloat(0xFE));
        assertTrue(Float.isNaN(MiniFloatFormat.F8E4M3FN.toFloat(0x7F)));
        assertTrue(Float.isNaN(MiniFloatFormat.F8E4M3FN.toFloat(0xFF)));
        assertEquals(256f, MiniFloatFormat.F8E4M3FN.toFloat(0x78));     // exponent 15 is a normal binade
        assertEquals(57344f, MiniFloatFormat.F8E5M2.toFloat(0x7B));
        assertEquals(Float.POSITIVE_INFINITY, MiniFloatFormat.F8E5M2.toFloat(0x7C));
        assertEquals(Float.NEGATIVE_INFINITY, MiniFloatFormat.F8E5M2.toFloat(0xFC));
        assertEquals(Float.POSITIVE_INFINITY, MiniFloatFormat.F8E4M3.toFloat(0x78));
        assertEquals(Float.POSITIVE_INFINITY, MiniFloatFormat.F8E3M4.toFloat(0x70));
        assertEquals(0x1p-6f, MiniFloatFormat.F8E3M4.toFloat(0x01));
        assertEquals(240f, MiniFloatFormat.F8E4M3FNUZ.toFloat(0x7F));
        assertEquals(-240f, MiniFloatFormat.F8E4M3FNUZ.toFloat(0xFF));
        assertEquals(57344f, MiniFloatFormat.F8E5M2FNUZ.toFloat(0x7F));
        assertEquals(30f, MiniFloatFormat.F8E4M3B11FNUZ.toFloat(0x7F));
        assertEquals(1f, MiniFloatFormat.F8E8M0FNU.toFloat(0x7F));
        assertEquals(0x1p127f, MiniFloatFormat.F8E8M0FNU.toFloat(0xFE));
        assertEquals(0x1p-127f, MiniFloatFormat.F8E8M0FNU.toFloat(0x00));
        assertTrue(Float.isNaN(MiniFloatFormat.F8E8M0FNU.toFloat(0xFF)));
        float[] fp4 = {0f, 0.5f, 1f, 1.5f, 2f, 3f, 4f, 6f};
        for (int c = 0; c < 8; c++) {
            assertEquals(fp4[c], MiniFloatFormat.F4E2M1FN.toFloat(c));
            assertEquals(-fp4[c], MiniFloatFormat.F4E2M1FN.toFloat(c | 8));
        }
        assertEquals(28f, MiniFloatFormat.F6E3M2FN.toFloat(0x1F));
        assertEquals(7.5f, MiniFloatFormat.F6E2M3FN.toFloat(0x1F));
        assertEquals(-0.125f, MiniFloatFormat.F6E2M3FN.toFloat(0x21));
    }

    @ParameterizedTest
    @MethodSource("specs")
    void everyCodeDecodesToItsDefinedValue(Spec s) {
        MiniFloatFormat f = s.format();
        for (int i = 0; i < s.codeCount(); i++) {
            final int code = i;
            double expected = Reference.decode(s, code);
            double actual = f.toDouble(code);
            if (Double.isNaN(expected)) {
                assertTrue(Double.isNaN(actual), () -> s + " NaN code " + code);
                assertTrue(f.isNaN(code));
            } else {
                // compare bits so that -0 and +0 differ
                assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(actual),
                        () -> s + " code 0x" + Integer.toHexString(code) + ": " + expected + " vs " + actual);
                assertFalse(f.isNaN(code));
            }
            assertEquals(Double.doubleToLongBits(actual), Double.doubleToLongBits(MiniFloat.decodeSlow(f, code)),
                    "table and reference decoder agree");
            assertEquals(Float.floatToRawIntBits(f.toFloat(code)),
                    Float.floatToRawIntBits(f.toFloat(code | ~f.codeMask())), "high bits ignored");
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void everyCodeRoundTrips(Spec s) {
        MiniFloatFormat f = s.format();
        for (int i = 0; i < s.codeCount(); i++) {
            final int code = i;
            float v = f.toFloat(code);
            int back = f.fromFloat(v);
            if (Float.isNaN(v)) {
                assertTrue(f.isNaN(back), () -> s + " NaN code re-encodes to a NaN");
            } else {
                assertEquals(code, back, () -> s + " code 0x" + Integer.toHexString(code));
                assertEquals(code, f.fromDouble(v));
                assertEquals(code, MiniFloat.fromFloat(f, v));
            }
        }
    }

    /** Every midpoint between neighbours, and the doubles just beside it (beyond float precision too). */
    @ParameterizedTest
    @MethodSource("specs")
    void midpointsRoundToEvenAndNeighboursToTheNearer(Spec s) {
        MiniFloatFormat f = s.format();
        double[] values = Reference.sortedFiniteValues(s);
        for (int i = 0; i + 1 < values.length; i++) {
            double mid = (values[i] + values[i + 1]) / 2;   // exact: both are short binary fractions
            if (s.specials() == Specials.E8M0 && values[i] <= 0) {
                continue;
            }
            for (double x : new double[] {mid, Math.nextDown(mid), Math.nextUp(mid),
                    (float) mid, Math.nextDown((float) mid), Math.nextUp((float) mid)}) {
                assertEquals(Reference.nearest(s, x), f.fromDouble(x), () -> s + " x=" + x);
                if ((float) x == x) {
                    assertEquals(Reference.nearest(s, x), f.fromFloat((float) x), () -> s + " x=" + x);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void specialInputsFollowMlDtypes(Spec s) {
        MiniFloatFormat f = s.format();
        assertEquals(s.posOverflow(), f.fromFloat(Float.POSITIVE_INFINITY), "+inf");
        assertEquals(s.negOverflow(), f.fromFloat(Float.NEGATIVE_INFINITY), "-inf");
        assertEquals(s.posOverflow(), f.fromDouble(Double.POSITIVE_INFINITY), "+inf double");
        assertEquals(s.posNaN(), f.fromFloat(Float.NaN), "NaN");
        assertEquals(s.negNaN(), f.fromFloat(Float.intBitsToFloat(0xFFC0_0000)), "-NaN");
        assertEquals(s.posNaN(), f.fromFloat(Float.intBitsToFloat(0x7F80_0001)), "signalling NaN");
        assertEquals(s.posNaN(), f.fromDouble(Double.NaN), "NaN double");
        assertEquals(s.posZero(), f.fromFloat(0f), "+0");
        assertEquals(s.negZero(), f.fromFloat(-0f), "-0");
        assertEquals(s.posOverflow(), f.fromFloat(Float.MAX_VALUE), "float max");
        assertEquals(s.negOverflow(), f.fromFloat(-Float.MAX_VALUE), "-float max");
        assertEquals(s.posOverflow(), f.fromDouble(1e300), "huge double");
    }

    /** The overflow threshold: half an ulp above the maximum, where the tie rule decides. */
    @ParameterizedTest
    @MethodSource("specs")
    void overflowStartsWhereRoundToNearestEvenLeavesTheMaximum(Spec s) {
        MiniFloatFormat f = s.format();
        double ulp = Math.pow(2, Math.getExponent(s.max()) - s.m());
        double tie = s.max() + ulp / 2;
        int maxCode = f.maxFiniteCode();
        // the largest finite code's last bit decides the tie (e8m0: ties round up)
        boolean tieOverflows = s.specials() == Specials.E8M0 || (maxCode & 1) == 1;
        assertEquals(maxCode, f.fromDouble(Math.nextDown(tie)));
        assertEquals(s.posOverflow(), f.fromDouble(Math.nextUp(tie)));
        assertEquals(tieOverflows ? s.posOverflow() : maxCode, f.fromDouble(tie));
        if (f.isSigned()) {
            assertEquals(maxCode | s.signBit(), f.fromDouble(-Math.nextDown(tie)));
            assertEquals(s.negOverflow(), f.fromDouble(-Math.nextUp(tie)));
        }
    }

    @Test
    void e4m3fnKeepsValuesUpTo464AndOverflowsToNaNAbove() {
        MiniFloatFormat f = MiniFloatFormat.F8E4M3FN;
        assertEquals(0x7E, f.fromFloat(464f));          // tie, 0x7E is even
        assertEquals(0x7F, f.fromFloat(464.1f));        // NaN
        assertEquals(0xFF, f.fromFloat(-500f));
        assertEquals(0x7E, f.fromFloat(460f));
    }

    @Test
    void fnuzFormatsHaveNoNegativeZero() {
        for (MiniFloatFormat f : new MiniFloatFormat[] {MiniFloatFormat.F8E4M3FNUZ, MiniFloatFormat.F8E5M2FNUZ,
                MiniFloatFormat.F8E4M3B11FNUZ}) {
            assertEquals(0, f.fromFloat(-1e-30f));
            assertEquals(0, f.fromDouble(-Double.MIN_VALUE));
            assertEquals(0x80 | f.fromFloat(1f), f.fromFloat(-1f));
        }
    }

    @Test
    void e8m0Rules() {
        MiniFloatFormat f = MiniFloatFormat.F8E8M0FNU;
        assertEquals(0xFF, f.fromFloat(-1f), "negative");
        assertEquals(0xFF, f.fromFloat(-1e-30f), "tiny negative");
        assertEquals(0x00, f.fromFloat(Float.MIN_VALUE), "tiny positive clamps to 2^-127");
        assertEquals(0x00, f.fromDouble(Double.MIN_VALUE));
        assertEquals(0x00, f.fromFloat(0x1p-127f));
        assertEquals(0x01, f.fromFloat(0x1.4p-127f), "above 2^-127 gives 2^-126, as ml_dtypes does");
        assertEquals(0x01, f.fromFloat(0x1.8p-127f), "tie rounds up");
        assertEquals(0x7F, f.fromFloat(1.4999999f));
        assertEquals(0x80, f.fromFloat(1.5f), "tie rounds up");
        assertEquals(0x81, f.fromFloat(3f), "tie 2|4 rounds up, even though the larger code is odd");
        assertEquals(0x80, f.fromFloat(2.9999998f));
        assertEquals(0xFE, f.fromFloat(0x1.7FFFFEp127f));
        assertEquals(0xFF, f.fromFloat(0x1.8p127f), "tie above the maximum overflows to NaN");
    }

    @Test
    void sixAndFourBitCodesUseOnlyTheirLowBits() {
        for (MiniFloatFormat f : new MiniFloatFormat[] {MiniFloatFormat.F4E2M1FN, MiniFloatFormat.F6E3M2FN,
                MiniFloatFormat.F6E2M3FN}) {
            for (float v : new float[] {-1e9f, -3f, -0.3f, -0f, 0f, 0.1f, 2.5f, 1e9f, Float.NaN}) {
                int code = f.fromFloat(v);
                assertEquals(0, code & ~f.codeMask(), () -> f + " " + v);
            }
        }
        assertEquals(0x5, MiniFloatFormat.F4E2M1FN.fromFloat(3f));
        assertEquals(0x6, MiniFloatFormat.F4E2M1FN.fromFloat(5f));       // tie 4|6 -> even code 0x6
        assertEquals(0x4, MiniFloatFormat.F4E2M1FN.fromFloat(2.5f));     // tie 2|3 -> even code 0x4
        assertEquals(0xF, MiniFloatFormat.F4E2M1FN.fromFloat(-7f));      // saturates
        assertEquals(0x1F, MiniFloatFormat.F6E3M2FN.fromFloat(1000f));
    }

    @Test
    void ofRefusesOtherTypes() {
        assertThrows(IllegalArgumentException.class, () -> MiniFloatFormat.of(ElementType.F16));
        assertThrows(IllegalArgumentException.class, () -> MiniFloatFormat.of(ElementType.S8));
        assertEquals(MiniFloatFormat.F8E4M3FN, MiniFloatFormat.of(ElementType.fromName("f8e4m3fn")));
    }
}
