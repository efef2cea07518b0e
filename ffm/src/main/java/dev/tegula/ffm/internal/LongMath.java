package dev.tegula.ffm.internal;

/**
 * Integer arithmetic on sizes that {@link Math} lacks. Stateless and thread-safe. Not API: exported
 * only to Tegula's own modules.
 */
public final class LongMath {
    private LongMath() {
    }

    /**
     * {@return {@code value} rounded up to a multiple of {@code multiple}}, e.g. an offset to its
     * alignment or a size to whole tiles
     *
     * @throws IllegalArgumentException if {@code multiple} is not positive
     * @throws ArithmeticException      if the result overflows a {@code long}
     */
    public static long roundUp(long value, long multiple) {
        if (multiple <= 0) {
            throw new IllegalArgumentException("roundUp: multiple must be > 0, got " + multiple);
        }
        return Math.multiplyExact(Math.ceilDiv(value, multiple), multiple);
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
