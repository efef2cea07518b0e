package dev.tegula.ffm.codec;

/**
 * Codec for the 8-, 6- and 4-bit float formats of {@link MiniFloatFormat}: one generic,
 * parametrised decoder and encoder for all of them.
 *
 * <p>Decoding is a table lookup ({@link MiniFloatFormat#toFloat(int)}); the tables are built from
 * {@link #decodeSlow(MiniFloatFormat, int)}, the plain reference decoder. Encoding rounds once,
 * to nearest with ties to even, from the exact input value. Out-of-range inputs follow
 * {@code ml_dtypes}' default (non-saturating) conversion; see {@link #fromDouble} and
 * {@code docs/codecs.md}. Stateless, allocation-free, thread-safe.
 */
public final class MiniFloat {

    private MiniFloat() {
    }

    /**
     * {@return the value of {@code code} in {@code format} as a float} Same as
     * {@link MiniFloatFormat#toFloat(int)}.
     *
     * @param format the format
     * @param code the code in the low {@code format.bitWidth()} bits; higher bits are ignored
     */
    public static float toFloat(MiniFloatFormat format, int code) {
        return format.toFloat(code);
    }

    /** Bits of the double 2^-127 and 2^-126: f8e8m0fnu's codes 0x00 and 0x01. */
    private static final long TWO_TO_MINUS_127 = Double.doubleToRawLongBits(0x1p-127);
    private static final long TWO_TO_MINUS_126 = Double.doubleToRawLongBits(0x1p-126);

    /**
     * {@return the code nearest to {@code value} in {@code format}} Same as
     * {@link #fromDouble(MiniFloatFormat, double)}; a float widens exactly to a double, so this
     * also rounds only once.
     *
     * @param format the format
     * @param value the value to encode
     */
    public static int fromFloat(MiniFloatFormat format, float value) {
        return fromDouble(format, value);
    }

    /**
     * Encodes {@code value} as the code of {@code format} nearest to it.
     *
     * <p>In range, the result is the nearest value, rounded once: ties go to the code with an even
     * last bit; subnormals are produced where the format has them, and values below half the
     * smallest subnormal become zero of the input's sign (or {@code 0x00} for the "fnuz" formats,
     * which have no negative zero). f8e8m0fnu has no fraction bit, so a tie between two powers of
     * two goes to the larger one; every positive value up to {@code 2^-127} gives {@code 0x00}, and
     * every value strictly between {@code 2^-127} and {@code 2^-126} gives {@code 0x01}
     * ({@code 2^-126}), as ml_dtypes does for float32 subnormals.
     *
     * <p>Out of range, as {@code ml_dtypes}' default conversion does (a value overflows when it
     * rounds, with an unbounded exponent, past the largest finite value):
     * <table>
     *   <caption>special inputs</caption>
     *   <tr><th>format</th><th>overflow, ±∞</th><th>NaN</th><th>±0</th></tr>
     *   <tr><td>f8e5m2, f8e4m3, f8e3m4</td><td>±∞</td><td>quiet NaN, input's sign</td><td>±0</td></tr>
     *   <tr><td>f8e4m3fn</td><td>NaN with the input's sign ({@code S.1111.111})</td>
     *       <td>NaN, input's sign</td><td>±0</td></tr>
     *   <tr><td>f8e4m3fnuz, f8e4m3b11fnuz, f8e5m2fnuz</td><td>NaN {@code 0x80}</td>
     *       <td>{@code 0x80}</td><td>{@code 0x00}</td></tr>
     *   <tr><td>f8e8m0fnu</td><td>NaN {@code 0xFF}</td><td>{@code 0xFF}</td>
     *       <td>{@code 0xFF} (no zero; negative inputs also give {@code 0xFF})</td></tr>
     *   <tr><td>f4e2m1fn, f6e3m2fn, f6e2m3fn</td><td>±max (saturate)</td>
     *       <td>zero of the opposite sign: -0 for a NaN with its sign bit clear</td><td>±0</td></tr>
     * </table>
     *
     * @param format the format
     * @param value the value to encode
     * @return the code, in the low {@code format.bitWidth()} bits (higher bits 0)
     */
    public static int fromDouble(MiniFloatFormat format, double value) {
        long bits = Double.doubleToRawLongBits(value);
        boolean negative = bits < 0;
        long magnitude = bits & Long.MAX_VALUE;
        MiniFloatFormat.Kind kind = format.kind();
        int signBit = format.signBit();
        int mantissaBits = format.mantissaBits();
        int maxMagnitude = format.maxFiniteCode();

        if (kind == MiniFloatFormat.Kind.EXPONENT_ONLY) {
            if (negative || magnitude == 0 || magnitude >= 0x7FF0_0000_0000_0000L) {
                return format.codeMask();                  // NaN: no sign, no zero, no infinity
            }
            if (magnitude > TWO_TO_MINUS_127 && magnitude < TWO_TO_MINUS_126) {
                return 1;                                  // 2^-126, as ml_dtypes gives (see docs/codecs.md)
            }
            // Code c is 2^(c - 127): the kernel with bias 128 counts one higher (its code 1 is 2^-127).
            long code = Rounding.roundDouble(magnitude, 0, format.bias() + 1) - 1;
            return code > maxMagnitude ? format.codeMask() : (int) Math.max(code, 0);
        }
        if (magnitude > 0x7FF0_0000_0000_0000L) {
            return nanCode(format, negative);
        }
        int sign = negative ? signBit : 0;
        if (magnitude == 0x7FF0_0000_0000_0000L) {
            return overflowCode(format, sign);
        }
        if (magnitude == 0) {
            return kind == MiniFloatFormat.Kind.NAN_NEGATIVE_ZERO ? 0 : sign;
        }
        long code = Rounding.roundDouble(magnitude, mantissaBits, format.bias());
        if (code > maxMagnitude) {
            return overflowCode(format, sign);
        }
        if (code == 0 && kind == MiniFloatFormat.Kind.NAN_NEGATIVE_ZERO) {
            return 0;
        }
        return sign | (int) code;
    }

