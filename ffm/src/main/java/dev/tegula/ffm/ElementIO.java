package dev.tegula.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.tegula.core.ElementType;
import dev.tegula.core.PaddingValue;
import dev.tegula.ffm.codec.BFloat16;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.codec.Float16;
import dev.tegula.ffm.codec.MiniFloatFormat;
import java.lang.foreign.MemorySegment;

/**
 * Reads and writes one element slot of an {@link Array}: the switch from element type to value
 * layout and codec. Slots are checked by the caller (in bounds, host memory, writable); the segment
 * itself still checks bounds, liveness and the owner thread. All values are in native byte order
 * and accessed with unaligned layouts, so any segment alignment works.
 *
 * <p>f32 and f64 take a direct path; every other type goes through the raw code
 * ({@link #readRaw}) and {@link ElementCodec}. Packed sub-byte slots ({@code E(1|2|4)}) are
 * read-modify-write of their byte: only the slot's own bits change.
 */
final class ElementIO {
    private ElementIO() {
    }

    // ---- raw codes -----------------------------------------------------------------------------

    /** The slot's stored bits in the low bits (zero-extended); not for c128. */
    static long readRaw(Array a, long slot) {
        MemorySegment s = a.segment;
        return switch (a.slotBytes) {
            case 1 -> s.get(JAVA_BYTE, slot) & 0xFFL;
            case 2 -> s.get(JAVA_SHORT_UNALIGNED, slot << 1) & 0xFFFFL;
            case 4 -> s.get(JAVA_INT_UNALIGNED, slot << 2) & 0xFFFF_FFFFL;
            case 8 -> s.get(JAVA_LONG_UNALIGNED, slot << 3);
            default -> readPacked(a, slot);
        };
    }

    /** Stores the low bits of {@code raw} into the slot; not for c128. */
    static void writeRaw(Array a, long slot, long raw) {
        MemorySegment s = a.segment;
        switch (a.slotBytes) {
            case 1 -> s.set(JAVA_BYTE, slot, (byte) raw);
            case 2 -> s.set(JAVA_SHORT_UNALIGNED, slot << 1, (short) raw);
            case 4 -> s.set(JAVA_INT_UNALIGNED, slot << 2, (int) raw);
            case 8 -> s.set(JAVA_LONG_UNALIGNED, slot << 3, raw);
            default -> writePacked(a, slot, raw);
        }
    }

    private static long readPacked(Array a, long slot) {
        long bit = slot * a.slotBits;
        int b = a.segment.get(JAVA_BYTE, bit >>> 3) & 0xFF;
        return (b >>> (int) (bit & 7)) & a.packedMask;
    }

    private static void writePacked(Array a, long slot, long raw) {
        long bit = slot * a.slotBits;
        int shift = (int) (bit & 7);
        long offset = bit >>> 3;
        int mask = a.packedMask << shift;
        int b = a.segment.get(JAVA_BYTE, offset);
        a.segment.set(JAVA_BYTE, offset, (byte) ((b & ~mask) | (((int) raw << shift) & mask)));
    }

    /**
     * The canonical code of the element for equality: pred as 0/1, other types masked to their bit
     * width (the spare bits of an unpacked sub-byte slot do not count); c64 both halves.
     */
    static long canonicalCode(Array a, long slot) {
        long raw = readRaw(a, slot);
        ElementType t = a.type;
        if (t == ElementType.PRED) {
            return raw != 0 ? 1 : 0;
        }
        int w = t.bitWidth();
        return w >= 64 ? raw : raw & ((1L << w) - 1);
    }

    // ---- typed ---------------------------------------------------------------------------------

    static float getFloat(Array a, long slot) {
        return switch (a.type) {
            case F32 -> a.segment.get(JAVA_FLOAT_UNALIGNED, slot << 2);
            case F64 -> (float) a.segment.get(JAVA_DOUBLE_UNALIGNED, slot << 3);
            case C64, C128 -> (float) getReal(a, slot);
            default -> ElementCodec.toFloat(a.type, readRaw(a, slot));
        };
    }

