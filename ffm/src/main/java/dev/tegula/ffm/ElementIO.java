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
import dev.tegula.ffm.internal.RawSlots;
import java.lang.foreign.MemorySegment;

/**
 * Reads and writes one element slot of an {@link Array}: the switch from element type to value
 * layout and codec. Slots are checked by the caller (in bounds, host memory, writable); the segment
 * itself still checks bounds, liveness and the owner thread. All values are in native byte order
 * and accessed with unaligned layouts, so any segment alignment works.
 *
 * <p>The float and double accessors switch on the array's {@link #kindOf kind}, an int decided once
 * per array, and every common kind is a few instructions written inline with no call: f32 and f64
 * directly, bf16 and f16 by their bits, every slot of at most 8 bits (pred, 8-bit and sub-byte
 * integers, the fp8/fp6/fp4 types, packed or not) through a 256-entry table of values, and the
 * 16/32/64-bit integers sign- or zero-extended. The writers cover the same kinds without a codec
 * call: the narrow floating types and pred encode through a 64 Ki-entry table ({@link CodeTable}),
 * the integer types truncate ({@link #truncate}) and store through one segment access per width
 * ({@code writeInline}). Only u64 and complex types go to the codec ({@code *Rare}). This matters for
 * loops whose profile was polluted by other arrays: every path that the profile saw is compiled
 * into the loop, and a single call on any of them stops C2 from hoisting the array's fields and the
 * segment's checks out of the loop (a call may write memory; the cost is in
 * {@code docs/benchmarks.md}, "Element access"). Helpers called from one case are kept under 35 bytecodes (C2's size
 * limit at call sites it does not consider frequent), with one exception on purpose:
 * {@code setFloat} writes f32, bf16, f16 and f64 itself and hands the narrow kinds to
 * {@code setFloatNarrow}, which stays out of line where it is rare. C2 inlines an accessor into a
 * loop only while the accessor's own compiled code is under {@code InlineSmallCode} (2500 bytes),
 * which {@code Array.setFloat} with every kind inline exceeds after a polluted profile and with the
 * split does not (sizes in {@code docs/benchmarks.md}, "Element access").
 *
 * <p>Packed sub-byte slots ({@code E(1|2|4)}) are read-modify-write of their byte: only the slot's
 * own bits change.
 */
final class ElementIO {
    private ElementIO() {
    }

    // ---- kinds -----------------------------------------------------------------------------------

    /** f32: read and written directly. */
    static final int F32 = 0;
    /** f64: read and written directly. */
    static final int F64 = 1;
    /** bf16: the high half of an f32. */
    static final int BF16 = 2;
    /** f16: through the JDK's binary16 conversions (intrinsics). */
    static final int F16 = 3;
    /** Slots of at most 8 bits (packed or not): the value of each of the 256 codes from a table. */
    static final int SMALL = 4;
    /** s16, u16, s32, u32, s64: the code, sign-extended, then masked by {@code intMask} for unsigned types. */
    static final int INT = 5;
    /** u64, c64, c128: out of line. */
    static final int OTHER = 6;

    /** {@return the kind of accessor path for slots of {@code type} stored in {@code slotBits} bits} */
    static int kindOf(ElementType type, long slotBits) {
        return switch (type) {
            case F32 -> F32;
            case F64 -> F64;
            case BF16 -> BF16;
            case F16 -> F16;
            case S16, U16, S32, U32, S64 -> INT;
            case U64, C64, C128 -> OTHER;
            default -> slotBits <= 8 ? SMALL : OTHER;
        };
    }

    /** {@return the mask applied to a sign-extended code of an {@link #INT} type: all ones if signed} */
    static long intMask(ElementType type) {
        return switch (type) {
            case U16 -> 0xFFFFL;
            case U32 -> 0xFFFF_FFFFL;
            default -> -1L;
        };
    }

    private static final float[][] SMALL_FLOATS = new float[ElementType.values().length][];
    private static final double[][] SMALL_DOUBLES = new double[ElementType.values().length][];
    private static final CodeTable[] CODE_TABLES = new CodeTable[ElementType.values().length];

    /** {@return the float value of each code 0..255 of a {@link #SMALL} type (shared, do not write)} */
    static synchronized float[] smallFloats(ElementType type) {
        float[] v = SMALL_FLOATS[type.ordinal()];
        if (v == null) {
            v = new float[256];
            for (int code = 0; code < 256; code++) {
                v[code] = ElementCodec.toFloat(type, code);
            }
            SMALL_FLOATS[type.ordinal()] = v;
        }
        return v;
    }