    /**
     * {@return the value of {@code code} in {@code format}, computed from the field definitions} The
     * plain reference decoder the lookup tables are built from; slow, but allocation-free.
     *
     * @param format the format
     * @param code the code in the low {@code format.bitWidth()} bits; higher bits are ignored
     */
    static float decodeSlow(MiniFloatFormat format, int code) {
        code &= format.codeMask();
        int mantissaBits = format.mantissaBits();
        int signBit = format.signBit();
        int magnitude = code & ~signBit;
        boolean negative = signBit != 0 && (code & signBit) != 0;
        int exponentField = magnitude >>> mantissaBits;
        int fraction = magnitude & ((1 << mantissaBits) - 1);
        int exponentAllOnes = (1 << format.exponentBits()) - 1;
        switch (format.kind()) {
            case EXPONENT_ONLY -> {
                return code == format.codeMask() ? Float.NaN : Math.scalb(1.0f, code - format.bias());
            }
            case IEEE -> {
                if (exponentField == exponentAllOnes) {
                    return fraction == 0 ? (negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY)
                            : quietNaN(negative);
                }
            }
            case NAN_ALL_ONES -> {
                if (magnitude == signBit - 1) {
                    return quietNaN(negative);
                }
            }
            case NAN_NEGATIVE_ZERO -> {
                if (code == signBit) {
                    return Float.NaN;
                }
            }
            case FINITE -> {
                // every code is a number
            }
        }
        float value = exponentField == 0
                ? Math.scalb((float) fraction, 1 - format.bias() - mantissaBits)
                : Math.scalb((float) (fraction | (1 << mantissaBits)), exponentField - format.bias() - mantissaBits);
        return negative ? -value : value;
    }

    /** The quiet NaN with the given sign, built from bits (negating a NaN need not flip its sign). */
    private static float quietNaN(boolean negative) {
        return Float.intBitsToFloat(negative ? 0xFFC0_0000 : 0x7FC0_0000);
    }

    private static int nanCode(MiniFloatFormat format, boolean negative) {
        int signBit = format.signBit();
        int sign = negative ? signBit : 0;
        return switch (format.kind()) {
            case IEEE -> sign | (signBit - 1) >>> format.mantissaBits() << format.mantissaBits()
                    | 1 << (format.mantissaBits() - 1);
            case NAN_ALL_ONES -> sign | (signBit - 1);
            case NAN_NEGATIVE_ZERO -> signBit;
            case EXPONENT_ONLY -> format.codeMask();
            // ml_dtypes' stand-in for NaN in these formats is -0, then the input's sign is applied
            // by negation, which flips the sign bit.
            case FINITE -> negative ? 0 : signBit;
        };
    }

    private static int overflowCode(MiniFloatFormat format, int sign) {
        int mantissaBits = format.mantissaBits();
        int signBit = format.signBit();
        return switch (format.kind()) {
            case IEEE -> sign | (signBit - 1) >>> mantissaBits << mantissaBits;
            case NAN_ALL_ONES -> sign | (signBit - 1);
            case NAN_NEGATIVE_ZERO -> signBit;
            case EXPONENT_ONLY -> format.codeMask();
            case FINITE -> sign | format.maxFiniteCode();
        };
    }
}
