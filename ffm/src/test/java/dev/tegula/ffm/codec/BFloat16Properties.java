package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** bfloat16 rounding against brute-force references. */
class BFloat16Properties {

    /**
     * The nearest of the two bfloat16 values around the float: the one its top half truncates to,
     * and the next one away from zero (2^128 standing for infinity); ties to the even code.
     */
    static int referenceFromFloat(float x) {
        int bits = Float.floatToRawIntBits(x);
        int sign = (bits >>> 16) & 0x8000;
        int below = (bits >>> 16) & 0x7FFF;
        int above = below + 1;
        BigDecimal a = new BigDecimal(Math.abs((double) x));
        BigDecimal lo = new BigDecimal(Reference.decodeIeee(below, 8, 7));
        BigDecimal hi = above == 0x7F80 ? new BigDecimal(0x1p128) : new BigDecimal(Reference.decodeIeee(above, 8, 7));
        int cmp = hi.subtract(a).compareTo(a.subtract(lo));
        int chosen = cmp < 0 || (cmp == 0 && (above & 1) == 0) ? above : below;
        return sign | chosen;
    }

    @Property(tries = 20000)
    void fromFloatIsNearestEven(@ForAll int bits) {
        float x = Float.intBitsToFloat(bits);
        int actual = BFloat16.fromFloat(x) & 0xFFFF;
        if (Float.isNaN(x)) {
            assertTrue(BFloat16.isNaN((short) actual));
            assertEquals((bits >>> 16) & 0x8000, actual & 0x8000);
            return;
        }
        if (Float.isInfinite(x)) {
            assertEquals(bits >>> 16, actual);
            return;
        }
        assertEquals(referenceFromFloat(x), actual, () -> Integer.toHexString(bits));
    }

    /** Floats whose dropped half is exactly a tie, or one ulp beside it. */
    @Property(tries = 5000)
    void tiesAndNearTies(@ForAll short high, @ForAll("offsets") int offset) {
        int bits = (high << 16) | (0x8000 + offset);
        float x = Float.intBitsToFloat(bits);
        if (Float.isNaN(x) || Float.isInfinite(x)) {
            return;
        }
        assertEquals(referenceFromFloat(x), BFloat16.fromFloat(x) & 0xFFFF, () -> Integer.toHexString(bits));
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Integer> offsets() {
        return net.jqwik.api.Arbitraries.of(-1, 0, 1);
    }

    @Property(tries = 5000)
    void fromDoubleIsNearestEven(@ForAll long bits) {
        double x = Double.longBitsToDouble(bits);
        if (Double.isNaN(x)) {
            assertTrue(BFloat16.isNaN(BFloat16.fromDouble(x)));
            return;
        }
        assertEquals(Reference.nearestIeee(x, 8, 7), BFloat16.fromDouble(x) & 0xFFFF, () -> Double.toString(x));
    }

    @Property(tries = 5000)
    void fromDoubleInBf16Range(@ForAll int exponent, @ForAll long fraction, @ForAll boolean negative) {
        double x = Math.scalb(1.0 + (fraction >>> 12) * 0x1p-52, Math.floorMod(exponent, 270) - 140);
        x = negative ? -x : x;
        double xx = x;
        assertEquals(Reference.nearestIeee(x, 8, 7), BFloat16.fromDouble(x) & 0xFFFF, () -> Double.toString(xx));
    }
}
