package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BFloat16Test {

    private static int code(float value) {
        return BFloat16.fromFloat(value) & 0xFFFF;
    }

    @Test
    void everyCodeDecodesToItsDefinedValueAndRoundTrips() {
        for (int i = 0; i < 65536; i++) {
            final int c = i;
            short bits = (short) c;
            double expected = Reference.decodeIeee(c, 8, 7);
            float v = BFloat16.toFloat(bits);
            if (Double.isNaN(expected)) {
                assertTrue(Float.isNaN(v));
                assertTrue(BFloat16.isNaN(bits));
                short back = BFloat16.fromFloat(v);
                assertTrue(BFloat16.isNaN(back), () -> "NaN stays NaN: " + Integer.toHexString(c));
                assertEquals(c & 0x8000, back & 0x8000, "NaN keeps its sign");
                if ((c & 0x0040) != 0) {
                    assertEquals(c, back & 0xFFFF, "a quiet NaN keeps its payload");
                }
            } else {
                assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(v), () -> Integer.toHexString(c));
                assertFalse(BFloat16.isNaN(bits));
                assertEquals(c, code(v), () -> Integer.toHexString(c));
                assertEquals(c, BFloat16.fromDouble(v) & 0xFFFF);
            }
        }
    }

    @Test
    void tiesGoToEven() {
        assertEquals(0x3F80, code(1f + 0x1p-8f));             // between 1 and 1+2^-7: even is 1
        assertEquals(0x3F82, code(1f + 3 * 0x1p-8f));          // between 0x3F81 and 0x3F82
        assertEquals(0x3F81, code(Math.nextUp(1f + 0x1p-8f))); // just above the tie
        assertEquals(0x3F80, code(Math.nextDown(1f + 0x1p-8f)));
        assertEquals(0x0000, code(Float.intBitsToFloat(0x0000_8000)));  // subnormal tie to 0
        assertEquals(0x0002, code(Float.intBitsToFloat(0x0001_8000)));  // subnormal tie 1|2 to 2
        assertEquals(0x8000, code(Float.intBitsToFloat(0x8000_8000)));  // negative tie to -0
    }

    @Test
    void overflowRoundsToInfinityExactlyAsNearestEvenDoes() {
        assertEquals(0x7F7F, code(Float.intBitsToFloat(0x7F7F_7FFF)));  // below the tie above max
        assertEquals(0x7F80, code(Float.intBitsToFloat(0x7F7F_8000)));  // tie; max 0x7F7F is odd
        assertEquals(0x7F80, code(Float.MAX_VALUE));
        assertEquals(0xFF80, code(-Float.MAX_VALUE));
        assertEquals(0x7F80, code(Float.POSITIVE_INFINITY));
        assertEquals(0xFF80, code(Float.NEGATIVE_INFINITY));
        assertEquals(BFloat16.MAX_VALUE, BFloat16.fromDouble(0x1.FEFFFFFFFFFFFp127));
        assertEquals(BFloat16.POSITIVE_INFINITY, BFloat16.fromDouble(0x1.FFp127));
        assertEquals(BFloat16.NEGATIVE_INFINITY, BFloat16.fromDouble(-1e300));
    }

    @Test
    void nanNeverBecomesInfinity() {
        assertEquals(0x7FC0, code(Float.intBitsToFloat(0x7F80_0001)));  // payload only in dropped bits
        assertEquals(0xFFC0, code(Float.intBitsToFloat(0xFF80_0001)));
        assertEquals(0x7FC0, code(Float.intBitsToFloat(0x7F80_FFFF)));
        assertEquals(0x7FFF, code(Float.intBitsToFloat(0x7FFF_FFFF)));  // no carry out of a NaN
        assertEquals(0xFFC1, code(Float.intBitsToFloat(0xFF81_0000)));  // signalling payload kept, made quiet
        assertTrue(BFloat16.isNaN(BFloat16.fromDouble(Double.NaN)));
        assertTrue(BFloat16.isNaN(BFloat16.fromDouble(Double.longBitsToDouble(0x7FF0_0000_0000_0001L))));
        assertEquals(BFloat16.NaN, BFloat16.fromFloat(Float.NaN));
    }

    @Test
    void zerosKeepTheirSign() {
        assertEquals(0x0000, code(0f));
        assertEquals(0x8000, code(-0f));
        assertEquals(0x8000, BFloat16.fromDouble(-0.0) & 0xFFFF);
        assertEquals(0x8000, BFloat16.fromDouble(-1e-300) & 0xFFFF);
        assertEquals(0x0000, BFloat16.fromDouble(Double.MIN_VALUE) & 0xFFFF);
    }

    @Test
    void fromDoubleRoundsOnce() {
        // 1 + 2^-8 + 2^-40: just above a bf16 tie, but a float rounds it onto the tie.
        double x = 1 + 0x1p-8 + 0x1p-40;
        assertEquals(0x3F80, code((float) x), "through float: tie, to even");
        assertEquals(0x3F81, BFloat16.fromDouble(x) & 0xFFFF, "direct: above the tie");
    }
}
