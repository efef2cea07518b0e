package dev.tegula.ffm.internal;

/**
 * Integer arithmetic on sizes that {@link Math} lacks. Stateless and thread-safe. Not API: exported
 * only to Tegula's own modules.
 */
public final class LongMath {
    private LongMath() {
    }

    /**
     * {@return the least common multiple of {@code a} and {@code b}}, both positive
     *
     * @throws IllegalArgumentException if {@code a} or {@code b} is not positive
     * @throws ArithmeticException      if the result overflows a {@code long}
     */
    public static long lcm(long a, long b) {
        if (a <= 0 || b <= 0) {
            throw new IllegalArgumentException("lcm: " + (a <= 0 ? "a" : "b") + " must be > 0, got " + (a <= 0 ? a : b));
        }
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return Math.multiplyExact(a / x, b);
    }
}
