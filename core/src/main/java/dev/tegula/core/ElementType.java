package dev.tegula.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Every XLA primitive type ({@code xla_data.proto} {@code PrimitiveType}), with its HLO text name,
 * proto number and storage facts.
 *
 * <p>The array element types come first; {@link #TUPLE}, {@link #OPAQUE_TYPE}, {@link #TOKEN} and
 * {@link #BUFFER} are listed too because XLA lists them, but they are shape kinds, not element
 * types: {@link #isArrayType()} is false for them and {@link ArrayShape} refuses them.
 *
 * <p>{@link #bitWidth()} is what XLA's {@code primitive_util::BitWidth} returns (so {@code pred}
 * is 1 bit and the f6 types are 8 bits, as in core XLA); {@link #byteWidth()} is the default
 * storage size of one element, {@code ceil(bitWidth / 8)}. Immutable and thread-safe.
 */
public enum ElementType {
    /** Boolean, stored one per byte (1 bit wide, but never sub-byte packed by default). */
    PRED("pred", 1, 1, Kind.PRED),
    S1("s1", 30, 1, Kind.SIGNED),
    S2("s2", 26, 2, Kind.SIGNED),
    S4("s4", 21, 4, Kind.SIGNED),
    S8("s8", 2, 8, Kind.SIGNED),
    S16("s16", 3, 16, Kind.SIGNED),
    S32("s32", 4, 32, Kind.SIGNED),
    S64("s64", 5, 64, Kind.SIGNED),
    U1("u1", 31, 1, Kind.UNSIGNED),
    U2("u2", 27, 2, Kind.UNSIGNED),
    U4("u4", 22, 4, Kind.UNSIGNED),
    U8("u8", 6, 8, Kind.UNSIGNED),
    U16("u16", 7, 16, Kind.UNSIGNED),
    U32("u32", 8, 32, Kind.UNSIGNED),
    U64("u64", 9, 64, Kind.UNSIGNED),
    /** IEEE 754 binary16. */
    F16("f16", 10, 16, Kind.FLOAT),
    /** bfloat16: the upper half of an IEEE binary32. */
    BF16("bf16", 16, 16, Kind.FLOAT),
    F32("f32", 11, 32, Kind.FLOAT),
    F64("f64", 12, 64, Kind.FLOAT),
    F8E5M2("f8e5m2", 19, 8, Kind.FLOAT),
    F8E4M3("f8e4m3", 28, 8, Kind.FLOAT),
    F8E4M3FN("f8e4m3fn", 20, 8, Kind.FLOAT),
    F8E4M3B11FNUZ("f8e4m3b11fnuz", 23, 8, Kind.FLOAT),
    F8E3M4("f8e3m4", 29, 8, Kind.FLOAT),
    F8E5M2FNUZ("f8e5m2fnuz", 24, 8, Kind.FLOAT),
    F8E4M3FNUZ("f8e4m3fnuz", 25, 8, Kind.FLOAT),
    /** MX scale type: an 8-bit power of two, no sign, no mantissa. */
    F8E8M0FNU("f8e8m0fnu", 33, 8, Kind.FLOAT),
    /** MX FP4, sub-byte. */
    F4E2M1FN("f4e2m1fn", 32, 4, Kind.FLOAT),
    /** MX FP6; core XLA reports 8 bits (one byte of native storage), so it is not sub-byte. */
    F6E3M2FN("f6e3m2fn", 35, 8, Kind.FLOAT),
    /** MX FP6; core XLA reports 8 bits (one byte of native storage), so it is not sub-byte. */
    F6E2M3FN("f6e2m3fn", 36, 8, Kind.FLOAT),
    /** Complex of two f32 (real, imaginary). */
    C64("c64", 15, 64, Kind.COMPLEX),
    /** Complex of two f64 (real, imaginary). */
    C128("c128", 18, 128, Kind.COMPLEX),
    /** Not an element type: tuples are written {@code ( ... )}. */
    TUPLE("tuple", 13, 0, Kind.NON_ARRAY),
    /** Not an element type: the opaque shape, written {@code opaque[]}. */
    OPAQUE_TYPE("opaque", 14, 0, Kind.NON_ARRAY),
    /** Not an element type: the token shape, written {@code token[]}. */
    TOKEN("token", 17, 0, Kind.NON_ARRAY),
    /** Not an element type: buffers are written {@code b( ... )}. */
    BUFFER("buffer", 34, 0, Kind.NON_ARRAY);

    private enum Kind { PRED, SIGNED, UNSIGNED, FLOAT, COMPLEX, NON_ARRAY }

    private static final Map<String, ElementType> BY_NAME = new HashMap<>();
    private static final Map<Integer, ElementType> BY_NUMBER = new HashMap<>();

    static {
        for (ElementType t : values()) {
            BY_NAME.put(t.hloName, t);
            BY_NUMBER.put(t.protoNumber, t);
        }
    }

    private final String hloName;
    private final int protoNumber;
    private final int bitWidth;
    private final Kind kind;

    ElementType(String hloName, int protoNumber, int bitWidth, Kind kind) {
        this.hloName = hloName;
        this.protoNumber = protoNumber;
        this.bitWidth = bitWidth;
        this.kind = kind;
    }

    /** {@return the lower-case HLO text name, e.g. {@code "bf16"}} */
    public String hloName() {
        return hloName;
    }

    /** {@return the {@code PrimitiveType} number of {@code xla_data.proto}} */
    public int protoNumber() {
        return protoNumber;
    }

    /** {@return the width in bits as XLA's {@code BitWidth} reports it; 0 for non-array types} */
    public int bitWidth() {
        return bitWidth;
    }

    /** {@return the default storage size of one element in bytes, {@code ceil(bitWidth/8)}; 0 for non-array types} */
    public int byteWidth() {
        return (bitWidth + 7) / 8;
    }

    /** {@return true for element types an array can hold (everything but tuple, opaque, token, buffer)} */
    public boolean isArrayType() {
        return kind != Kind.NON_ARRAY;
    }

    /** {@return true for s1 s2 s4 u1 u2 u4 f4e2m1fn: array types, not pred, narrower than 8 bits} */
    public boolean isSubByte() {
        return kind != Kind.NON_ARRAY && kind != Kind.PRED && bitWidth < 8;
    }

    /** {@return true for pred} */
    public boolean isPred() {
        return kind == Kind.PRED;
    }

    /** {@return true for the real floating-point types (f16, bf16, f32, f64, fp8, fp6, fp4)} */
    public boolean isFloating() {
        return kind == Kind.FLOAT;
    }

    /** {@return true for the signed and unsigned integer types (not pred)} */
    public boolean isIntegral() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
    }

    /** {@return true for types with a sign: signed integers, floats and complex} */
    public boolean isSigned() {
        return kind == Kind.SIGNED || (kind == Kind.FLOAT && this != F8E8M0FNU) || kind == Kind.COMPLEX;
    }

    /** {@return true for the unsigned integer types} */
    public boolean isUnsigned() {
        return kind == Kind.UNSIGNED;
    }

    /** {@return true for c64 and c128} */
    public boolean isComplex() {
        return kind == Kind.COMPLEX;
    }

    /** {@return the component type of a complex type (f32 for c64, f64 for c128)}
     * @throws IllegalStateException if this type is not complex */
    public ElementType componentType() {
        return switch (this) {
            case C64 -> F32;
            case C128 -> F64;
            default -> throw new IllegalStateException(hloName + " is not a complex type");
        };
    }

    /**
     * {@return the type with this HLO text name} Names are case-sensitive, as in XLA.
     *
     * @param name the lower-case text name, e.g. {@code "bf16"}
     * @throws IllegalArgumentException if no primitive type has that name
     */
    public static ElementType fromName(String name) {
        ElementType t = lookup(name);
        if (t == null) {
            throw new IllegalArgumentException("elementType: unknown primitive type name '" + name + "'");
        }
        return t;
    }

    /** {@return the type with this text name, or null} */
    static ElementType lookup(String name) {
        return BY_NAME.get(name);
    }

    /**
     * {@return the type with this {@code PrimitiveType} number}
     *
     * @throws IllegalArgumentException if no primitive type has that number
     */
    public static ElementType fromProtoNumber(int number) {
        ElementType t = BY_NUMBER.get(number);
        if (t == null) {
            throw new IllegalArgumentException("elementType: unknown PrimitiveType number " + number);
        }
        return t;
    }

    /** {@return the HLO text name} */
    @Override
    public String toString() {
        return hloName;
    }
}
