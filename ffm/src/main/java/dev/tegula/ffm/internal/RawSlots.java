package dev.tegula.ffm.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.MemorySegment;

/**
 * The raw bits of one slot of a buffer, whatever the slot width ({@code slotBits}): 1, 2 or 4 bits
 * packed with slot 0 in the low bits of byte 0; 8 to 64 bits little-endian (native order on the
 * platforms Tegula runs on), unaligned; a 128-bit slot as two 64-bit halves. Also the conversion of
 * a raw code between element types through the codecs. {@link dev.tegula.ffm.Array}'s raw accessors
 * and the relayout engine's element walk both use these, so there is one implementation of a slot
 * read and write.
 *
 * <p>Contract: no bounds checks beyond the segment's own (the caller checked the slot against its
 * layout); the segment checks liveness and the owner thread. Stateless and thread-safe. Not API:
 * exported only to Tegula's own modules.
 */
public final class RawSlots {
    private RawSlots() {
    }

    /**
     * {@return the raw bits of slot {@code slot} in a buffer of {@code slotBits}-bit slots, zero-extended}
     * A 128-bit slot returns its low half ({@link #readHigh} the other).
     *
     * @throws IllegalArgumentException if {@code slotBits} is not 1, 2, 4, 8, 16, 32, 64 or 128
     */
    public static long read(MemorySegment seg, long slot, long slotBits) {
        if (slotBits < 8) {
            long bit = slot * slotBits;
            int b = seg.get(JAVA_BYTE, bit >>> 3) & 0xFF;
            return (b >>> (bit & 7)) & ((1L << slotBits) - 1);
        }
        return switch ((int) slotBits) {
            case 8 -> seg.get(JAVA_BYTE, slot) & 0xFFL;
            case 16 -> seg.get(JAVA_SHORT_UNALIGNED, slot << 1) & 0xFFFFL;
            case 32 -> seg.get(JAVA_INT_UNALIGNED, slot << 2) & 0xFFFF_FFFFL;
            case 64 -> seg.get(JAVA_LONG_UNALIGNED, slot << 3);
            case 128 -> seg.get(JAVA_LONG_UNALIGNED, slot << 4);
            default -> throw new IllegalArgumentException("slotBits: unsupported width " + slotBits);
        };
    }

    /** {@return the high 64 bits of a 128-bit slot} */
    public static long readHigh(MemorySegment seg, long slot) {
        return seg.get(JAVA_LONG_UNALIGNED, (slot << 4) + 8);
    }

    /**
     * Writes the low {@code slotBits} bits of {@code raw} into slot {@code slot} (the low half of a
     * 128-bit slot). A packed slot is a read-modify-write of its byte: the other slots' bits keep
     * their value.
     *
     * @throws IllegalArgumentException if {@code slotBits} is not 1, 2, 4, 8, 16, 32, 64 or 128
     */
    public static void write(MemorySegment seg, long slot, long slotBits, long raw) {
        if (slotBits < 8) {
            long bit = slot * slotBits;
            long at = bit >>> 3;
            int shift = (int) (bit & 7);
            int mask = (int) (((1L << slotBits) - 1) << shift);
            int old = seg.get(JAVA_BYTE, at) & 0xFF;
            seg.set(JAVA_BYTE, at, (byte) ((old & ~mask) | ((int) (raw << shift) & mask)));
            return;
        }
        switch ((int) slotBits) {
            case 8 -> seg.set(JAVA_BYTE, slot, (byte) raw);
            case 16 -> seg.set(JAVA_SHORT_UNALIGNED, slot << 1, (short) raw);
            case 32 -> seg.set(JAVA_INT_UNALIGNED, slot << 2, (int) raw);
            case 64 -> seg.set(JAVA_LONG_UNALIGNED, slot << 3, raw);
            case 128 -> seg.set(JAVA_LONG_UNALIGNED, slot << 4, raw);
            default -> throw new IllegalArgumentException("slotBits: unsupported width " + slotBits);
        }
    }

    /** Writes the high 64 bits of a 128-bit slot. */
    public static void writeHigh(MemorySegment seg, long slot, long raw) {
        seg.set(JAVA_LONG_UNALIGNED, (slot << 4) + 8, raw);
    }

    /**
     * {@return a raw value read from storage reduced to the type's canonical bits}: sub-byte types
     * keep their low {@code bitWidth} bits, sign-extended for signed types (so an s4 stored one per
     * byte holds -1 as 0xFF and packed as 0xF, and both read as the same canonical value).
     */
    public static long normalise(ElementType type, long raw) {
        if (!type.isSubByte()) {
            return raw;
        }
        int w = type.bitWidth();
        return type.isIntegral() && !type.isUnsigned() ? (raw << (64 - w)) >> (64 - w) : raw & ((1L << w) - 1);
    }

    /**
     * {@return a raw code of type {@code from} converted to type {@code to}}: integers and pred
     * through {@code long} (truncating to the width, as the codecs do), integers other than u64 into
     * floating types through {@code long} too, a narrower float type into f32 through the codec's
     * exact {@code toFloat} (a NaN keeps its sign and payload and is not quieted, as ml_dtypes and
     * NumPy widen), everything else through {@code double} with round-to-nearest-even. Not for
     * complex types (convert them per component).
     */
    public static long convert(ElementType from, ElementType to, long raw) {
        if (from == to) {
            return raw;
        }
        if (to == ElementType.F32 && from.isFloating() && !from.isComplex() && from.bitWidth() < 32) {
            return Float.floatToRawIntBits(ElementCodec.toFloat(from, raw)) & 0xFFFF_FFFFL;
        }
        boolean fromInt = from.isIntegral() || from.isPred();
        if (fromInt && from != ElementType.U64) {
            return ElementCodec.fromLong(to, ElementCodec.toLong(from, raw));
        }
        if (fromInt && (to.isIntegral() || to.isPred())) {
            return ElementCodec.fromLong(to, ElementCodec.toLong(from, raw));
        }
        return ElementCodec.fromDouble(to, ElementCodec.toDouble(from, raw));
    }
}
