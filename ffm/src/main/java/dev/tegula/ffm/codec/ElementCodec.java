package dev.tegula.ffm.codec;

import dev.tegula.core.ElementType;
import dev.tegula.core.PaddingValue;

/**
 * Reads and writes one element value of any real XLA array element type as a Java {@code double},
 * {@code float} or {@code long}, from or to its raw code.
 *
 * <p>A raw code is a {@code long} holding the element's bits in its low {@code bitWidth} bits
 * ({@link ElementType#bitWidth()}; 6 for the f6 types, whose storage byte has 2 spare bits).
 * Decoders ignore the bits above; encoders return them as 0 (no sign extension). {@code pred}
 * occupies 8 bits here (its storage byte).
 *
 * <p>Complex types (c64, c128) are two components: callers read and write the real and imaginary
 * parts separately as f32 or f64 ({@link ElementType#componentType()}); the methods here refuse
 * them, and the non-array types, with an {@link IllegalArgumentException}.
 *
 * <p>Rules:
 * <ul>
 *   <li>Integers, decoding: signed types are sign-extended from their width, unsigned types
 *       zero-extended; {@code pred} is 1 if its byte is not 0, else 0.</li>
 *   <li>Integers, encoding: the value is first made an integer (from a double or float: truncated
 *       toward zero, NaN gives 0, values beyond the range of {@code long} (of {@code [0, 2^64)} for
 *       u64 and positive values) clamp to it), then its low {@code bitWidth} bits are kept
 *       (two's-complement wrap-around, as a C cast narrowing an in-range value). {@code pred}
 *       encodes 1 for any non-zero value, NaN included, and 0 for ±0.</li>
 *   <li>Floats, encoding: one rounding, to nearest with ties to even, from the exact input (a long
 *       or a double is never first rounded to float); overflow, NaN and infinities as
 *       {@link BFloat16}, {@link Float16} and {@link MiniFloat} document.</li>
 *   <li>Floats to integers ({@link #toLong}): truncation toward zero as a Java cast does: NaN gives
 *       0, out-of-range values clamp to {@code Long.MIN_VALUE}/{@code Long.MAX_VALUE}.</li>
 *   <li>u64 as {@code long} ({@link #toLong}, {@link #fromLong}): the 64-bit pattern, to be read
 *       as unsigned; {@link #toDouble} reads it as unsigned.</li>
 * </ul>
 * Stateless, allocation-free, thread-safe.
 */
public final class ElementCodec {

    private static final double TWO_POW_63 = 0x1p63;
    private static final double TWO_POW_64 = 0x1p64;

    private ElementCodec() {
    }

