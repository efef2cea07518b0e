package dev.tegula.ffm.codec;

import dev.tegula.core.ElementType;

/**
 * The 8-, 6- and 4-bit float formats of XLA, as JAX's {@code ml_dtypes} defines them: field widths,
 * bias, and which special values exist. Each constant decodes through a table built at class
 * initialisation and encodes with {@link MiniFloat#fromDouble(MiniFloatFormat, double)}.
 *
 * <p>A code is an {@code int} holding the format's bits in its low {@link #bitWidth()} bits (for
 * the 6- and 4-bit formats, the low bits of the storage byte); decoders ignore higher bits, encoders
 * return them as 0. The sign bit, where there is one, is the top bit of the code.
 *
 * <p>How each format treats overflow, infinities, NaN and zero on encoding is listed per constant
 * and in {@code docs/codecs.md}. Immutable and thread-safe.
 */
public enum MiniFloatFormat {
    /**
     * f8e5m2: IEEE-like, bias 15: infinities ({@code S.11111.00}), NaNs ({@code S.11111.xx}, xx not 0),
     * signed zeros; max 57344. Encoding: overflow and infinity give signed infinity; NaN gives the
     * quiet NaN {@code S.11111.10}.
     */
    F8E5M2(8, 5, 2, 15, Kind.IEEE),
    /**
     * f8e4m3: IEEE-like, bias 7: infinities ({@code S.1111.000}), NaNs, signed zeros; max 240.
     * Encoding: overflow and infinity give signed infinity; NaN gives {@code S.1111.100}.
     */
    F8E4M3(8, 4, 3, 7, Kind.IEEE),
    /**
     * f8e4m3fn: bias 7, finite: no infinity, NaN only {@code S.1111.111}, signed zeros; max 448.
     * Encoding: overflow and infinity give NaN with the input's sign ({@code 0x7F}/{@code 0xFF}).
     */
    F8E4M3FN(8, 4, 3, 7, Kind.NAN_ALL_ONES),
    /**
     * f8e4m3b11fnuz: bias 11, no infinity, one NaN {@code 0x80}, no negative zero; max 30.
     * Encoding: overflow, infinity and NaN give {@code 0x80}; -0 and negative values that round to
     * zero give {@code 0x00}.
     */
    F8E4M3B11FNUZ(8, 4, 3, 11, Kind.NAN_NEGATIVE_ZERO),
    /**
     * f8e3m4: IEEE-like, bias 3: infinities ({@code S.111.0000}), NaNs, signed zeros; max 15.5.
     * Encoding: overflow and infinity give signed infinity; NaN gives {@code S.111.1000}.
     */
    F8E3M4(8, 3, 4, 3, Kind.IEEE),
    /**
     * f8e5m2fnuz: bias 16, no infinity, one NaN {@code 0x80}, no negative zero; max 57344. Encoding
     * as {@link #F8E4M3B11FNUZ}.
     */
    F8E5M2FNUZ(8, 5, 2, 16, Kind.NAN_NEGATIVE_ZERO),
    /**
     * f8e4m3fnuz: bias 8, no infinity, one NaN {@code 0x80}, no negative zero; max 240. Encoding as
     * {@link #F8E4M3B11FNUZ}.
     */
    F8E4M3FNUZ(8, 4, 3, 8, Kind.NAN_NEGATIVE_ZERO),
    /**
     * f8e8m0fnu: the MX scale type: no sign, 8 exponent bits, no fraction, bias 127; code {@code c}
     * is {@code 2^(c - 127)} for {@code c < 255}, {@code 0xFF} is NaN; no zero, no infinity; range
     * {@code 2^-127} to {@code 2^127}. Encoding: NaN, infinities, zeros, negative values and overflow
     * give {@code 0xFF}; positive values below {@code 2^-127} give {@code 0x00} ({@code 2^-127}); a
     * value halfway between two powers of two rounds up (there is no even fraction bit to prefer).
     */
    F8E8M0FNU(8, 8, 0, 127, Kind.EXPONENT_ONLY),
    /**
     * f4e2m1fn: MX FP4, bias 1, finite: no infinity, no NaN, signed zeros; values 0, 0.5, 1, 1.5, 2,
     * 3, 4, 6. Encoding saturates: overflow and infinity give the largest finite value with the
     * input's sign; NaN gives a zero of the opposite sign ({@code 0x8} for a NaN with its sign bit
     * clear, such as {@link Float#NaN}; {@code 0x0} for one with its sign bit set).
     */
    F4E2M1FN(4, 2, 1, 1, Kind.FINITE),
    /**
     * f6e3m2fn: MX FP6, bias 3, finite, signed zeros; max 28. Encoding as {@link #F4E2M1FN}
     * (saturating; a NaN with its sign bit clear gives {@code 0x20}, -0).
     */
    F6E3M2FN(6, 3, 2, 3, Kind.FINITE),
    /**
     * f6e2m3fn: MX FP6, bias 1, finite, signed zeros; max 7.5. Encoding as {@link #F4E2M1FN}
     * (saturating; a NaN with its sign bit clear gives {@code 0x20}, -0).
     */
    F6E2M3FN(6, 2, 3, 1, Kind.FINITE);

