package dev.tegula.core;

/**
 * An XLA shape: an array ({@link ArrayShape}), a tuple of shapes ({@link TupleShape}), a token
 * ({@link TokenShape}), an opaque value ({@link OpaqueShape}) or a buffer wrapping one array
 * ({@link BufferShape}).
 *
 * <p>Every shape is immutable and thread-safe. {@link #toString()} is XLA's canonical text with
 * layouts ({@code ShapeUtil::HumanStringWithLayout}), and {@link #parse(String)} reads it back, so
 * {@code Shape.parse(s.toString()).equals(s)} for every valid shape.
 *
 * {@snippet :
 * Shape s = Shape.parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
 * ArrayShape a = (ArrayShape) s;
 * long slot = a.linearIndex(3, 0, 17, 300);   // 63178841
 * }
 */
public sealed interface Shape permits ArrayShape, TupleShape, TokenShape, OpaqueShape, BufferShape {

    /**
     * The deepest nesting of tuples and buffers that {@link #parse} and {@link TupleShape#of} accept
     * (64, the cap of the JSON and {@code .npy} header readers too). Deeper text is refused with a
     * {@link ShapeParseException} at the offset of the first level too many, never a stack overflow.
     */
    int MAX_NESTING_DEPTH = 64;

    /**
     * Parses the HLO text form of a shape and validates it in {@link Validation#STRICT} mode.
     *
     * @param text e.g. {@code "f32[3,5]{1,0:T(2,2)}"}, {@code "(f32[2], token[])"}
     * @return the shape; arrays without a layout get the default (row-major) layout, as XLA's parser does
     * @throws ShapeParseException      if the text is not a shape (with the character offset and what was expected)
     * @throws InvalidShapeException    if the text is a shape that fails validation (naming the field and value,
     *                                  with the character offset of the part at fault)
     */
    static Shape parse(String text) {
        return ShapeParser.parse(text, Validation.STRICT);
    }

    /**
     * Parses the HLO text form of a shape and validates it at the given level. With
     * {@link Validation#NONE} this accepts what XLA's parser accepts (for example
     * {@code f32[2,3]{1,1}}, which XLA rejects only later, in its verifier); index math and sizes
     * of such a shape then throw until it is valid.
     *
     * @throws ShapeParseException      if the text is not a shape
     * @throws IllegalArgumentException if the shape fails validation at {@code level}
     */
    static Shape parse(String text, Validation level) {
        return ShapeParser.parse(text, level);
    }

    /** {@return XLA's canonical text of this shape with layouts, e.g. {@code f32[123,456]{1,0}}} */
    @Override
    String toString();

    /** {@return XLA's text of this shape without layouts ({@code ShapeUtil::HumanString}), e.g. {@code f32[123,456]}} */
    String toStringWithoutLayout();

    /**
     * {@return XLA's {@code ByteSizeOf} with 8-byte pointers} Arrays: logical bytes without tile padding
     * ({@link ArrayShape#byteSize()}); token: 0; opaque: 8; tuple: 8 per element (its index table
     * only); buffer: its array's.
     */
    long byteSize();

    /** {@return true for array shapes} */
    default boolean isArray() {
        return this instanceof ArrayShape;
    }

    /** {@return true for tuple shapes} */
    default boolean isTuple() {
        return this instanceof TupleShape;
    }
}
