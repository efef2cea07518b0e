package dev.tegula.ffm.codec;

import java.math.BigDecimal;
import java.util.List;

/**
 * Test oracle, written from the format definitions only (ml_dtypes' field widths, biases and special
 * encodings), without calling the codecs under test: a plain formula decoder and a brute-force
 * nearest-value search over every code.
 */
final class Reference {

    private Reference() {
    }

    /** How a format uses its top codes. */
    enum Specials { IEEE, FN, FNUZ, E8M0, NONE }

    /**
     * One format, with golden values from the ml_dtypes definitions, and the codes ml_dtypes' default
     * conversion gives for overflow, infinities, NaN and zeros.
     */
    record Spec(MiniFloatFormat format, int bits, int e, int m, int bias, Specials specials,
                double max, double minNormal, double minPositive,
                int posOverflow, int negOverflow, int posNaN, int negNaN, int posZero, int negZero) {

        int signBit() {
            return specials == Specials.E8M0 ? 0 : 1 << (bits - 1);
        }

        int codeCount() {
            return 1 << bits;
        }

        boolean negativeZeroExists() {
            return specials == Specials.IEEE || specials == Specials.FN || specials == Specials.NONE;
        }

        @Override
        public String toString() {
            return format.name();
        }
    }

    static final List<Spec> SPECS = List.of(
            new Spec(MiniFloatFormat.F8E5M2, 8, 5, 2, 15, Specials.IEEE,
                    57344, 0x1p-14, 0x1p-16, 0x7C, 0xFC, 0x7E, 0xFE, 0x00, 0x80),
            new Spec(MiniFloatFormat.F8E4M3, 8, 4, 3, 7, Specials.IEEE,
                    240, 0x1p-6, 0x1p-9, 0x78, 0xF8, 0x7C, 0xFC, 0x00, 0x80),
            new Spec(MiniFloatFormat.F8E4M3FN, 8, 4, 3, 7, Specials.FN,
                    448, 0x1p-6, 0x1p-9, 0x7F, 0xFF, 0x7F, 0xFF, 0x00, 0x80),
            new Spec(MiniFloatFormat.F8E4M3B11FNUZ, 8, 4, 3, 11, Specials.FNUZ,
                    30, 0x1p-10, 0x1p-13, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00),
            new Spec(MiniFloatFormat.F8E3M4, 8, 3, 4, 3, Specials.IEEE,
                    15.5, 0.25, 0x1p-6, 0x70, 0xF0, 0x78, 0xF8, 0x00, 0x80),
            new Spec(MiniFloatFormat.F8E5M2FNUZ, 8, 5, 2, 16, Specials.FNUZ,
                    57344, 0x1p-15, 0x1p-17, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00),
            new Spec(MiniFloatFormat.F8E4M3FNUZ, 8, 4, 3, 8, Specials.FNUZ,
                    240, 0x1p-7, 0x1p-10, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00),
            new Spec(MiniFloatFormat.F8E8M0FNU, 8, 8, 0, 127, Specials.E8M0,
                    0x1p127, 0x1p-127, 0x1p-127, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF),
            new Spec(MiniFloatFormat.F4E2M1FN, 4, 2, 1, 1, Specials.NONE,
                    6, 1, 0.5, 0x7, 0xF, 0x8, 0x0, 0x0, 0x8),
            new Spec(MiniFloatFormat.F6E3M2FN, 6, 3, 2, 3, Specials.NONE,
                    28, 0.25, 0.0625, 0x1F, 0x3F, 0x20, 0x00, 0x00, 0x20),
            new Spec(MiniFloatFormat.F6E2M3FN, 6, 2, 3, 1, Specials.NONE,
                    7.5, 1, 0.125, 0x1F, 0x3F, 0x20, 0x00, 0x00, 0x20));

    static Spec spec(MiniFloatFormat format) {
        return SPECS.stream().filter(s -> s.format() == format).findFirst().orElseThrow();
    }

    /**
     * The value of {@code code} by the textbook formula: {@code (-1)^s * 2^(e - bias) * (1 + f/2^M)}
     * for normal codes, {@code (-1)^s * 2^(1 - bias) * f/2^M} for exponent field 0, with the
     * format's NaN and infinity codes picked out first.
     */
    static double decode(Spec s, int code) {
        if (s.specials() == Specials.E8M0) {
            return code == 0xFF ? Double.NaN : Math.pow(2, code - 127);
        }
        int signBit = s.signBit();
        boolean negative = (code & signBit) != 0;
        int magnitude = code & (signBit - 1);
        int exponent = magnitude >> s.m();
        int fraction = magnitude & ((1 << s.m()) - 1);
        int exponentMax = (1 << s.e()) - 1;
        switch (s.specials()) {
            case IEEE -> {
                if (exponent == exponentMax) {
                    return fraction != 0 ? Double.NaN
                            : negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                }
            }
            case FN -> {
                if (exponent == exponentMax && fraction == (1 << s.m()) - 1) {
                    return Double.NaN;
                }
            }
            case FNUZ -> {
                if (code == signBit) {
                    return Double.NaN;
                }
            }
            default -> {
            }
        }
        double value = exponent == 0
                ? Math.pow(2, 1 - s.bias()) * fraction / Math.pow(2, s.m())
                : Math.pow(2, exponent - s.bias()) * (1 + fraction / Math.pow(2, s.m()));
        return negative ? -value : value;
    }

