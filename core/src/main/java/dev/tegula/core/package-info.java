/**
 * Shapes and layouts in the words of XLA: element types, shapes (array, tuple, token, opaque and
 * buffer), layouts with their tiles, sub-byte packing, padding, split configs and memory space, and
 * the index math that maps an element's index to its place in a buffer. Nothing here touches
 * memory.
 *
 * <p>{@link dev.tegula.core.Shape#parse(String)} reads the XLA text form, such as
 * {@code bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}}, and every shape's {@code toString} writes
 * it back. {@link dev.tegula.core.ArrayShape} pairs an {@link dev.tegula.core.ElementType} and the
 * dimensions with a {@link dev.tegula.core.Layout}: minor-to-major order, {@link dev.tegula.core.Tile}s,
 * element size in bits, memory space. It answers sizes in bytes and the linear index of an element;
 * {@link dev.tegula.core.Addressing} is the same calculation specialised to one layout, for loops,
 * and {@link dev.tegula.core.SlotFormula} writes it as a sum of digit terms, for planners.
 * {@link dev.tegula.core.PaddingValue} is the padding of the 2017 padded layout,
 * {@link dev.tegula.core.SplitConfig} a layout's split of a dimension, and
 * {@link dev.tegula.core.Validation} names how strictly a shape is checked.
 *
 * <p>All types are immutable and may be shared between threads. Sizes, offsets and counts are
 * {@code long} and checked for overflow. Malformed text throws
 * {@link dev.tegula.core.ShapeParseException} naming the character offset; a shape or layout that breaks a rule
 * throws {@link IllegalArgumentException} naming the field and value; an index outside a shape throws
 * {@link IndexOutOfBoundsException}.
 */
package dev.tegula.core;
