package dev.tegula.vector.kernels;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.internal.RawSlots;
import java.util.EnumMap;
import java.util.Map;

/**
 * An element-type conversion that the relayout engine fuses into its loop nests: f32 to bf16
 * ({@link ConvertKernels}), and the widening conversions of {@link WideningKernels} (bf16, f16,
 * every type of at most 8 bits stored one per byte, and 4-bit types packed {@code E(4)}, to f32
 * and f64; f32 to f64; f64 to f32). Each value converts exactly as the element walk converts it
 * ({@link RawSlots#convert}): the fast paths are tested against that rule bit for bit. Immutable
 * and thread-safe.
 */
public final class Conversion {

    /** How the source codes become f32 bits (or, for {@link #F64_F32}, how f64 becomes f32). */
    enum Kind {
        /** f32 to bf16, round to nearest even ({@link ConvertKernels}). */
        F32_BF16,
        /** bf16 to f32: the code in the high half. */
        BF16_F32,
        /** f16 to f32: exact, NaN payload kept, not quieted. */
        F16_F32,
        /** One byte per element, any type of at most 8 bits: a 256-entry table of f32 bits. */
        BYTE_F32,
        /** Two 4-bit elements per byte ({@code E(4)}), the first in the low nibble: a 16-entry table. */
        NIBBLE_F32,
        /** f32 to f32: the first half of f32 to f64. */
        F32_F32,
        /** f64 to f32, rounded as a Java cast rounds (to nearest even; a NaN stays a NaN, quiet). */
        F64_F32
    }

    /** The conversion's kind. */
    final Kind kind;
    /** The source element type. */
    final ElementType from;
    /** The destination element type. */
    final ElementType to;
    /** Bits of a source slot (4, 8, 16, 32 or 64). */
    final int fromBits;
    /** Bytes of a destination element (2, 4 or 8). */
    final int toBytes;
    /** Whether the destination is f64 (f32 lanes then widened, as a Java cast widens: a NaN becomes quiet). */
    final boolean toF64;
    /** For {@link Kind#BYTE_F32} and {@link Kind#NIBBLE_F32}: the f32 bits of each source code. */
    final int[] table;
    /** For {@link Kind#BYTE_F32}: the high halves of {@link #table} (its low halves are all zero), else null. */
    final short[] highTable;

    private Conversion(Kind kind, ElementType from, ElementType to, int fromBits) {
        this.kind = kind;
        this.from = from;
        this.to = to;
        this.fromBits = fromBits;
        this.toBytes = to.bitWidth() / 8;
        this.toF64 = to == ElementType.F64;
        int codes = kind == Kind.BYTE_F32 ? 256 : kind == Kind.NIBBLE_F32 ? 16 : 0;
        this.table = codes == 0 ? null : new int[codes];
        short[] high = kind == Kind.BYTE_F32 ? new short[codes] : null;
        for (int c = 0; c < codes; c++) {
            int bits = (int) RawSlots.convert(from, ElementType.F32, RawSlots.normalise(from, c));
            table[c] = bits;
            if (high != null) {
                high[c] = (short) (bits >>> 16);
                if ((bits & 0xFFFF) != 0) {
                    high = null;   // not every value is a bf16 value: no half-width table
                }
            }
        }
        this.highTable = high;
    }

    /** The fused f32 to bf16 conversion. */
    public static final Conversion F32_TO_BF16 = new Conversion(Kind.F32_BF16, ElementType.F32, ElementType.BF16, 32);

    private static final Map<ElementType, Conversion> BYTES_TO_F32 = new EnumMap<>(ElementType.class);
    private static final Map<ElementType, Conversion> BYTES_TO_F64 = new EnumMap<>(ElementType.class);

    /**
     * {@return the fused conversion from slots of {@code fromBits} of type {@code from} to slots of
     * {@code toBits} of type {@code to}, or null where the engine has none (the element walk runs)}
     */
    public static Conversion of(ElementType from, long fromBits, ElementType to, long toBits) {
        if (from == ElementType.F32 && fromBits == 32 && to == ElementType.BF16 && toBits == 16) {
            return F32_TO_BF16;
        }
        boolean f32 = to == ElementType.F32 && toBits == 32;
        boolean f64 = to == ElementType.F64 && toBits == 64;
        if (!f32 && !f64 || from == to) {
            return null;
        }
        if (from == ElementType.F64 && fromBits == 64) {
            return f32 ? new Conversion(Kind.F64_F32, from, to, 64) : null;
        }
        if (from == ElementType.F32 && fromBits == 32) {
            return new Conversion(Kind.F32_F32, from, to, 32);
        }
        if ((from == ElementType.BF16 || from == ElementType.F16) && fromBits == 16) {
            return new Conversion(from == ElementType.BF16 ? Kind.BF16_F32 : Kind.F16_F32, from, to, 16);
        }
        boolean small = (from.isFloating() || from.isIntegral()) && !from.isComplex() && from.bitWidth() <= 8;
        if (small && fromBits == 8) {
            Map<ElementType, Conversion> cache = f32 ? BYTES_TO_F32 : BYTES_TO_F64;
            synchronized (cache) {
                return cache.computeIfAbsent(from, t -> new Conversion(Kind.BYTE_F32, t, to, 8));
            }
        }
        if (small && fromBits == 4 && from.bitWidth() == 4) {
            return new Conversion(Kind.NIBBLE_F32, from, to, 4);
        }
        return null;
    }

    /**
     * {@return the destination code of one source code (the slot's stored bits)}: the scalar form of
     * the kernels, used for remainders and strided lines.
     */
    long convert(long raw) {
        int bits = switch (kind) {
            case F32_BF16 -> ConvertKernels.bf16((int) raw) & 0xFFFF;
            case BF16_F32 -> (int) raw << 16;
            case F16_F32 -> WideningKernels.f16Bits((int) raw);
            case BYTE_F32 -> table[(int) raw & 0xFF];
            case NIBBLE_F32 -> table[(int) raw & 0xF];
            case F32_F32 -> (int) raw;
            case F64_F32 -> Float.floatToRawIntBits((float) Double.longBitsToDouble(raw));
        };
        return toF64 ? Double.doubleToRawLongBits(Float.intBitsToFloat(bits)) : bits & 0xFFFF_FFFFL;
    }

    /** {@return whether this is one of the widening conversions ({@link WideningKernels}), not f32 to bf16} */
    public boolean widens() {
        return kind != Kind.F32_BF16;
    }

    /** {@return bits of a source slot: 4 (packed {@code E(4)}), 8, 16, 32 or 64} */
    public int fromBits() {
        return fromBits;
    }

    /** {@return bytes of a destination element: 2, 4 or 8} */
    public int toBytes() {
        return toBytes;
    }

    /** {@return e.g. {@code bf16 -> f32}} */
    @Override
    public String toString() {
        return from.toString() + " -> " + to;
    }
}
