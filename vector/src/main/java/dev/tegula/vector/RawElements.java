package dev.tegula.vector;

import dev.tegula.core.ElementType;
import dev.tegula.core.PaddingValue;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads and writes the raw bits of one element slot, whatever its storage width (1, 2 or 4 bits
 * packed with element 0 in the low bits; 8 to 128 bits little-endian), converts raw values between
 * element types with the ffm codecs, and knows each type's padding values. Stateless.
 */
final class RawElements {
    private RawElements() {
    }

    /** Raw bits of slot {@code slot} in a buffer of {@code bits}-bit slots; 128-bit slots return the low half. */
    static long read(MemorySegment seg, long slot, long bits) {
        if (bits < 8) {
            long bit = slot * bits;
            int b = seg.get(ValueLayout.JAVA_BYTE, bit >>> 3) & 0xFF;
            return (b >>> (bit & 7)) & ((1L << bits) - 1);
        }
        return switch ((int) bits) {
            case 8 -> seg.get(ValueLayout.JAVA_BYTE, slot) & 0xFFL;
            case 16 -> seg.get(Kernels.S, slot * 2) & 0xFFFFL;
            case 32 -> seg.get(Kernels.I, slot * 4) & 0xFFFFFFFFL;
            case 64 -> seg.get(Kernels.L, slot * 8);
            case 128 -> seg.get(Kernels.L, slot * 16);
            default -> throw new IllegalArgumentException("storage bits: unsupported width " + bits);
        };
    }

    /**
     * {@return a raw value read from storage reduced to the type's canonical bits}: sub-byte types
     * keep their low {@code bitWidth} bits, sign-extended for signed types (so an s4 stored one per
     * byte holds -1 as 0xFF and packed as 0xF, and both read as the same canonical value).
     */
    static long normalise(ElementType t, long raw) {
        if (!t.isSubByte()) {
            return raw;
        }
        int w = t.bitWidth();
        return t.isIntegral() && !t.isUnsigned() ? (raw << (64 - w)) >> (64 - w) : raw & ((1L << w) - 1);
    }

    /** The high 64 bits of a 128-bit slot. */
    static long readHigh(MemorySegment seg, long slot) {
        return seg.get(Kernels.L, slot * 16 + 8);
    }

    /** Writes the raw bits of a slot (only the slot's own bits for packed widths). */
    static void write(MemorySegment seg, long slot, long bits, long raw) {
        if (bits < 8) {
            long bit = slot * bits;
            long at = bit >>> 3;
            int shift = (int) (bit & 7);
            int mask = (int) (((1L << bits) - 1) << shift);
            int old = seg.get(ValueLayout.JAVA_BYTE, at) & 0xFF;
            seg.set(ValueLayout.JAVA_BYTE, at, (byte) ((old & ~mask) | ((int) (raw << shift) & mask)));
            return;
        }
        switch ((int) bits) {
            case 8 -> seg.set(ValueLayout.JAVA_BYTE, slot, (byte) raw);
            case 16 -> seg.set(Kernels.S, slot * 2, (short) raw);
            case 32 -> seg.set(Kernels.I, slot * 4, (int) raw);
            case 64 -> seg.set(Kernels.L, slot * 8, raw);
            case 128 -> seg.set(Kernels.L, slot * 16, raw);
            default -> throw new IllegalArgumentException("storage bits: unsupported width " + bits);
        }
    }

    static void writeHigh(MemorySegment seg, long slot, long raw) {
        seg.set(Kernels.L, slot * 16 + 8, raw);
    }

    /**
     * Converts a raw value of type {@code from} to type {@code to}: integers and pred through
     * {@code long} (truncating to the width, as the codecs do), everything else through
     * {@code double} with round-to-nearest-even. Complex types convert per component
     * ({@link #convertComplex}).
     */
    static long convert(ElementType from, ElementType to, long raw) {
        if (from == to) {
            return raw;
        }
        boolean fromInt = from.isIntegral() || from.isPred();
        boolean toInt = to.isIntegral() || to.isPred();
        if (fromInt && toInt) {
            return ElementCodec.fromLong(to, ElementCodec.toLong(from, raw));
        }
        if (fromInt && from != ElementType.U64) {
            return ElementCodec.fromLong(to, ElementCodec.toLong(from, raw));
        }
        return ElementCodec.fromDouble(to, ElementCodec.toDouble(from, raw));
    }

    /** The raw bits of a padding slot (the real part for complex types): {@link ElementCodec#paddingCode}. */
    static long paddingBits(ElementType type, PaddingValue value) {
        return ElementCodec.paddingCode(type, value);
    }
}
