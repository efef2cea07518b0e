package dev.tegula.core;

import java.util.List;
import java.util.Objects;

/**
 * An ordered tuple of shapes, written {@code (f32[2]{0}, token[])}; may be empty ({@code ()})
 * and nested. Immutable.
 */
public final class TupleShape implements Shape {
    private final List<Shape> elements;
    /** Tuples and buffers nested in this one, itself included: at most {@link Shape#MAX_NESTING_DEPTH}. */
    private final int depth;

    private TupleShape(List<Shape> elements) {
        int d = 0;
        for (Shape e : elements) {
            d = Math.max(d, depth(e));
        }
        if (d + 1 > MAX_NESTING_DEPTH) {
            throw new IllegalArgumentException("elements: tuples and buffers nested deeper than "
                    + MAX_NESTING_DEPTH + " levels");
        }
        this.elements = elements;
        this.depth = d + 1;
    }

    private static int depth(Shape s) {
        return switch (s) {
            case TupleShape t -> t.depth;
            case BufferShape b -> 1;
            default -> 0;
        };
    }

    /**
     * {@return a tuple of these shapes}
     *
     * @throws NullPointerException     if an element is null
     * @throws IllegalArgumentException if the tuple would nest deeper than {@link Shape#MAX_NESTING_DEPTH}
     */
    public static TupleShape of(Shape... elements) {
        return new TupleShape(List.of(elements));
    }

    /**
     * {@return a tuple of these shapes}
     *
     * @throws IllegalArgumentException if the tuple would nest deeper than {@link Shape#MAX_NESTING_DEPTH}
     */
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