    /** Which special values a format has; decides decoding of the top codes and encoding rules. */
    enum Kind {
        /** Exponent all ones: infinity (fraction 0) or NaN; signed zeros. */
        IEEE,
        /** No infinity; NaN is {@code S.1…1.1…1}; signed zeros ("fn"). */
        NAN_ALL_ONES,
        /** No infinity; NaN is the would-be negative zero, sign bit only ("fnuz"). */
        NAN_NEGATIVE_ZERO,
        /** No sign, no fraction, no zero; all ones is NaN ("e8m0fnu"). */
        EXPONENT_ONLY,
        /** Every code is finite, signed zeros; no NaN, no infinity (MX fp4/fp6). */
        FINITE
    }

    private final int bitWidth;
    private final int exponentBits;
    private final int mantissaBits;
    private final int bias;
    private final Kind kind;
    private final int codeMask;
    private final int signBit;
    private final int maxFiniteMagnitude;
    private final float[] decodeTable;

    MiniFloatFormat(int bitWidth, int exponentBits, int mantissaBits, int bias, Kind kind) {
        this.bitWidth = bitWidth;
        this.exponentBits = exponentBits;
        this.mantissaBits = mantissaBits;
        this.bias = bias;
        this.kind = kind;
        this.codeMask = (1 << bitWidth) - 1;
        this.signBit = kind == Kind.EXPONENT_ONLY ? 0 : 1 << (bitWidth - 1);
        int allOnes = kind == Kind.EXPONENT_ONLY ? codeMask : signBit - 1;
        this.maxFiniteMagnitude = switch (kind) {
            case IEEE -> (allOnes >>> mantissaBits << mantissaBits) - 1;
            case NAN_ALL_ONES, EXPONENT_ONLY -> allOnes - 1;
            case NAN_NEGATIVE_ZERO, FINITE -> allOnes;
        };
        this.decodeTable = new float[1 << bitWidth];
        for (int code = 0; code < decodeTable.length; code++) {
            decodeTable[code] = MiniFloat.decodeSlow(this, code);
        }
    }

    /** {@return the total number of bits of a code: 8, 6 or 4} */
    public int bitWidth() {
        return bitWidth;
    }

    /** {@return the number of exponent bits} */
    public int exponentBits() {
        return exponentBits;
    }

    /** {@return the number of stored fraction (mantissa) bits, without the implicit bit} */
    public int mantissaBits() {
        return mantissaBits;
    }

    /** {@return the exponent bias: a normal code with biased exponent {@code e} is {@code 1.f * 2^(e - bias)}} */
    public int bias() {
        return bias;
    }

    /** {@return the mask of the code bits, {@code 2^bitWidth - 1}} */
    public int codeMask() {
        return codeMask;
    }

    /** {@return true if the format has a sign bit (all but f8e8m0fnu)} */
    public boolean isSigned() {
        return signBit != 0;
    }

    /** {@return true if the format has infinities (f8e5m2, f8e4m3, f8e3m4)} */
    public boolean hasInfinity() {
        return kind == Kind.IEEE;
    }

    /** {@return true if the format has at least one NaN code (all but f4e2m1fn and the f6 types)} */
    public boolean hasNaN() {
        return kind != Kind.FINITE;
    }

    /** {@return true if the format has a distinct negative zero} */
    public boolean hasNegativeZero() {
        return kind == Kind.IEEE || kind == Kind.NAN_ALL_ONES || kind == Kind.FINITE;
    }

    /** {@return true if the format has subnormal values (all but f8e8m0fnu)} */
    public boolean hasSubnormals() {
        return kind != Kind.EXPONENT_ONLY;
    }

    /** {@return the code of the largest finite value (positive)} */
    public int maxFiniteCode() {
        return maxFiniteMagnitude;
    }

    /** {@return the largest finite value} */
    public float maxFinite() {
        return decodeTable[maxFiniteMagnitude];
    }

