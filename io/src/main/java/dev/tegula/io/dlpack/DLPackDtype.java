package dev.tegula.io.dlpack;

import dev.tegula.core.ElementType;

/** {@code DLDataTypeCode} values and the mapping between {@code (code, bits)} and {@link ElementType}. */
final class DLPackDtype {
    static final int INT = 0;
    static final int UINT = 1;
    static final int FLOAT = 2;
    static final int BFLOAT = 4;
    static final int COMPLEX = 5;
    static final int BOOL = 6;
    static final int FLOAT8_E3M4 = 7;
    static final int FLOAT8_E4M3 = 8;
    static final int FLOAT8_E4M3B11FNUZ = 9;
    static final int FLOAT8_E4M3FN = 10;
    static final int FLOAT8_E4M3FNUZ = 11;
    static final int FLOAT8_E5M2 = 12;
    static final int FLOAT8_E5M2FNUZ = 13;
    static final int FLOAT8_E8M0FNU = 14;
    static final int FLOAT6_E2M3FN = 15;
    static final int FLOAT6_E3M2FN = 16;
    static final int FLOAT4_E2M1FN = 17;

    private DLPackDtype() {
    }

    /** {@return the DLPack code of {@code type}} Every Tegula array type has one. */
    static int code(ElementType type) {
        return switch (type) {
            case PRED -> BOOL;
            case S1, S2, S4, S8, S16, S32, S64 -> INT;
            case U1, U2, U4, U8, U16, U32, U64 -> UINT;
            case F16, F32, F64 -> FLOAT;
            case BF16 -> BFLOAT;
            case C64, C128 -> COMPLEX;
            case F8E3M4 -> FLOAT8_E3M4;
            case F8E4M3 -> FLOAT8_E4M3;
            case F8E4M3B11FNUZ -> FLOAT8_E4M3B11FNUZ;
            case F8E4M3FN -> FLOAT8_E4M3FN;
            case F8E4M3FNUZ -> FLOAT8_E4M3FNUZ;
            case F8E5M2 -> FLOAT8_E5M2;
            case F8E5M2FNUZ -> FLOAT8_E5M2FNUZ;
            case F8E8M0FNU -> FLOAT8_E8M0FNU;
            case F6E2M3FN -> FLOAT6_E2M3FN;
            case F6E3M2FN -> FLOAT6_E3M2FN;
            case F4E2M1FN -> FLOAT4_E2M1FN;
            default -> throw new IllegalArgumentException("elementType: " + type + " is not an array element type");
        };
    }

    /** {@return DLPack's {@code bits} for {@code type}: the logical width (8 for pred, 6 for the f6 types)} */
    static int bits(ElementType type) {
        return switch (type) {
            case PRED -> 8;
            case F6E2M3FN, F6E3M2FN -> 6;
            default -> type.bitWidth();
        };
    }

    /** {@return the element type of DLPack dtype {@code (code, bits)}, or null if Tegula has none} */
    static ElementType of(int code, int bits) {
        for (ElementType t : ElementType.values()) {
            if (t.isArrayType() && code(t) == code && bits(t) == bits) {
                return t;
            }
        }
        return null;
    }
}