    /**
     * {@return the value of the raw code {@code raw} of type {@code type} as a double} Exact for
     * every type except s64 and u64 beyond 2^53, which round to nearest, ties to even.
     *
     * @param type a real array element type
     * @param raw the code in the low bits
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static double toDouble(ElementType type, long raw) {
        return switch (type) {
            case PRED -> (raw & 0xFF) != 0 ? 1.0 : 0.0;
            case S1, S2, S4, S8, S16, S32, S64 -> signExtend(raw, type.bitWidth());
            case U1, U2, U4, U8, U16, U32 -> raw & mask(type.bitWidth());
            case U64 -> unsignedToDouble(raw);
            case F16 -> Float16.toFloat((short) raw);
            case BF16 -> BFloat16.toFloat((short) raw);
            case F32 -> Float.intBitsToFloat((int) raw);
            case F64 -> Double.longBitsToDouble(raw);
            case F8E5M2, F8E4M3, F8E4M3FN, F8E4M3B11FNUZ, F8E3M4, F8E5M2FNUZ, F8E4M3FNUZ, F8E8M0FNU,
                 F4E2M1FN, F6E3M2FN, F6E2M3FN -> MiniFloatFormat.of(type).toDouble((int) raw);
            default -> throw unsupported(type);
        };
    }

    /**
     * {@return the value of the raw code {@code raw} as a float} Floats of 32 bits or fewer are
     * exact; f64 rounds as a Java cast does; integers round to nearest, ties to even.
     *
     * @param type a real array element type
     * @param raw the code in the low bits
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static float toFloat(ElementType type, long raw) {
        return switch (type) {
            case S64 -> (float) raw;
            case U64 -> unsignedToFloat(raw);
            case F16 -> Float16.toFloat((short) raw);
            case BF16 -> BFloat16.toFloat((short) raw);
            case F32 -> Float.intBitsToFloat((int) raw);
            default -> (float) toDouble(type, raw);     // exact: every other value fits a float or is an int < 2^32
        };
    }

    /**
     * {@return the value of the raw code {@code raw} as a long} Integers are exact (u64: the bit
     * pattern); floats truncate toward zero as a Java cast does (NaN gives 0, out-of-range values
     * clamp).
     *
     * @param type a real array element type
     * @param raw the code in the low bits
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static long toLong(ElementType type, long raw) {
        return switch (type) {
            case PRED -> (raw & 0xFF) != 0 ? 1 : 0;
            case S1, S2, S4, S8, S16, S32, S64 -> signExtend(raw, type.bitWidth());
            case U1, U2, U4, U8, U16, U32 -> raw & mask(type.bitWidth());
            case U64 -> raw;
            default -> (long) toDouble(type, raw);
        };
    }

    /**
     * {@return the raw code of {@code value} in type {@code type}} Floats round once to nearest,
     * ties to even; integers truncate toward zero, then keep their low bits (see the class rules).
     *
     * @param type a real array element type
     * @param value the value
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static long fromDouble(ElementType type, double value) {
        return switch (type) {
            case PRED -> value != 0.0 ? 1 : 0;
            case S1, S2, S4, S8, S16, S32, S64, U1, U2, U4, U8, U16, U32, U64 ->
                    truncateToLong(value) & mask(type.bitWidth());
            case F16 -> Float16.fromDouble(value) & 0xFFFFL;
            case BF16 -> BFloat16.fromDouble(value) & 0xFFFFL;
            case F32 -> Float.floatToRawIntBits((float) value) & 0xFFFF_FFFFL;
            case F64 -> Double.doubleToRawLongBits(value);
            case F8E5M2, F8E4M3, F8E4M3FN, F8E4M3B11FNUZ, F8E3M4, F8E5M2FNUZ, F8E4M3FNUZ, F8E8M0FNU,
                 F4E2M1FN, F6E3M2FN, F6E2M3FN -> MiniFloatFormat.of(type).fromDouble(value);
            default -> throw unsupported(type);
        };
    }

    /**
     * {@return the raw code of {@code value} in type {@code type}} As
     * {@link #fromDouble(ElementType, double)} of the exact value; f16 and bf16 round directly from
     * the float (which widens exactly), so the result is the same.
     *
     * @param type a real array element type
     * @param value the value
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static long fromFloat(ElementType type, float value) {
        return switch (type) {
            case F16 -> Float16.fromFloat(value) & 0xFFFFL;
            case BF16 -> BFloat16.fromFloat(value) & 0xFFFFL;
            case F32 -> Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
            default -> fromDouble(type, value);
        };
    }

    /**
     * {@return the raw code of the integer {@code value} in type {@code type}} Integer types keep the
     * low {@code bitWidth} bits (two's-complement wrap-around; u64 and s64 keep all 64); pred gives
     * 1 for non-zero; float types round the exact integer once to nearest, ties to even (no
     * intermediate rounding to double), with overflow as their encoders document.
     *
     * @param type a real array element type
     * @param value the integer
     * @throws IllegalArgumentException if {@code type} is complex or not an array type
     */
    public static long fromLong(ElementType type, long value) {
        return switch (type) {
            case PRED -> value != 0 ? 1 : 0;
            case S1, S2, S4, S8, S16, S32, S64, U1, U2, U4, U8, U16, U32, U64 -> value & mask(type.bitWidth());
            case F32 -> Float.floatToRawIntBits((float) value) & 0xFFFF_FFFFL;   // JLS: rounds once, to nearest even
            case F64 -> Double.doubleToRawLongBits((double) value);
            default -> {
                if (!type.isFloating()) {
                    throw unsupported(type);
                }
                yield fromDouble(type, roundToOddDouble(value));
            }
        };
    }