    /**
     * The code whose value is nearest to finite {@code x}, by trying every finite code; among equally
     * near distinct values the one with the even code wins (for e8m0, which has no fraction bit, the
     * larger one, and everything strictly between 2^-127 and 2^-126 gives 2^-126, as in ml_dtypes). A zero result takes the sign of {@code x} where the format has -0. Assumes
     * {@code |x|} does not exceed the largest finite value.
     */
    static int nearest(Spec s, double x) {
        if (s.specials() == Specials.E8M0 && Math.abs(x) > 0x1p-127 && Math.abs(x) < 0x1p-126) {
            return 1;   // ml_dtypes' answer between its two smallest values (checked in ReferenceCasesTest)
        }
        BigDecimal target = new BigDecimal(x);
        int best = -1;
        BigDecimal bestDistance = null;
        for (int code = 0; code < s.codeCount(); code++) {
            double v = decode(s, code);
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            BigDecimal distance = new BigDecimal(v).subtract(target).abs();
            int cmp = bestDistance == null ? -1 : distance.compareTo(bestDistance);
            if (cmp < 0) {
                best = code;
                bestDistance = distance;
            } else if (cmp == 0 && decode(s, best) != v) {
                boolean preferNew = s.specials() == Specials.E8M0 ? v > decode(s, best) : (code & 1) == 0;
                if (preferNew) {
                    best = code;
                }
            }
        }
        if (decode(s, best) == 0) {
            boolean negative = Double.doubleToRawLongBits(x) < 0;
            return negative && s.negativeZeroExists() ? s.signBit() : 0;
        }
        return best;
    }

    /** The finite values of a format, ascending, each once (+0 standing for both zeros). */
    static double[] sortedFiniteValues(Spec s) {
        return java.util.stream.IntStream.range(0, s.codeCount())
                .mapToDouble(c -> decode(s, c))
                .filter(v -> !Double.isNaN(v) && !Double.isInfinite(v))
                .map(v -> v == 0 ? 0.0 : v)
                .distinct().sorted().toArray();
    }

    /** bfloat16 / binary16 by the textbook formula; {@code e} exponent bits, {@code m} fraction bits. */
    static double decodeIeee(int code, int e, int m) {
        int bias = (1 << (e - 1)) - 1;
        int bits = 1 + e + m;
        boolean negative = ((code >> (bits - 1)) & 1) != 0;
        int exponent = (code >> m) & ((1 << e) - 1);
        int fraction = code & ((1 << m) - 1);
        double value;
        if (exponent == (1 << e) - 1) {
            value = fraction != 0 ? Double.NaN : Double.POSITIVE_INFINITY;
        } else if (exponent == 0) {
            value = Math.pow(2, 1 - bias) * fraction / Math.pow(2, m);
        } else {
            value = Math.pow(2, exponent - bias) * (1 + fraction / Math.pow(2, m));
        }
        return negative ? -value : value;
    }

    /**
     * The IEEE-style (e, m) code nearest to finite, non-NaN {@code x}, ties to even, overflowing to
     * infinity where round-to-nearest-even puts it: a binary search among the positive finite codes
     * (which are ordered like their values), the virtual next value above the largest finite one
     * being {@code 2^(emax + 1)}.
     */
    static int nearestIeee(double x, int e, int m) {
        int signBit = 1 << (e + m);
        int sign = Double.doubleToRawLongBits(x) < 0 ? signBit : 0;
        double a = Math.abs(x);
        int infinity = ((1 << e) - 1) << m;
        if (a == Double.POSITIVE_INFINITY) {
            return sign | infinity;
        }
        int lo = 0;                         // largest code with value <= a
        int hi = infinity - 1;
        if (decodeIeee(hi, e, m) <= a) {
            lo = hi;
        } else {
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (decodeIeee(mid, e, m) <= a) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        int up = lo + 1;
        double upValue = up == infinity ? Math.pow(2, (1 << (e - 1))) : decodeIeee(up, e, m);
        BigDecimal target = new BigDecimal(a);
        int cmp = new BigDecimal(upValue).subtract(target).compareTo(target.subtract(new BigDecimal(decodeIeee(lo, e, m))));
        int code = cmp < 0 || (cmp == 0 && (up & 1) == 0) ? up : lo;
        return sign | code;
    }
}
