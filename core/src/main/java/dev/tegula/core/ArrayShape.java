package dev.tegula.core;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An array shape: element type, dimension sizes (static, bounded-dynamic {@code <=N} or unbounded
 * {@code ?}) and a {@link Layout}. Written {@code bf16[8,128]{1,0:T(8,128)(2,1)}}.
 *
 * <p>Immutable and thread-safe. Shapes built through {@link #of}, {@link #ofDynamic} and
 * {@link #withLayout} are valid in {@link Validation#STRICT} mode. Shapes parsed with a weaker
 * {@link Validation} may be invalid; their sizes and index math throw
 * {@link IllegalArgumentException} until they are made valid.
 *
 * <p>Sizes: {@link #elementCount()} (logical elements), {@link #byteSize()} (XLA's
 * {@code ByteSizeOf}: no tile padding), {@link #slotCount()} (element-sized slots of the buffer,
 * every padding included) and {@link #bufferSize()} (bytes of the buffer). Index math:
 * {@link #linearIndex(long...)} and {@link #multiIndex(long)}. Layout facts: {@link #tileExtent(int)}
 * and {@link #majorDimension()}. Text: {@link #parse(String)} and {@link #toString()}.
 */
public final class ArrayShape implements Shape {
    /** The size stored for an unbounded dynamic dimension ({@code ?}), as in XLA. */
    public static final long UNBOUNDED_SIZE = Long.MIN_VALUE;

    private final ElementType type;
    private final long[] dims;
    private final boolean[] dynamic;
    private final Layout layout;
    private volatile IndexPlan plan;

    private ArrayShape(ElementType type, long[] dims, boolean[] dynamic, Layout layout) {
        this.type = type;
        this.dims = dims;
        this.dynamic = dynamic;
        this.layout = layout;
    }

    /** Builds a shape without validation (parser). Arrays are not copied. */
    static ArrayShape unchecked(ElementType type, long[] dims, boolean[] dynamic, Layout layout) {
        return new ArrayShape(type, dims, dynamic, layout);
    }

    /**
     * {@return an array shape with static dimensions and the default (row-major) layout}
     *
     * @param type an array element type
     * @param dims dimension sizes, each &gt;= 0
     * @throws IllegalArgumentException if the type is not an array type, a size is negative, or the
     *                                  element or byte count overflows a {@code long}
     */
    public static ArrayShape of(ElementType type, long... dims) {
        return ofDynamic(type, dims, new boolean[dims.length]);
    }

    /**
     * {@return an array shape with dynamic dimensions and the default layout} A dynamic dimension
     * with size {@code N >= 0} is bounded ({@code <=N}); one with size {@link #UNBOUNDED_SIZE} is
     * unbounded ({@code ?}).
     *
     * @throws IllegalArgumentException if the arrays differ in length or the shape is invalid
     */
    public static ArrayShape ofDynamic(ElementType type, long[] dims, boolean[] dynamic) {
        Objects.requireNonNull(type, "elementType");
        if (dims.length != dynamic.length) {
            throw new IllegalArgumentException("dynamic: " + dynamic.length + " flags for " + dims.length
                    + " dimensions");
        }
        ArrayShape s = new ArrayShape(type, dims.clone(), dynamic.clone(), Layout.rowMajor(dims.length));
        Validation.STRICT.check(s);
        return s;
    }

    /**
     * Parses the HLO text of an array shape and validates it in {@link Validation#STRICT} mode, as
     * {@link Shape#parse(String)} does, for text that must be an array: {@code ArrayShape.parse("f32[3,5]{1,0:T(2,2)}")}.
     *
     * @param text e.g. {@code "bf16[8,128]{1,0:T(8,128)(2,1)}"}; without a layout, the default (row-major) one
     * @return the array shape
     * @throws ShapeParseException      if the text is not a shape, or is a shape but not an array
     *                                  (a tuple, buffer, token or opaque shape: offset of its first character)
     * @throws InvalidShapeException    if the text is an array shape that fails validation (naming the field and
     *                                  value, with the character offset of the part at fault)
     */
    public static ArrayShape parse(String text) {
        return parse(text, Validation.STRICT);
    }

    /**
     * Like {@link #parse(String)}, validating at {@code level} (see {@link Shape#parse(String, Validation)}).
     *
     * @throws ShapeParseException      if the text is not an array shape
     * @throws IllegalArgumentException if the shape fails validation at {@code level}
     */
    public static ArrayShape parse(String text, Validation level) {
        Shape s = ShapeParser.parse(text, level);
        if (s instanceof ArrayShape a) {
            return a;
        }
        throw ShapeParser.notAnArray(text, s);
    }

    /**
     * {@return this shape with another layout}
     *
     * @throws IllegalArgumentException if the layout does not fit this shape ({@link Validation#STRICT})
     */
    public ArrayShape withLayout(Layout layout) {
        ArrayShape s = new ArrayShape(type, dims, dynamic, Objects.requireNonNull(layout, "layout"));
        Validation.STRICT.check(s);
        return s;
    }

    /** {@return this shape with the default (row-major) layout} */
    public ArrayShape withDefaultLayout() {
        return withLayout(Layout.rowMajor(dims.length));
    }

    /** {@return the element type} */
    public ElementType elementType() {
        return type;
    }

    /** {@return the number of dimensions} */
    public int rank() {
        return dims.length;
    }

    /** {@return the dimension sizes (a copy); the bound for {@code <=N}, {@link #UNBOUNDED_SIZE} for {@code ?}} */
    public long[] dimensions() {
        return dims.clone();
    }

    /** {@return the size of dimension {@code d}} */
    public long dimension(int d) {
        return dims[d];
    }

    /** {@return true if dimension {@code d} is dynamic ({@code <=N} or {@code ?})} */
    public boolean isDynamicDimension(int d) {
        return dynamic[d];
    }

    /** {@return true if dimension {@code d} is unbounded dynamic ({@code ?})} */
    public boolean isUnboundedDimension(int d) {
        return dynamic[d] && dims[d] == UNBOUNDED_SIZE;
    }

    /** {@return true if no dimension is unbounded dynamic ({@code ?}): sizes and index math are defined} */
    public boolean isStaticOrBounded() {
        for (int d = 0; d < dims.length; d++) {
            if (isUnboundedDimension(d)) {
                return false;
            }
        }
        return true;
    }

    /** {@return true if no dimension is dynamic} */
    public boolean isStatic() {
        for (boolean b : dynamic) {
            if (b) {
                return false;
            }
        }
        return true;
    }

    /** {@return the layout} */
    public Layout layout() {
        return layout;
    }

    long[] dimsUnsafe() {
        return dims;
    }

    boolean[] dynamicUnsafe() {
        return dynamic;
    }

    /** The validated index plan; throws if the shape is not STRICT-valid or has {@code ?} dimensions. */
    IndexPlan plan() {
        IndexPlan p = plan;
        if (p == null) {
            Validation.STRICT.check(this);
            p = IndexPlan.of(this);
            plan = p;
        }
        return p;
    }

    // ---- sizes -----------------------------------------------------------------------------------------

    /**
     * {@return the number of logical elements (XLA {@code ElementsIn}; bounds for {@code <=N})}
     *
     * @throws IllegalArgumentException if the shape is invalid or has an unbounded dimension
     */
    public long elementCount() {
        return plan().elementCount;
    }

    /**
     * {@return the bits one slot occupies in the buffer (an element or a padding slot): the layout's
     * {@code E(n)} ({@link Layout#elementSizeInBits()}) if set, else 8 * byte width}
     */
    public long slotBits() {
        return layout.elementSizeInBits != 0 ? layout.elementSizeInBits : 8L * type.byteWidth();
    }

    /**
     * {@return XLA's {@code ByteSizeOf}: logical bytes, {@code ceil(elements * E / 8)} with {@code E(n)},
     * else elements * byte width; no tile padding, tail alignment or legacy padding}
     */
    @Override
    public long byteSize() {
        return plan().byteSize;
    }

    /**
     * {@return the slots of this layout's buffer, every padding included}: the product
     * of the final tiled dimensions (or of the legacy padded dimensions), rounded up to the tail
     * padding alignment when the layout is tiled (XLA ignores {@code L(n)} without tiles, and so does Tegula).
     */
    public long slotCount() {
        return plan().slotCount;
    }

    /** {@return the bytes a buffer in this layout needs, every padding and {@code E(n)} packing included} */
    public long bufferSize() {
        return plan().bufferSize;
    }

    /**
     * {@return XLA's {@code ShapeUtil::ArraySize}, for parity}: like {@link #bufferSize()} but, as XLA
     * does, only the first tile is applied (later tiles are assumed to add no padding) and split
     * dimensions count with their largest split. Equal to {@code bufferSize()} whenever the later
     * tiles divide the earlier ones and there are no splits.
     */
    public long xlaArraySize() {
        return plan().xlaArraySize(this);
    }

    // ---- layout facts ----------------------------------------------------------------------------------

    /**
     * {@return the extent of the layout's first tile along logical dimension {@code dim}}: how many
     * consecutive indices of {@code dim} one tile of {@code tiles().get(0)} spans. XLA lines a tile up
     * with the most minor physical dimensions (a tile longer than the rank covers every dimension, the
     * shape counting as having leading size-1 dimensions), so this is the tile's size at {@code dim}'s
     * physical position, and 1 where the layout is untiled or the tile does not reach {@code dim}.
     * The size is not clipped to the dimension: {@code f32[3,5]{1,0:T(8,128)}} gives 8 and 128.
     *
     * <p>Later tiles do not change the answer (they tile within the first one, spec section 7), nor do
     * {@code L(n)} and {@code E(n)}. Where the first tile combines dimensions ({@code *}), its size is
     * that of their merged index (the more major index times the more minor size plus the more minor
     * index), and is shared out from the most minor of them: each gets the size left, clipped to its
     * own size (a zero size counting as 1), and passes on that size divided by its own, rounded up; the
     * most major of them gets what is left, not clipped. For {@code f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}}
     * the extents are {@code (1,1,2,1,3)}, and for {@code f32[4,2]{1,0:T(*,3)}} they are {@code (2,2)}:
     * a tile of three merged indices spans two rows and two columns.
     *
     * @param dim a logical dimension, {@code 0 <= dim < rank()}
     * @throws IndexOutOfBoundsException if {@code dim} is not a dimension of this shape
     * @throws IllegalArgumentException  if the shape is invalid or has an unbounded dimension
     */
    public long tileExtent(int dim) {
        checkDimension(dim);
        return plan().tileExtent(layout, dim);
    }

    /**
     * {@return the physically most major logical dimension of size greater than 1, or -1 if there is
     * none} (every dimension has size 0 or 1): the first entry of {@code minor_to_major}, read from the
     * major end, whose size is not 0 or 1. Slicing a buffer along it cuts the layout into its largest
     * pieces; for a strided array view, whose layout orders the dimensions by decreasing stride, it is
     * the dimension of the largest stride. Sizes are bounds for {@code <=N}.
     *
     * @throws IllegalArgumentException if the shape is invalid or has an unbounded dimension
     */
    public int majorDimension() {
        plan();
        for (int p = 0; p < dims.length; p++) {
            int d = layout.major(p);
            if (dims[d] > 1) {
                return d;
            }
        }
        return -1;
    }

    private void checkDimension(int dim) {
        if (dim < 0 || dim >= dims.length) {
            throw new IndexOutOfBoundsException("dim: " + dim + " is not a dimension of " + toStringWithoutLayout()
                    + " (rank " + dims.length + ")");
        }
    }

    // ---- index math ------------------------------------------------------------------------------------

    /**
     * {@return the slot that holds the element at {@code index}}: its position, in slots, in the
     * buffer of this layout, tiles and padding included (the general nested-tiling algorithm).
     * {@code linearIndex} is XLA's name for what Tegula calls the element's slot everywhere else
     * ({@link Addressing#slot(long...)}, {@code Array.slot}); the two are the same number.
     *
     * @param index one coordinate per dimension
     * @throws IndexOutOfBoundsException if the index has the wrong length or a coordinate is out of range
     */
    public long linearIndex(long... index) {
        IndexPlan p = plan();
        p.checkIndex(index, this);
        return p.linearIndex(index);
    }

    /**
     * {@return the logical index of the element stored in {@code slot}}
     *
     * @throws IndexOutOfBoundsException if the slot is outside {@code [0, slotCount())} or is a padding slot
     */
    public long[] multiIndex(long slot) {
        IndexPlan p = plan();
        long[] out = new long[dims.length];
        if (slot < 0 || slot >= p.slotCount || !p.multiIndex(slot, out)) {
            throw new IndexOutOfBoundsException("slot " + slot + " of " + this + " holds no element"
                    + (slot < 0 || slot >= p.slotCount ? " (slots are 0.." + (p.slotCount - 1) + ")" : " (padding)"));
        }
        return out;
    }

    /** {@return true if {@code slot} is in range and holds an element, false for padding or out of range} */
    public boolean isElementSlot(long slot) {
        IndexPlan p = plan();
        return slot >= 0 && slot < p.slotCount && p.multiIndex(slot, new long[dims.length]);
    }

    /**
     * Visits every index in memory order for untiled layouts (XLA's {@code ForEachIndex}): the
     * fastest-varying dimension is {@code minor_to_major[0]}. The array passed to the visitor is
     * reused between calls; copy it to keep it.
     */
    public void forEachIndexInLayoutOrder(Consumer<long[]> visitor) {
        int[] order = layout.minorToMajor;
        iterate(order, visitor);
    }

    /** Visits every index in logical row-major order (XLA's {@code BumpIndices}); the array is reused. */
    public void forEachIndex(Consumer<long[]> visitor) {
        iterate(Layout.rowMajor(dims.length).minorToMajor, visitor);
    }

    /**
     * Visits every slot of the buffer that holds an element, in increasing slot order (true memory
     * order, tiles included), passing the element's index; the array is reused.
     */
    public void forEachIndexInMemoryOrder(Consumer<long[]> visitor) {
        IndexPlan p = plan();
        long[] idx = new long[dims.length];
        for (long s = 0; s < p.slotCount; s++) {
            if (p.multiIndex(s, idx)) {
                visitor.accept(idx);
            }
        }
    }

    private void iterate(int[] minorToMajor, Consumer<long[]> visitor) {
        long n = elementCount();
        if (n == 0) {
            return;
        }
        long[] idx = new long[dims.length];
        while (true) {
            visitor.accept(idx);
            int k = 0;
            for (; k < minorToMajor.length; k++) {
                int d = minorToMajor[k];
                if (++idx[d] < dims[d]) {
                    break;
                }
                idx[d] = 0;
            }
            if (k == minorToMajor.length) {
                return;
            }
        }
    }

    // ---- object ----------------------------------------------------------------------------------------

    /** Equal when element type, dimensions, dynamic flags and layout are all equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayShape s && type == s.type && Arrays.equals(dims, s.dims)
                && Arrays.equals(dynamic, s.dynamic) && layout.equals(s.layout);
    }

    /** Equal when element type, dimensions and dynamic flags are equal, whatever the layouts. */
    public boolean equalsIgnoringLayout(ArrayShape s) {
        return type == s.type && Arrays.equals(dims, s.dims) && Arrays.equals(dynamic, s.dynamic);
    }

    @Override
    public int hashCode() {
        return (type.hashCode() * 31 + Arrays.hashCode(dims)) * 31 + layout.hashCode();
    }

    /** {@return the canonical XLA text with layout, e.g. {@code f32[3,5]{1,0:T(2,2)}}; scalars with a plain layout print {@code f32[]}} */
    @Override
    public String toString() {
        return ShapePrinter.print(this, true);
    }

    @Override
    public String toStringWithoutLayout() {
        return ShapePrinter.print(this, false);
    }
}