    /**
     * A double that rounds like the integer {@code value} to every format with at most 51 fraction
     * bits (exact when |value| is below 2^53): the low bits that do not fit 53 bits of significand
     * are folded into a sticky bit ("round to odd"), so the one later rounding sees the same
     * nearest/tie/beyond-tie decision as it would on the exact integer.
     */
    private static double roundToOddDouble(long value) {
        boolean negative = value < 0;
        long magnitude = negative ? -value : value;                 // unsigned for Long.MIN_VALUE
        int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(magnitude) - 53);
        long kept = magnitude >>> shift;
        if ((magnitude & ((1L << shift) - 1)) != 0) {
            kept |= 1;
        }
        double d = Math.scalb((double) kept, shift);               // kept < 2^53: exact
        return negative ? -d : d;
    }

    private static long signExtend(long raw, int bits) {
        int unused = 64 - bits;
        return raw << unused >> unused;
    }

    private static long mask(int bits) {
        return bits == 64 ? -1L : (1L << bits) - 1;
    }

    private static long truncateToLong(double value) {
        return value >= TWO_POW_63 ? unsignedFromDouble(value) : (long) value;
    }

    /** Truncates a double at or above 2^63 to an unsigned 64-bit pattern, clamped to 2^64 - 1. */
    private static long unsignedFromDouble(double value) {
        if (value >= TWO_POW_64) {
            return -1L;
        }
        return (long) (value - TWO_POW_63) ^ Long.MIN_VALUE;
    }

    private static double unsignedToDouble(long raw) {
        if (raw >= 0) {
            return raw;
        }
        // Halve with the lost bit kept as a sticky bit, convert (one rounding), double back.
        return ((double) ((raw >>> 1) | (raw & 1))) * 2.0;
    }

    private static float unsignedToFloat(long raw) {
        if (raw >= 0) {
            return raw;
        }
        return ((float) ((raw >>> 1) | (raw & 1))) * 2.0f;
    }

    private static IllegalArgumentException unsupported(ElementType type) {
        String why = type.isComplex()
                ? " is complex: read and write its two " + type.componentType() + " components separately"
                : " is not an array element type";
        return new IllegalArgumentException("elementType: " + type + why);
    }

    /**
     * {@return the raw code a padding slot of this type holds for this padding value} For complex
     * types, the code of the real part (the imaginary part is 0). ZERO, INVALID and UNKNOWN give 0; ONE the type's 1; LOWEST and HIGHEST the type's lowest
     * and highest value: the infinities for floats that have them, else the largest finite magnitude
     * (f8e8m0fnu, which has no sign: {@code 2^-127} and {@code 2^127}); for integers the range ends;
     * for pred false and true.
     */
    public static long paddingCode(ElementType type, PaddingValue value) {
        ElementType t = type.isComplex() ? type.componentType() : type;
        return switch (value) {
            case ONE -> ElementCodec.fromLong(t, 1);
            case LOWEST -> extreme(t, false);
            case HIGHEST -> extreme(t, true);
            default -> 0;
        };
    }

    private static long extreme(ElementType t, boolean high) {
        int w = t.bitWidth();
        return switch (t) {
            case PRED -> high ? 1 : 0;
            case S1, S2, S4, S8, S16, S32, S64 -> ElementCodec.fromLong(t, high ? (1L << (w - 1)) - 1 : -(1L << (w - 1)));
            case U1, U2, U4, U8, U16, U32, U64 -> high ? ElementCodec.fromLong(t, -1L) : 0;
            case F16 -> (high ? Float16.POSITIVE_INFINITY : Float16.NEGATIVE_INFINITY) & 0xFFFFL;
            case BF16 -> (high ? BFloat16.POSITIVE_INFINITY : BFloat16.NEGATIVE_INFINITY) & 0xFFFFL;
            case F32, F64 -> ElementCodec.fromDouble(t, high ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
            default -> {
                MiniFloatFormat f = MiniFloatFormat.of(t);
                if (f.hasInfinity()) {
                    yield ElementCodec.fromDouble(t, high ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
                }
                if (!f.isSigned()) {
                    yield high ? f.maxFiniteCode() : 0;
                }
                yield high ? f.maxFiniteCode() : f.maxFiniteCode() | (1 << (f.bitWidth() - 1));
            }
        };
    }
}
