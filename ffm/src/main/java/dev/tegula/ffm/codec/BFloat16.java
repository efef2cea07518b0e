package dev.tegula.ffm.codec;

/**
 * bfloat16 codec: 1 sign bit, 8 exponent bits (bias 127), 7 fraction bits; the upper half of an
 * IEEE binary32. Has infinities, NaNs, signed zeros and subnormals.
 *
 * <p>Codes are {@code short}s holding the 16 bits. Stateless, allocation-free, thread-safe.
 */
public final class BFloat16 {

    /** The code of positive infinity. */
    public static final short POSITIVE_INFINITY = 0x7F80;
    /** The code of negative infinity. */
    public static final short NEGATIVE_INFINITY = (short) 0xFF80;
    /** The canonical quiet NaN code (positive). */
    public static final short NaN = 0x7FC0;
    /** The code of the largest finite value, {@code (2 - 2^-7) * 2^127}. */
    public static final short MAX_VALUE = 0x7F7F;

    private static final int MANTISSA_BITS = 7;
    private static final int BIAS = 127;

    private BFloat16() {
    }

    /**
     * {@return the float with the same value as the bfloat16 {@code bits}}
     * Exact: every bfloat16 value is a float. NaN codes give a NaN with the same sign and the same
     * payload bits (moved to the top of the float's fraction).
     *
     * @param bits the bfloat16 code
     */
    public static float toFloat(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    /**
     * {@return the bfloat16 code nearest to {@code value}, ties to even}
     *
     * <ul>
     *   <li>Finite values round to nearest, ties to the code with an even last fraction bit,
     *       subnormals included (float subnormals map onto bfloat16 subnormals).</li>
     *   <li>Overflow follows that rounding: values of magnitude at least {@code 0x1.FFp127} (the
     *       midpoint between the largest finite value and {@code 2^128}) become infinity of the same
     *       sign; smaller values never become infinity.</li>
     *   <li>Infinities map to infinities; signed zeros keep their sign.</li>
     *   <li>A NaN stays a NaN: its sign and the top 7 fraction bits are kept, and the quiet bit
     *       (fraction bit 6, {@code 0x0040}) is set, so no NaN ever becomes an infinity.</li>
     * </ul>
     *
     * @param value the value to encode
     */
    public static short fromFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        // Add 0x7FFF plus the lowest kept bit: a carry happens exactly when the dropped half is more
        // than a half ulp, or a half ulp and the kept code is odd. A carry out of the fraction moves
        // into the exponent, and one out of the largest finite code gives infinity.
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /**
     * {@return the bfloat16 code nearest to {@code value}, ties to even}, rounded once from the
     * double (no intermediate rounding to float). Same rules as {@link #fromFloat(float)}: overflow
     * to infinity as round-to-nearest-even gives it, signed zeros and infinities kept; a NaN becomes
     * {@code fromFloat((float) value)}, a NaN with the same sign.
     *
     * @param value the value to encode
     */
    public static short fromDouble(double value) {
        return Double.isNaN(value) ? fromFloat((float) value)
                : Rounding.sixteenBitCode(value, MANTISSA_BITS, BIAS, POSITIVE_INFINITY);
    }

    /**
     * {@return true if {@code bits} is a NaN code (exponent all ones, fraction not zero)}
     *
     * @param bits the bfloat16 code
     */
    public static boolean isNaN(short bits) {
        return (bits & 0x7FFF) > 0x7F80;
    }
}
