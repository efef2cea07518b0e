package dev.tegula.core;

import java.util.Objects;

/** A buffer wrapping exactly one array shape, written {@code b(f32[4]{0})}. Immutable. */
public final class BufferShape implements Shape {
    private final ArrayShape array;

    private BufferShape(ArrayShape array) {
        this.array = array;
    }

    /** {@return a buffer of this array shape} */
    public static BufferShape of(ArrayShape array) {
        return new BufferShape(Objects.requireNonNull(array, "array"));
    }

    /** {@return the wrapped array shape} */
    public ArrayShape array() {
        return array;
    }

    /** {@return the wrapped array's byte size} */
    @Override
    public long byteSize() {
        return array.byteSize();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BufferShape b && array.equals(b.array);
    }

    @Override
    public int hashCode() {
        return 7 * array.hashCode() + 1;
    }

    @Override
    public String toString() {
        return ShapePrinter.print(this, true);
    }

    @Override
    public String toStringWithoutLayout() {
        return ShapePrinter.print(this, false);
    }
}
