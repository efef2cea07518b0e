package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class Float16Test {

    @Test
    void everyCodeDecodesToItsDefinedValueAndRoundTrips() {
        for (int i = 0; i < 65536; i++) {
            final int c = i;
            short bits = (short) c;
            double expected = Reference.decodeIeee(c, 5, 10);
            float v = Float16.toFloat(bits);
            if (Double.isNaN(expected)) {
                assertTrue(Float.isNaN(v));
                assertTrue(Float16.isNaN(bits));
                assertTrue(Float16.isNaN(Float16.fromFloat(v)), () -> "NaN stays NaN: " + Integer.toHexString(c));
                assertTrue(Float16.isNaN(Float16.fromDouble(v)));
            } else {
                assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(v), () -> Integer.toHexString(c));
                assertEquals(c, Float16.fromFloat(v) & 0xFFFF);
                assertEquals(c, Float16.fromDouble(v) & 0xFFFF);
            }
        }
    }

    @Test
    void landmarks() {
        assertEquals(65504f, Float16.toFloat(Float16.MAX_VALUE));
        assertEquals(0x1p-24f, Float16.toFloat((short) 1));
        assertEquals(0x1p-14f, Float16.toFloat((short) 0x0400));
        assertEquals(Float16.MAX_VALUE, Float16.fromFloat(65519f));
        assertEquals(Float16.POSITIVE_INFINITY, Float16.fromFloat(65520f));  // tie, max is odd
        assertEquals(Float16.NEGATIVE_INFINITY, Float16.fromDouble(-65520.0));
        assertEquals(Float16.MAX_VALUE, Float16.fromDouble(65519.99999));
        assertEquals((short) 0x8000, Float16.fromDouble(-0.0));
        assertEquals(Float16.POSITIVE_INFINITY, Float16.fromDouble(Double.POSITIVE_INFINITY));
        // 1 + 2^-11 + 2^-40 is just above an f16 tie; through float it would land on the tie
        assertEquals(0x3C00, Float16.fromFloat((float) (1 + 0x1p-11 + 0x1p-40)));
        assertEquals(0x3C01, Float16.fromDouble(1 + 0x1p-11 + 0x1p-40));
    }

    @Property(tries = 5000)
    void fromDoubleIsNearestEven(@ForAll int exponent, @ForAll long fraction, @ForAll boolean negative) {
        double x = Math.scalb(1.0 + (fraction >>> 12) * 0x1p-52, Math.floorMod(exponent, 48) - 30);
        double signed = negative ? -x : x;
        assertEquals(Reference.nearestIeee(signed, 5, 10), Float16.fromDouble(signed) & 0xFFFF,
                () -> Double.toString(signed));
    }

    @Property(tries = 5000)
    void fromDoubleAgreesWithTheJdkOnFloats(@ForAll float x) {
        if (Float.isNaN(x)) {
            assertTrue(Float16.isNaN(Float16.fromDouble(x)));
        } else {
            assertEquals(Float.floatToFloat16(x), Float16.fromDouble(x));
        }
    }
}
