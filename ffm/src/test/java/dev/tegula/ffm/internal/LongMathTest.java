package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LongMathTest {

    @Test
    void lcmIsTheLeastCommonMultiple() {
        assertEquals(12, LongMath.lcm(4, 6));
        assertEquals(12, LongMath.lcm(6, 4));
        assertEquals(7, LongMath.lcm(1, 7));
        assertEquals(4096, LongMath.lcm(4096, 8));
        assertEquals(128L * 3 * 5, LongMath.lcm(128 * 3, 128 * 5));
        assertEquals(1L << 62, LongMath.lcm(1L << 62, 1L << 40));
    }

    @Test
    void lcmRefusesNonPositiveArgumentsAndOverflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LongMath.lcm(0, 4));
        assertTrue(e.getMessage().contains("a must be > 0, got 0"), e::getMessage);
        e = assertThrows(IllegalArgumentException.class, () -> LongMath.lcm(4, -2));
        assertTrue(e.getMessage().contains("b must be > 0, got -2"), e::getMessage);
        assertThrows(ArithmeticException.class, () -> LongMath.lcm(Long.MAX_VALUE, Long.MAX_VALUE - 1));
    }

    @Test
    void roundUpGivesTheLeastMultipleNotBelowTheValue() {
        assertEquals(0, LongMath.roundUp(0, 32));
        assertEquals(32, LongMath.roundUp(1, 32));
        assertEquals(32, LongMath.roundUp(32, 32));
        assertEquals(64, LongMath.roundUp(33, 32));
        assertEquals(15, LongMath.roundUp(13, 3));
        assertEquals(7, LongMath.roundUp(7, 1));
        assertEquals(0, LongMath.roundUp(-3, 4), "toward positive infinity");
        assertEquals(Long.MAX_VALUE - 7, LongMath.roundUp(Long.MAX_VALUE - 8, 8));
    }

    @Test
    void roundUpRefusesANonPositiveMultipleAndOverflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LongMath.roundUp(5, 0));
        assertTrue(e.getMessage().contains("multiple must be > 0, got 0"), e::getMessage);
        assertThrows(IllegalArgumentException.class, () -> LongMath.roundUp(5, -4));
        assertThrows(ArithmeticException.class, () -> LongMath.roundUp(Long.MAX_VALUE - 6, 8));
    }
}