    static double getDouble(Array a, long slot) {
        return switch (a.type) {
            case F32 -> a.segment.get(JAVA_FLOAT_UNALIGNED, slot << 2);
            case F64 -> a.segment.get(JAVA_DOUBLE_UNALIGNED, slot << 3);
            case C64, C128 -> getReal(a, slot);
            default -> ElementCodec.toDouble(a.type, readRaw(a, slot));
        };
    }

    static long getLong(Array a, long slot) {
        return switch (a.type) {
            case F32 -> (long) a.segment.get(JAVA_FLOAT_UNALIGNED, slot << 2);
            case F64 -> (long) a.segment.get(JAVA_DOUBLE_UNALIGNED, slot << 3);
            case C64, C128 -> (long) getReal(a, slot);
            default -> ElementCodec.toLong(a.type, readRaw(a, slot));
        };
    }

    static int getInt(Array a, long slot) {
        return switch (a.type) {
            case F32 -> (int) a.segment.get(JAVA_FLOAT_UNALIGNED, slot << 2);
            case S32, U32 -> a.segment.get(JAVA_INT_UNALIGNED, slot << 2);
            default -> a.type.isIntegral() || a.type.isPred() ? (int) getLong(a, slot) : (int) getDouble(a, slot);
        };
    }

    static boolean getBoolean(Array a, long slot) {
        ElementType t = a.type;
        if (t.isComplex()) {
            return getReal(a, slot) != 0 || getImaginary(a, slot) != 0;
        }
        if (t.isFloating()) {
            return getDouble(a, slot) != 0;    // NaN is true, as in C and NumPy
        }
        return canonicalCode(a, slot) != 0;
    }

    static void setFloat(Array a, long slot, float v) {
        switch (a.type) {
            case F32 -> a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 2, v);
            case F64 -> a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 3, v);
            case C64, C128 -> setComplex(a, slot, v, 0);
            default -> writeRaw(a, slot, ElementCodec.fromFloat(a.type, v));
        }
    }

    static void setDouble(Array a, long slot, double v) {
        switch (a.type) {
            case F32 -> a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 2, (float) v);
            case F64 -> a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 3, v);
            case C64, C128 -> setComplex(a, slot, v, 0);
            default -> writeRaw(a, slot, ElementCodec.fromDouble(a.type, v));
        }
    }

    static void setLong(Array a, long slot, long v) {
        switch (a.type) {
            case F32 -> a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 2, (float) v);
            case F64 -> a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 3, (double) v);
            case C64, C128 -> setComplex(a, slot, (double) v, 0);
            default -> writeRaw(a, slot, ElementCodec.fromLong(a.type, v));
        }
    }

    static void setBoolean(Array a, long slot, boolean v) {
        setLong(a, slot, v ? 1 : 0);
    }

    // ---- complex -------------------------------------------------------------------------------

    static double getReal(Array a, long slot) {
        return a.type == ElementType.C64
                ? a.segment.get(JAVA_FLOAT_UNALIGNED, slot << 3)
                : a.segment.get(JAVA_DOUBLE_UNALIGNED, slot << 4);
    }

    static double getImaginary(Array a, long slot) {
        return a.type == ElementType.C64
                ? a.segment.get(JAVA_FLOAT_UNALIGNED, (slot << 3) + 4)
                : a.segment.get(JAVA_DOUBLE_UNALIGNED, (slot << 4) + 8);
    }

    static void setComplex(Array a, long slot, double re, double im) {
        if (a.type == ElementType.C64) {
            a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 3, (float) re);
            a.segment.set(JAVA_FLOAT_UNALIGNED, (slot << 3) + 4, (float) im);
        } else {
            a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 4, re);
            a.segment.set(JAVA_DOUBLE_UNALIGNED, (slot << 4) + 8, im);
        }
    }

    // ---- padding values ------------------------------------------------------------------------

    /** The raw code of a padding value: see {@link ElementCodec#paddingCode}. */
    static long paddingCode(ElementType type, PaddingValue value) {
        return ElementCodec.paddingCode(type, value);
    }
}
