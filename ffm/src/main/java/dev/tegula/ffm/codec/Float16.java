package dev.tegula.ffm.codec;

/**
 * IEEE 754 binary16 codec: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits. Has
 * infinities, NaNs, signed zeros and subnormals; largest finite value 65504.
 *
 * <p>A thin layer over {@link Float#float16ToFloat(short)} and {@link Float#floatToFloat16(float)},
 * plus a direct, singly rounded conversion from {@code double}. Stateless, allocation-free,
 * thread-safe.
 */
public final class Float16 {

    /** The code of positive infinity. */
    public static final short POSITIVE_INFINITY = 0x7C00;
    /** The code of negative infinity. */
    public static final short NEGATIVE_INFINITY = (short) 0xFC00;
    /** The code of the largest finite value, 65504. */
    public static final short MAX_VALUE = 0x7BFF;

    private static final int MANTISSA_BITS = 10;
    private static final int BIAS = 15;

    private Float16() {
    }

    /**
     * {@return the float with the same value as the binary16 {@code bits}} Exact; a NaN code gives a
     * NaN with the same sign and its payload in the top fraction bits
     * ({@link Float#float16ToFloat(short)}).
     *
     * @param bits the binary16 code
     */
    public static float toFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    /**
     * {@return the binary16 code nearest to {@code value}, ties to even}
     * ({@link Float#floatToFloat16(float)}): subnormals included; magnitudes of at least 65520 (the
     * midpoint between 65504 and 2^16) become infinity of the same sign; infinities and signed zeros
     * are kept; a NaN stays a NaN with the same sign.
     *
     * @param value the value to encode
     */
    public static short fromFloat(float value) {
        return Float.floatToFloat16(value);
    }

    /**
     * {@return the binary16 code nearest to {@code value}, ties to even}, rounded once from the
     * double (no intermediate rounding to float). Same rules as {@link #fromFloat(float)}; a NaN
     * becomes {@code fromFloat((float) value)}.
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
     * @param bits the binary16 code
     */
    public static boolean isNaN(short bits) {
        return (bits & 0x7FFF) > 0x7C00;
    }
}