    /** {@return the double value of each code 0..255 of a {@link #SMALL} type (shared, do not write)} */
    static synchronized double[] smallDoubles(ElementType type) {
        double[] v = SMALL_DOUBLES[type.ordinal()];
        if (v == null) {
            v = new double[256];
            for (int code = 0; code < 256; code++) {
                v[code] = ElementCodec.toDouble(type, code);
            }
            SMALL_DOUBLES[type.ordinal()] = v;
        }
        return v;
    }

    // ---- raw codes -----------------------------------------------------------------------------

    /** The slot's stored bits in the low bits (zero-extended); not for c128. */
    static long readRaw(Array a, long slot) {
        return RawSlots.read(a.segment, slot, a.slotBits);
    }

    /** Stores the low bits of {@code raw} into the slot; not for c128. */
    static void writeRaw(Array a, long slot, long raw) {
        RawSlots.write(a.segment, slot, a.slotBits, raw);
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

    // The fast cases are written out in one method each, not in helpers: C2 inlines a helper of more
    // than 35 bytecodes only at a call site it rates frequent, and none at a site under ~1% of the
    // calls, while the whole method is inlined at its one call site. Reads go through one site per
    // width, f32 and f64 included (each inlined segment access is a few hundred bytes of machine
    // code, and C2 refuses to inline a method already compiled to more than InlineSmallCode = 2500
    // bytes: Array.getFloat(i, j), with the addressing and this inlined, must stay under it).
    // No call may stay on any path of the fast cases, however rare: after a profile that saw f16
    // rarely, C2 left Float16.toFloat (35 bytes) out of line ("low call site frequency"), and that
    // one call made a loop over an f32 array reload every field of the array and of its segment per
    // element (ArrayReadBench, polluted; docs/benchmarks.md); f16 is therefore decoded here, by
    // intrinsics.

    static float getFloat(Array a, long slot) {
        MemorySegment s = a.segment;
        int k = a.kind;
        if (k == SMALL) {   // packed, or whole bytes (slotBits 8, packedMask 0xFF)
            long bit = slot * a.slotBits;
            return a.smallFloats[(s.get(JAVA_BYTE, bit >>> 3) >> (int) (bit & 7)) & a.packedMask];
        }
        if (k == OTHER) {
            return getFloatRare(a, slot);
        }
        int w = a.slotBytes;
        long raw = w == 4 ? s.get(JAVA_INT_UNALIGNED, slot << 2)   // sign-extended
                : w == 2 ? s.get(JAVA_SHORT_UNALIGNED, slot << 1)
                : s.get(JAVA_LONG_UNALIGNED, slot << 3);
        return k == F32 ? Float.intBitsToFloat((int) raw)
                : k == BF16 ? Float.intBitsToFloat((int) raw << 16)
                : k == F16 ? ((raw & 0x7FFF) > 0x7C00   // Float16.toFloat, written out (above)
                        ? Float.intBitsToFloat((int) (raw & 0x8000) << 16 | 0x7F80_0000 | (int) (raw & 0x03FF) << 13)
                        : Float.float16ToFloat((short) raw))
                : k == F64 ? (float) Double.longBitsToDouble(raw)
                : (float) (raw & a.intMask);   // INT: one rounding, to nearest even
    }

    private static float getFloatRare(Array a, long slot) {
        return a.type.isComplex() ? (float) getReal(a, slot) : ElementCodec.toFloat(a.type, readRaw(a, slot));
    }

    static double getDouble(Array a, long slot) {
        MemorySegment s = a.segment;
        int k = a.kind;
        if (k == SMALL) {
            long bit = slot * a.slotBits;
            return a.smallDoubles[(s.get(JAVA_BYTE, bit >>> 3) >> (int) (bit & 7)) & a.packedMask];
        }
        if (k == OTHER) {
            return getDoubleRare(a, slot);
        }
        int w = a.slotBytes;
        long raw = w == 8 ? s.get(JAVA_LONG_UNALIGNED, slot << 3)
                : w == 4 ? s.get(JAVA_INT_UNALIGNED, slot << 2)
                : s.get(JAVA_SHORT_UNALIGNED, slot << 1);
        return k == F64 ? Double.longBitsToDouble(raw)
                : k == F32 ? Float.intBitsToFloat((int) raw)
                : k == BF16 ? Float.intBitsToFloat((int) raw << 16)
                : k == F16 ? ((raw & 0x7FFF) > 0x7C00   // Float16.toFloat, written out (above)
                        ? Float.intBitsToFloat((int) (raw & 0x8000) << 16 | 0x7F80_0000 | (int) (raw & 0x03FF) << 13)
                        : Float.float16ToFloat((short) raw))
                : (double) (raw & a.intMask);   // INT: exact below 2^53, else one rounding
    }

    private static double getDoubleRare(Array a, long slot) {
        return a.type.isComplex() ? getReal(a, slot) : ElementCodec.toDouble(a.type, readRaw(a, slot));
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

    /**
     * The kinds with a store of their own here (f32, bf16, f16, f64) are written in this method; the
     * others call {@link #setFloatNarrow}, which C2 inlines where it is hot and leaves out of line
     * where it is rare. That keeps {@code Array.setFloat}'s own compiled code small after a profile
     * of every kind: under {@code InlineSmallCode}, so a loop compiled later still inlines it (before
     * the split it was 3056 bytes and every such loop called it per element).
     */
    static void setFloat(Array a, long slot, float v) {
        int k = a.kind;
        if (k == F32) {
            a.segment.set(JAVA_INT_UNALIGNED, slot << 2, Float.floatToRawIntBits(v));
        } else if (k == BF16 || k == F16) {
            a.segment.set(JAVA_SHORT_UNALIGNED, slot << 1, k == BF16 ? BFloat16.fromFloat(v) : Float16.fromFloat(v));
        } else if (k == F64) {
            a.segment.set(JAVA_LONG_UNALIGNED, slot << 3, Double.doubleToRawLongBits(v));
        } else {
            setFloatNarrow(a, slot, v);
        }
    }

    /** {@link #setFloat} for the {@link #SMALL}, {@link #INT} and {@link #OTHER} kinds. */
    private static void setFloatNarrow(Array a, long slot, float v) {
        int k = a.kind;
        if (k == OTHER) {
            setFloatRare(a, slot, v);
            return;
        }
        writeInline(a, slot, k == SMALL && a.codeTable != null ? a.codeTable.codes()[foldedIndex(v)] : truncate(v));
    }

    /**
     * Stores the low bits of {@code raw} into the slot of a {@link #SMALL} (read-modify-write of the
     * slot's byte, all 8 bits for whole bytes; {@code raw} is masked to the type's width) or of a
     * 16-, 32- or 64-bit slot; one segment access per width, as the reads have (see above).
     */
    private static void writeInline(Array a, long slot, long raw) {
        MemorySegment s = a.segment;
        int w = a.slotBytes;
        if (a.kind == SMALL) {
            long bit = slot * a.slotBits;
            long at = bit >>> 3;
            int shift = (int) (bit & 7);
            int mask = a.packedMask << shift;
            s.set(JAVA_BYTE, at, (byte) ((s.get(JAVA_BYTE, at) & ~mask) | (((int) raw & a.codeMask) << shift & mask)));
        } else if (w == 2) {
            s.set(JAVA_SHORT_UNALIGNED, slot << 1, (short) raw);
        } else if (w == 4) {
            s.set(JAVA_INT_UNALIGNED, slot << 2, (int) raw);
        } else {
            s.set(JAVA_LONG_UNALIGNED, slot << 3, raw);
        }
    }

    /** {@return the index of {@code v} in a {@link CodeTable}} */
    static int foldedIndex(float v) {
        int b = Float.floatToRawIntBits(v);
        return (b >>> 16) | (((b & 0xFFFF) + 0xFFFF) >>> 16);
    }

    /**
     * {@return {@code v} truncated toward zero as the integer types store it} As
     * {@link ElementCodec#fromDouble}: NaN is 0, values below -2^63 give -2^63, values in
     * [2^63, 2^64) their unsigned 64-bit pattern, and values from 2^64 up all ones; the caller keeps
     * the low bits of the type's width.
     */
    static long truncate(double v) {
        return v >= 0x1p63 ? truncateHuge(v) : (long) v;   // small enough (< 35 bytecodes) to inline anywhere
    }

    private static long truncateHuge(double v) {
        return v >= 0x1p64 ? -1L : (long) (v - 0x1p63) ^ Long.MIN_VALUE;
    }

    /**
     * {@return the code table of a {@link #SMALL} floating type or pred, shared by every array of
     * the type; null for the integer types, which truncate} Cheap: the table itself is built on the
     * first write ({@link CodeTable#codes}), so arrays that are only read never pay for it (its cost
     * is in {@code docs/benchmarks.md}).
     */
    static synchronized CodeTable codeTable(ElementType type) {
        if (type.isIntegral()) {
            return null;
        }
        CodeTable t = CODE_TABLES[type.ordinal()];
        if (t == null) {
            t = new CodeTable(type);
            CODE_TABLES[type.ordinal()] = t;
        }
        return t;
    }

    /**
     * The code of every f32 in one {@link #SMALL} floating type or pred, by its folded index. The
     * index of an f32 with bits {@code b} is its high 16 bits with bit 0 or'ed with "some of the low
     * 16 bits are set": {@code (b >>> 16) | (b & 0xFFFF ? 1 : 0)}. That is exact for every format
     * here: each has at most 4 fraction bits (f8e3m4), so the bit that decides the rounding lies at
     * least two bits above bit 0 of the index, and everything below it only matters as "zero or
     * not" (the sticky bit of round to nearest even; NaN or not for an all-ones exponent; zero or not
     * for pred). The entry of index {@code i} is the codec's code of the f32 {@code i << 16}, which
     * has the same decisions. {@code ElementIOFastPathTest} checks every index with several low
     * halves. Thread-safe: the table is built once, under this object's lock, and published through
     * a final field ({@link Built}), so a thread that reads {@code built} without the lock sees
     * either null or the whole table.
     */
    static final class CodeTable {
        private final ElementType type;
        private Built built;

        private record Built(byte[] codes) {
        }

        private CodeTable(ElementType type) {
            this.type = type;
        }

        /** {@return the 64 Ki codes (shared, do not write)} */
        byte[] codes() {
            Built b = built;
            return b != null ? b.codes() : build();
        }

        private synchronized byte[] build() {
            if (built == null) {
                byte[] c = new byte[1 << 16];
                for (int i = 0; i < c.length; i++) {
                    c[i] = (byte) ElementCodec.fromFloat(type, Float.intBitsToFloat(i << 16));
                }
                built = new Built(c);
            }
            return built.codes();
        }
    }

    /**
     * {@return {@code v} rounded to an f32 toward zero, with bit 0 set when that was inexact}
     * ("round to odd"): a second rounding of the result to a format of at most 22 fraction bits
     * (bf16, f16, the minifloats) gives what one rounding of {@code v} would. Out of the f32 range it
     * gives ±{@code Float.MAX_VALUE}, which every such format rounds as it would {@code v}.
     */
    static float roundToOddFloat(double v) {
        float f = (float) v;
        if (f == v || v != v) {
            return f;
        }
        int b = Float.floatToRawIntBits(f);
        if (Math.abs((double) f) > Math.abs(v)) {
            b--;   // one step toward zero: sign-magnitude bits step the magnitude
        }
        return Float.intBitsToFloat(b | 1);
    }

    private static void setFloatRare(Array a, long slot, float v) {
        if (a.type.isComplex()) {
            setComplex(a, slot, v, 0);
        } else {
            writeRaw(a, slot, ElementCodec.fromFloat(a.type, v));
        }
    }

    static void setDouble(Array a, long slot, double v) {
        int k = a.kind;
        if (k == F64) {
            a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 3, v);
        } else if (k == F32) {
            a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 2, (float) v);
        } else if (k == INT || (k == SMALL && a.codeTable == null)) {
            writeInline(a, slot, truncate(v));
        } else if (k == OTHER) {
            setDoubleRare(a, slot, v);
        } else {   // bf16, f16, the minifloats, pred: one rounding of the exact value
            setFloat(a, slot, roundToOddFloat(v));
        }
    }

    private static void setDoubleRare(Array a, long slot, double v) {
        if (a.type.isComplex()) {
            setComplex(a, slot, v, 0);
        } else {
            writeRaw(a, slot, ElementCodec.fromDouble(a.type, v));
        }
    }

    static void setLong(Array a, long slot, long v) {
        int k = a.kind;
        if (k == INT || (k == SMALL && a.codeTable == null)) {   // integers keep the low bits
            writeInline(a, slot, v);
        } else if (k == F32) {
            a.segment.set(JAVA_FLOAT_UNALIGNED, slot << 2, (float) v);
        } else if (k == F64) {
            a.segment.set(JAVA_DOUBLE_UNALIGNED, slot << 3, (double) v);
        } else {
            setLongRare(a, slot, v);
        }
    }

    private static void setLongRare(Array a, long slot, long v) {
        if (a.type.isComplex()) {
            setComplex(a, slot, (double) v, 0);
        } else {
            writeRaw(a, slot, ElementCodec.fromLong(a.type, v));
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
