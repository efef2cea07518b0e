package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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

    @Test
    void indexOfInfinityFindsTheFirstInfinityAtEveryPositionAndNothingElse() {
        short[] others = {0, (short) 0x8000, 0x7BFF, (short) 0xFBFF, 0x7C01, (short) 0xFC01, 0x7E00, (short) 0xFFFF,
            0x3C00, 0x0001, 0x7FFF, (short) 0xFE00};
        try (Arena arena = Arena.ofConfined()) {
            int n = 13;
            MemorySegment s = arena.allocate(2L * n + 1);
            for (short other : others) {
                for (int i = 0; i < n; i++) {
                    s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 1 + 2L * i, other);
                }
                assertEquals(-1, Float16.indexOfInfinity(s, 1, n), () -> Integer.toHexString(other & 0xFFFF));
                for (short inf : new short[] {Float16.POSITIVE_INFINITY, Float16.NEGATIVE_INFINITY}) {
                    for (int at = 0; at < n; at++) {
                        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 1 + 2L * at, inf);
                        assertEquals(at, Float16.indexOfInfinity(s, 1, n));
                        assertEquals(at >= 2 ? at - 2 : -1, Float16.indexOfInfinity(s, 1 + 4, n - 2), "from a later offset");
                        assertEquals(-1, Float16.indexOfInfinity(s, 1, at), "the codes before it");
                        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 1 + 2L * at, other);
                    }
                }
            }
            assertThrows(IndexOutOfBoundsException.class, () -> Float16.indexOfInfinity(s, 1, n + 1));
        }
    }
}
