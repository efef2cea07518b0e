package dev.tegula.io.safetensors;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Packing of 6-bit codes as a little-endian bit stream (element {@code i} in bits {@code 6i..6i+5},
 * bit {@code k} of the stream being bit {@code k % 8} of byte {@code k / 8}): four elements in three
 * bytes. Tegula holds f6 elements one per byte, the code in the low six bits.
 */
final class SubByte {
    private SubByte() {
    }

    /** Unpacks {@code count} (a multiple of 4) 6-bit codes from {@code packed} into one byte each in {@code out}. */
    static void unpack6(MemorySegment packed, MemorySegment out, long count) {
        for (long g = 0; g < count / 4; g++) {
            int b0 = Byte.toUnsignedInt(packed.get(ValueLayout.JAVA_BYTE, 3 * g));
            int b1 = Byte.toUnsignedInt(packed.get(ValueLayout.JAVA_BYTE, 3 * g + 1));
            int b2 = Byte.toUnsignedInt(packed.get(ValueLayout.JAVA_BYTE, 3 * g + 2));
            int bits = b0 | b1 << 8 | b2 << 16;
            for (int k = 0; k < 4; k++) {
                out.set(ValueLayout.JAVA_BYTE, 4 * g + k, (byte) (bits >>> (6 * k) & 0x3F));
            }
        }
    }

    /** Packs {@code count} (a multiple of 4) codes, one per byte in {@code in} (low six bits), into {@code packed}. */
    static void pack6(MemorySegment in, MemorySegment packed, long count) {
        for (long g = 0; g < count / 4; g++) {
            int bits = 0;
            for (int k = 0; k < 4; k++) {
                bits |= (in.get(ValueLayout.JAVA_BYTE, 4 * g + k) & 0x3F) << (6 * k);
            }
            packed.set(ValueLayout.JAVA_BYTE, 3 * g, (byte) bits);
            packed.set(ValueLayout.JAVA_BYTE, 3 * g + 1, (byte) (bits >>> 8));
            packed.set(ValueLayout.JAVA_BYTE, 3 * g + 2, (byte) (bits >>> 16));
        }
    }
}
