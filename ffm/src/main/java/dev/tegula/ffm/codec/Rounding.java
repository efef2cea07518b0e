package dev.tegula.ffm.codec;

/**
 * The one rounding kernel every narrow-float encoder shares: round a positive binary value to a
 * binary float format with a given mantissa width and bias, to nearest, ties to even.
 *
 * <p>The kernel works on an exact {@code sig * 2^exp} pair, so a {@code double} and a 64-bit
 * integer are both rounded once (no double rounding through an intermediate type). Its result is
 * the magnitude code the format would have if its exponent range were unbounded above: callers
 * compare it with their largest finite code to detect overflow. Package-private; stateless.
 */
final class Rounding {

    private Rounding() {
    }

    /**
     * {@return the magnitude code of {@code sig * 2^exp} rounded to nearest, ties to even}
     *
     * <p>The format has {@code mantissaBits} stored fraction bits, exponent bias {@code bias},
     * normal numbers from {@code 2^(1 - bias)} up, and subnormals below that (biased exponent field
     * 0). The code is {@code (biasedExponent << mantissaBits) + fraction}; a carry out of the fraction
     * moves into the exponent field, so a value that rounds past the top binade of the format yields
     * a code at or past the format's infinity/NaN encodings, never a wrapped one. A value below half
     * the smallest subnormal yields 0.
     *
     * @param sig the significand, read as an unsigned 64-bit integer; not 0
     * @param exp the power of two that scales {@code sig}
     * @param mantissaBits the number of stored fraction bits of the format, 0 to 23
     * @param bias the exponent bias of the format
     */
    static long roundToCode(long sig, int exp, int mantissaBits, int bias) {
        int msb = 63 - Long.numberOfLeadingZeros(sig);
        int k = exp + msb;                              // floor(log2(value))
        int minNormalExponent = 1 - bias;
        int ulpExponent = Math.max(k, minNormalExponent) - mantissaBits;
        int drop = ulpExponent - exp;                   // low bits of sig that are rounded off
        long n;
        if (drop <= 0) {
            n = sig << -drop;                           // exact; -drop <= mantissaBits
        } else if (drop > 64) {
            n = 0;                                      // below half an ulp
        } else {
            long kept = drop == 64 ? 0 : sig >>> drop;
            long rest = drop == 64 ? sig : sig & ((1L << drop) - 1);
            int cmp = Long.compareUnsigned(rest, 1L << (drop - 1));
            n = kept + ((cmp > 0 || (cmp == 0 && (kept & 1) != 0)) ? 1 : 0);
        }
        if (k < minNormalExponent) {
            return n;                                   // subnormal (or rounded up to min normal)
        }
        // n is in [2^m, 2^(m+1)]: its implicit bit adds the missing 1 to the exponent field.
        return ((long) (k + bias - 1) << mantissaBits) + n;
    }

    /**
     * {@return {@link #roundToCode} of the magnitude of a finite, non-zero double}
     *
     * @param magnitudeBits {@code Double.doubleToRawLongBits(Math.abs(v))}; finite and not 0
     */
    static long roundDouble(long magnitudeBits, int mantissaBits, int bias) {
        int e = (int) (magnitudeBits >>> 52);
        long fraction = magnitudeBits & 0x000F_FFFF_FFFF_FFFFL;
        if (e == 0) {
            return roundToCode(fraction, -1074, mantissaBits, bias);
        }
        return roundToCode(fraction | 0x0010_0000_0000_0000L, e - 1075, mantissaBits, bias);
    }

    /**
     * {@return the code of a 16-bit float format (1 sign bit, then exponent and mantissa) nearest to
     * {@code value}, ties to even, rounded once from the double}: signed zeros and infinities kept,
     * overflow to infinity. Shared by bf16 and f16.
     *
     * @param value    not NaN (callers map NaN themselves)
     * @param infinity the format's positive-infinity code
     */
    static short sixteenBitCode(double value, int mantissaBits, int bias, short infinity) {
        long bits = Double.doubleToRawLongBits(value);
        int sign = (int) (bits >>> 48) & 0x8000;
        long magnitude = bits & Long.MAX_VALUE;
        if (magnitude == 0x7FF0_0000_0000_0000L) {
            return (short) (sign | infinity);
        }
        if (magnitude == 0) {
            return (short) sign;
        }
        long code = roundDouble(magnitude, mantissaBits, bias);
        return (short) (sign | (int) Math.min(code, infinity));
    }
}