    /** {@return the smallest positive normal value, {@code 2^(1 - bias)}; for f8e8m0fnu {@code 2^-127}} */
    public float minNormal() {
        return kind == Kind.EXPONENT_ONLY ? decodeTable[0] : decodeTable[1 << mantissaBits];
    }

    /** {@return the smallest positive value: the smallest subnormal, {@code 2^(1 - bias - mantissaBits)}; for f8e8m0fnu {@code 2^-127}} */
    public float minPositive() {
        return kind == Kind.EXPONENT_ONLY ? decodeTable[0] : decodeTable[1];
    }

    /**
     * {@return true if {@code code} (low {@link #bitWidth()} bits) is a NaN of this format}
     *
     * @param code the code
     */
    public boolean isNaN(int code) {
        return Float.isNaN(decodeTable[code & codeMask]);
    }

    /**
     * {@return the value of {@code code} as a float} Exact (every value of these formats is a float);
     * a table lookup. NaN codes give a quiet NaN: with the code's sign for f8e5m2, f8e4m3, f8e3m4
     * and f8e4m3fn, positive for the others. Infinity codes give infinities of the same sign.
     * Bits above {@link #bitWidth()} are ignored.
     *
     * @param code the code in the low {@link #bitWidth()} bits
     */
    public float toFloat(int code) {
        return decodeTable[code & codeMask];
    }

    /**
     * {@return the value of {@code code} as a double} Exact; otherwise as {@link #toFloat(int)}.
     *
     * @param code the code in the low {@link #bitWidth()} bits
     */
    public double toDouble(int code) {
        return decodeTable[code & codeMask];
    }

    /**
     * {@return the code nearest to {@code value}, ties to even} See
     * {@link MiniFloat#fromDouble(MiniFloatFormat, double)} for the exact rules.
     *
     * @param value the value to encode
     */
    public int fromFloat(float value) {
        return MiniFloat.fromDouble(this, value);
    }

    /**
     * {@return the code nearest to {@code value}, ties to even, rounded once from the double} See
     * {@link MiniFloat#fromDouble(MiniFloatFormat, double)} for the exact rules.
     *
     * @param value the value to encode
     */
    public int fromDouble(double value) {
        return MiniFloat.fromDouble(this, value);
    }

    /** {@return the XLA element type of this format} */
    public ElementType elementType() {
        return switch (this) {
            case F8E5M2 -> ElementType.F8E5M2;
            case F8E4M3 -> ElementType.F8E4M3;
            case F8E4M3FN -> ElementType.F8E4M3FN;
            case F8E4M3B11FNUZ -> ElementType.F8E4M3B11FNUZ;
            case F8E3M4 -> ElementType.F8E3M4;
            case F8E5M2FNUZ -> ElementType.F8E5M2FNUZ;
            case F8E4M3FNUZ -> ElementType.F8E4M3FNUZ;
            case F8E8M0FNU -> ElementType.F8E8M0FNU;
            case F4E2M1FN -> ElementType.F4E2M1FN;
            case F6E3M2FN -> ElementType.F6E3M2FN;
            case F6E2M3FN -> ElementType.F6E2M3FN;
        };
    }

    /**
     * {@return the format of an 8-, 6- or 4-bit float element type}
     *
     * @param type an element type
     * @throws IllegalArgumentException if {@code type} is not one of those float types
     */
    public static MiniFloatFormat of(ElementType type) {
        return switch (type) {
            case F8E5M2 -> F8E5M2;
            case F8E4M3 -> F8E4M3;
            case F8E4M3FN -> F8E4M3FN;
            case F8E4M3B11FNUZ -> F8E4M3B11FNUZ;
            case F8E3M4 -> F8E3M4;
            case F8E5M2FNUZ -> F8E5M2FNUZ;
            case F8E4M3FNUZ -> F8E4M3FNUZ;
            case F8E8M0FNU -> F8E8M0FNU;
            case F4E2M1FN -> F4E2M1FN;
            case F6E3M2FN -> F6E3M2FN;
            case F6E2M3FN -> F6E2M3FN;
            default -> throw new IllegalArgumentException(
                    "elementType: " + type + " is not an 8-, 6- or 4-bit float type");
        };
    }

    /** {@return the lower-case XLA name, e.g. {@code "f8e4m3fn"}} */
    @Override
    public String toString() {
        return elementType().hloName();
    }

    Kind kind() {
        return kind;
    }

    int signBit() {
        return signBit;
    }
}
