package dev.tegula.ffm.codec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * IEEE 754 binary16 codec: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits. Has
 * infinities, NaNs, signed zeros and subnormals; largest finite value 65504.
 *
 * <p>A thin layer over {@link Float#float16ToFloat(short)} and {@link Float#floatToFloat16(float)}
 * with NaN payloads handled as NumPy does, plus a direct, singly rounded conversion from {@code double}. Stateless, allocation-free,
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
     * NaN with the same sign and its ten payload bits in the top fraction bits, not quieted (as NumPy).
     *
     * @param bits the binary16 code
     */
    public static float toFloat(short bits) {
        if (isNaN(bits)) {
            // sign and all ten payload bits, not quieted (NumPy's rule; the JDK's intrinsic may quiet)
            return Float.intBitsToFloat((bits & 0x8000) << 16 | 0x7F80_0000 | (bits & 0x03FF) << 13);
        }
        return Float.float16ToFloat(bits);
    }

    /**
     * {@return the binary16 code nearest to {@code value}, ties to even}
     * ({@link Float#floatToFloat16(float)}): subnormals included; magnitudes of at least 65520 (the
     * midpoint between 65504 and 2^16) become infinity of the same sign; infinities and signed zeros
     * are kept; a NaN stays a NaN with the same sign and its top ten payload bits (payload 1 when
     * those are all zero), not quieted, as NumPy does.
     *
     * @param value the value to encode
     */
    public static short fromFloat(float value) {
        if (Float.isNaN(value)) {
            return nanCode(Float.floatToRawIntBits(value));
        }
        return Float.floatToFloat16(value);
    }

    /**
     * A NaN keeps its sign and the top ten payload bits, not quieted; a payload that lives only in the
     * lower 13 bits becomes 1 so the code stays a NaN. This is NumPy's rule; {@link Float#floatToFloat16}
     * gives the same in the interpreter but may quiet the NaN once compiled to an F16C instruction.
     */
    private static short nanCode(int floatBits) {
        int payload = (floatBits & 0x007F_FFFF) >>> 13;
        return (short) ((floatBits >>> 16 & 0x8000) | 0x7C00 | (payload == 0 ? 1 : payload));
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

    /** One in each 16-bit lane of a long. */
    private static final long LANE_ONES = 0x0001_0001_0001_0001L;
    /** The sign bit of each 16-bit lane. */
    private static final long LANE_SIGNS = 0x8000_8000_8000_8000L;

    /**
     * {@return the position of the first of {@code count} binary16 codes stored at
     * {@code segment[offset]} (two bytes each, in native byte order) that is an infinity of either
     * sign, or -1 if none is} Four codes are tested at a time, so a scan of a written tensor for
     * overflows costs little next to writing it.
     *
     * @param segment where the codes are
     * @param offset  the byte offset of the first code
     * @param count   how many codes to look at
     * @throws IndexOutOfBoundsException if the codes are not all inside {@code segment}
     */
    public static long indexOfInfinity(MemorySegment segment, long offset, long count) {
        java.util.Objects.checkFromIndexSize(offset, Math.multiplyExact(count, 2L), segment.byteSize());
        long i = 0;
        for (; i + 4 <= count; i += 4) {
            long v = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 2 * i);
            // lane ^ 0x7C00 is zero exactly for an infinity once the sign is masked off; with every
            // lane's top bit clear the zero-lane test below has no false answer
            long y = (v & ~LANE_SIGNS) ^ 0x7C00_7C00_7C00_7C00L;
            if (((y - LANE_ONES) & ~y & LANE_SIGNS) != 0) {
                break;
            }
        }
        for (; i < count; i++) {
            if ((segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset + 2 * i) & 0x7FFF) == 0x7C00) {
                return i;
            }
        }
        return -1;
    }
}
