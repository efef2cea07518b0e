package dev.tegula.io.gguf;

/** The value types of GGUF metadata ({@code gguf_metadata_value_type}), with their ids. */
public enum GgufValueType {
    UINT8(0, 1), INT8(1, 1), UINT16(2, 2), INT16(3, 2), UINT32(4, 4), INT32(5, 4), FLOAT32(6, 4), BOOL(7, 1),
    STRING(8, 8), ARRAY(9, 12), UINT64(10, 8), INT64(11, 8), FLOAT64(12, 8);

    private final int id;
    private final int minBytes;

    GgufValueType(int id, int minBytes) {
        this.id = id;
        this.minBytes = minBytes;
    }

    /** {@return the type's number in the file} */
    public int id() {
        return id;
    }

    /** {@return the fewest bytes one value of this type takes in a file (a string's or array's length fields)} */
    int minBytes() {
        return minBytes;
    }

    /** {@return true for the eight integer types} */
    public boolean isInteger() {
        return this != FLOAT32 && this != FLOAT64 && this != BOOL && this != STRING && this != ARRAY;
    }

    /** {@return the type with this id, or null} */
    public static GgufValueType ofId(long id) {
        for (GgufValueType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return null;
    }
}
