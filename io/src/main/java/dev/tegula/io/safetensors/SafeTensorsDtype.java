package dev.tegula.io.safetensors;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;

/**
 * The dtypes of the safetensors format, with their bit sizes in the file and the Tegula element
 * type each maps to. {@code F4} is stored packed, two per byte, element 0 in the low nibble (Tegula's
 * {@code E(4)} packing); {@code F6_*} are stored packed, four in three bytes, as a little-endian bit
 * stream (element {@code i} in bits {@code 6i..6i+5}), and Tegula holds them one per byte.
 */
enum SafeTensorsDtype {
    BOOL(ElementType.PRED, 8),
    U8(ElementType.U8, 8),
    I8(ElementType.S8, 8),
    U16(ElementType.U16, 16),
    I16(ElementType.S16, 16),
    U32(ElementType.U32, 32),
    I32(ElementType.S32, 32),
    U64(ElementType.U64, 64),
    I64(ElementType.S64, 64),
    F16(ElementType.F16, 16),
    BF16(ElementType.BF16, 16),
    F32(ElementType.F32, 32),
    F64(ElementType.F64, 64),
    C64(ElementType.C64, 64),
    F8_E5M2(ElementType.F8E5M2, 8),
    F8_E4M3(ElementType.F8E4M3FN, 8),
    F8_E8M0(ElementType.F8E8M0FNU, 8),
    F6_E2M3(ElementType.F6E2M3FN, 6),
    F6_E3M2(ElementType.F6E3M2FN, 6),
    F4(ElementType.F4E2M1FN, 4);

    final ElementType type;
    /** Bits of one element in the file. */
    final int bits;

    SafeTensorsDtype(ElementType type, int bits) {
        this.type = type;
        this.bits = bits;
    }

    /** {@return the dtype called {@code name}, or null} */
    static SafeTensorsDtype byName(String name) {
        for (SafeTensorsDtype d : values()) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    /** {@return the dtype that stores {@code type}} @throws IllegalArgumentException if none does */
    static SafeTensorsDtype of(ElementType type) {
        for (SafeTensorsDtype d : values()) {
            if (d.type == type) {
                return d;
            }
        }
        throw new IllegalArgumentException("elementType: " + type + " has no safetensors dtype (supported: pred, u8..u64,"
                + " s8..s64, f16, bf16, f32, f64, c64, f8e5m2, f8e4m3fn, f8e8m0fnu, f6e2m3fn, f6e3m2fn, f4e2m1fn)");
    }

    /** {@return true if the file's bytes can be wrapped as they are (all but the packed f6 types)} */
    boolean wrapsDirectly() {
        return bits != 6;
    }

    /** {@return the shape a tensor of this dtype has in a file: row-major, f4 packed {@code E(4)}} */
    ArrayShape fileShape(long[] dims) {
        ArrayShape s = ArrayShape.of(type, dims);
        return bits == 4 ? s.withLayout(Layout.rowMajor(dims.length).withElementSizeInBits(4)) : s;
    }
}
