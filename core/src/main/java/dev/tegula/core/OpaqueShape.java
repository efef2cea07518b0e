package dev.tegula.core;

/** The opaque shape, written {@code opaque[]}: a pointer-sized value XLA does not look into. A singleton. */
public final class OpaqueShape implements Shape {
    /** The one opaque shape. */
    public static final OpaqueShape INSTANCE = new OpaqueShape();

    /** Size of a pointer in bytes, which XLA reports as the byte size of an opaque value. */
    public static final long POINTER_SIZE = 8;

    private OpaqueShape() {
    }

    /** {@return {@code opaque[]}} */
    @Override
    public String toString() {
        return "opaque[]";
    }

    @Override
    public String toStringWithoutLayout() {
        return "opaque[]";
    }

    /** {@return the pointer size, 8} */
    @Override
    public long byteSize() {
        return POINTER_SIZE;
    }
}
