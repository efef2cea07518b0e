package dev.tegula.io.gguf;

import java.util.Arrays;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * One GGUF metadata value: its type and its value. Immutable; arrays are copied in and out.
 *
 * <table>
 *   <caption>What {@link #value()} holds</caption>
 *   <tr><th>type</th><th>value</th></tr>
 *   <tr><td>UINT8 … INT64</td><td>{@code Long} (UINT64 as its 64 bits; the others zero- or sign-extended)</td></tr>
 *   <tr><td>FLOAT32 / FLOAT64</td><td>{@code Float} / {@code Double}</td></tr>
 *   <tr><td>BOOL / STRING</td><td>{@code Boolean} / {@code String}</td></tr>
 *   <tr><td>ARRAY</td><td>by {@link #elementType()}: {@code byte[]} (UINT8, INT8), {@code short[]},
 *       {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}, {@code boolean[]},
 *       {@code String[]}, or {@code GgufValue[]} (arrays of arrays)</td></tr>
 * </table>
 *
 * @param type        the value's type
 * @param elementType the element type of an ARRAY, otherwise null
 * @param value       the value, as the table says
 */
public record GgufValue(GgufValueType type, GgufValueType elementType, Object value) {

    /**
     * @throws IllegalArgumentException if {@code value} does not have the class the table gives for the types,
     *                                  or an integer is out of its type's range
     */
    public GgufValue {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        if (type == GgufValueType.ARRAY) {
            Objects.requireNonNull(elementType, "elementType");
            Class<?> want = arrayClass(elementType);
            if (value.getClass() != want) {
                throw new IllegalArgumentException("value: an ARRAY of " + elementType + " is a " + want.getSimpleName()
                        + ", not a " + value.getClass().getSimpleName());
            }
            value = copy(value);
            if (value instanceof GgufValue[] items) {
                for (GgufValue v : items) {
                    Objects.requireNonNull(v, "array item");
                    if (v.type != GgufValueType.ARRAY) {
                        throw new IllegalArgumentException("value: an ARRAY of ARRAY holds arrays, not " + v.type);
                    }
                }
            } else if (value instanceof String[] items) {
                for (String v : items) {
                    Objects.requireNonNull(v, "array item");
                }
            }
        } else {
            if (elementType != null) {
                throw new IllegalArgumentException("elementType: only an ARRAY has one, not a " + type);
            }
            Class<?> want = switch (type) {
                case FLOAT32 -> Float.class;
                case FLOAT64 -> Double.class;
                case BOOL -> Boolean.class;
                case STRING -> String.class;
                default -> Long.class;
            };
            if (value.getClass() != want) {
                throw new IllegalArgumentException("value: a " + type + " is a " + want.getSimpleName() + ", not a "
                        + value.getClass().getSimpleName());
            }
            if (value instanceof Long n && !inRange(type, n)) {
                throw new IllegalArgumentException("value: " + n + " is out of the range of " + type);
            }
        }
    }

    private static boolean inRange(GgufValueType t, long n) {
        return switch (t) {
            case UINT8 -> n >= 0 && n <= 0xFF;
            case INT8 -> n >= Byte.MIN_VALUE && n <= Byte.MAX_VALUE;
            case UINT16 -> n >= 0 && n <= 0xFFFF;
            case INT16 -> n >= Short.MIN_VALUE && n <= Short.MAX_VALUE;
            case UINT32 -> n >= 0 && n <= 0xFFFF_FFFFL;
            case INT32 -> n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE;
            default -> true;
        };
    }

    static Class<?> arrayClass(GgufValueType t) {
        return switch (t) {
            case UINT8, INT8 -> byte[].class;
            case UINT16, INT16 -> short[].class;
            case UINT32, INT32 -> int[].class;
            case UINT64, INT64 -> long[].class;
            case FLOAT32 -> float[].class;
            case FLOAT64 -> double[].class;
            case BOOL -> boolean[].class;
            case STRING -> String[].class;
            case ARRAY -> GgufValue[].class;
        };
    }

    private static Object copy(Object array) {
        return switch (array) {
            case byte[] a -> a.clone();
            case short[] a -> a.clone();
            case int[] a -> a.clone();
            case long[] a -> a.clone();
            case float[] a -> a.clone();
            case double[] a -> a.clone();
            case boolean[] a -> a.clone();
            case String[] a -> a.clone();
            case GgufValue[] a -> a.clone();
            default -> throw new AssertionError(array.getClass());
        };
    }

    /** {@return the value (an array: a copy)} */
    @Override
    public Object value() {
        return type == GgufValueType.ARRAY ? copy(value) : value;
    }

    /** {@return a UINT8 … INT64 value} @throws IllegalArgumentException if out of the type's range */
    public static GgufValue of(GgufValueType integerType, long value) {
        if (!integerType.isInteger()) {
            throw new IllegalArgumentException("integerType: " + integerType + " is not an integer type");
        }
        return new GgufValue(integerType, null, value);
    }

    /** {@return a UINT32 value} */
    public static GgufValue uint32(long value) {
        return of(GgufValueType.UINT32, value);
    }

    /** {@return an INT32 value} */
    public static GgufValue int32(int value) {
        return of(GgufValueType.INT32, value);
    }

    /** {@return a FLOAT32 value} */
    public static GgufValue float32(float value) {
        return new GgufValue(GgufValueType.FLOAT32, null, value);
    }

    /** {@return a FLOAT64 value} */
    public static GgufValue float64(double value) {
        return new GgufValue(GgufValueType.FLOAT64, null, value);
    }

    /** {@return a BOOL value} */
    public static GgufValue bool(boolean value) {
        return new GgufValue(GgufValueType.BOOL, null, value);
    }

    /** {@return a STRING value} */
    public static GgufValue string(String value) {
        return new GgufValue(GgufValueType.STRING, null, value);
    }

    /** {@return an ARRAY of {@code elementType}; {@code values} has the class the table gives} */
    public static GgufValue array(GgufValueType elementType, Object values) {
        return new GgufValue(GgufValueType.ARRAY, elementType, values);
    }

    /** {@return the integer value} @throws IllegalStateException if this is not an integer */
    public long asLong() {
        if (!type.isInteger()) {
            throw new IllegalStateException("a " + type + " is not an integer");
        }
        return (Long) value;
    }

    /** {@return the string value} @throws IllegalStateException if this is not a STRING */
    public String asString() {
        if (type != GgufValueType.STRING) {
            throw new IllegalStateException("a " + type + " is not a STRING");
        }
        return (String) value;
    }

    /** {@return the number of items of an ARRAY} @throws IllegalStateException if this is not an ARRAY */
    public int length() {
        if (type != GgufValueType.ARRAY) {
            throw new IllegalStateException("a " + type + " is not an ARRAY");
        }
        return java.lang.reflect.Array.getLength(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GgufValue v && type == v.type && elementType == v.elementType
                && Objects.deepEquals(value, v.value);   // floats compare by bits (NaN equals NaN, 0.0 not -0.0)
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, elementType, Arrays.deepHashCode(new Object[] {value}));
    }

    /** {@return the value as text, an array cut after {@code maxItems} items (strings after 60 characters)} */
    public String summary(int maxItems) {
        if (type == GgufValueType.STRING) {
            return quote((String) value);
        }
        if (type == GgufValueType.UINT64 && (Long) value < 0) {
            return Long.toUnsignedString((Long) value);
        }
        if (type != GgufValueType.ARRAY) {
            return String.valueOf(value);
        }
        int n = length();
        StringJoiner j = new StringJoiner(", ", elementType.name().toLowerCase(java.util.Locale.ROOT) + "[" + n + "] [", "]");
        for (int i = 0; i < Math.min(n, maxItems); i++) {
            Object item = java.lang.reflect.Array.get(value, i);
            j.add(switch (item) {
                case String s -> quote(s);
                case GgufValue v -> v.summary(maxItems);
                case Byte b when elementType == GgufValueType.UINT8 -> String.valueOf(Byte.toUnsignedInt(b));
                case Short s when elementType == GgufValueType.UINT16 -> String.valueOf(Short.toUnsignedInt(s));
                case Integer x when elementType == GgufValueType.UINT32 -> Integer.toUnsignedString(x);
                case Long x when elementType == GgufValueType.UINT64 -> Long.toUnsignedString(x);
                default -> String.valueOf(item);
            });
        }
        if (n > maxItems) {
            j.add("… " + (n - maxItems) + " more");
        }
        return j.toString();
    }

    private static String quote(String s) {
        String cut = s.length() > 60 ? s.substring(0, 60) + "…" : s;
        StringBuilder b = new StringBuilder("\"");
        cut.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                b.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7F) {
                b.append(String.format("\\x%02x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }

    @Override
    public String toString() {
        return type + (elementType == null ? "" : "<" + elementType + ">") + " " + summary(16);
    }
}
