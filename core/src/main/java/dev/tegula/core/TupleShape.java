package dev.tegula.core;

import java.util.List;
import java.util.Objects;

/**
 * An ordered tuple of shapes, written {@code (f32[2]{0}, token[])}; may be empty ({@code ()})
 * and nested. Immutable.
 */
public final class TupleShape implements Shape {
    private final List<Shape> elements;

    private TupleShape(List<Shape> elements) {
        this.elements = elements;
    }

    /**
     * {@return a tuple of these shapes}
     *
     * @throws NullPointerException if an element is null
     */
    public static TupleShape of(Shape... elements) {
        return new TupleShape(List.of(elements));
    }

    /** {@return a tuple of these shapes} */
    public static TupleShape of(List<? extends Shape> elements) {
        return new TupleShape(List.copyOf(elements));
    }

    /** {@return the elements (unmodifiable)} */
    public List<Shape> elements() {
        return elements;
    }

    /** {@return element {@code i}} */
    public Shape element(int i) {
        return elements.get(i);
    }

    /** {@return the number of elements} */
    public int size() {
        return elements.size();
    }

    /** {@return 8 bytes (a pointer) per element: XLA's size of a tuple's index table} */
    @Override
    public long byteSize() {
        return Math.multiplyExact(OpaqueShape.POINTER_SIZE, (long) elements.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TupleShape t && elements.equals(t.elements);
    }

    @Override
    public int hashCode() {
        return Objects.hash(elements);
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
