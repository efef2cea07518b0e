package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.CarryFormula;
import dev.tegula.core.ElementType;
import dev.tegula.core.internal.IndexErrors;
import java.util.Arrays;

/**
 * Binds an {@link Array} to its typed accessor ({@link FloatAccessor}, {@link DoubleAccessor}, ...,
 * written from one template at build time) and words their errors. The accessors take values (the
 * segment, the slot offset, the dimensions, the {@link CarryFormula}, the codec's tables); this is the
 * one place that reads them from the array. Stateless.
 */
final class Accessors {
    private Accessors() {
    }

    /**
     * {@return the accessor of {@code a}'s element type, or null where the type has none, the memory
     * is not host-accessible or the layout has no carry formula (rank 0 or above 4, tiles that are
     * not powers of two)} {@link Array} keeps it, so that its own typed accessors and its
     * {@code *Accessor()} methods run on this one object.
     */
    static Object of(Array a) {
        CarryFormula f = a.carryFormula;
        if (f == null || !a.isHostAccessible()) {
            return null;
        }
        ElementType t = a.type;
        long bits = a.slotBits;
        boolean ro = a.isReadOnly();
        if (FloatAccessor.accepts(t, bits)) {
            return new FloatAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (DoubleAccessor.accepts(t, bits)) {
            return new DoubleAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (LongAccessor.accepts(t, bits)) {
            return new LongAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (IntAccessor.accepts(t, bits)) {
            return new IntAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (ShortAccessor.accepts(t, bits)) {
            return new ShortAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (ByteAccessor.accepts(t, bits)) {
            return new ByteAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (UnsignedByteAccessor.accepts(t, bits)) {
            return new UnsignedByteAccessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (BFloat16Accessor.accepts(t, bits)) {
            return new BFloat16Accessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (Float16Accessor.accepts(t, bits)) {
            return new Float16Accessor(a, a.segment, a.slotOffset, a.dims, f, ro);
        } else if (Float8Accessor.accepts(t, bits)) {
            return new Float8Accessor(a, a.segment, a.slotOffset, a.dims, f, ro,
                    ElementIO.smallFloats(t), ElementIO.codeTable(t));
        }
        return null;
    }

    /**
     * {@return why {@code a} has no accessor of the class that {@code method} returns} An
     * {@link IllegalArgumentException} for another element type, rank or tiling (naming the shape and
     * what the accessor takes), the {@link IllegalStateException} of {@link Array} for memory the host
     * cannot address.
     *
     * @param accepted whether the element type and slot width are the accessor's
     * @param types    the element types the accessor takes, for the message
     */
    static RuntimeException refused(Array a, String method, boolean accepted, String types) {
        if (!accepted) {
            return new IllegalArgumentException(method + ": " + a.shape + " is not " + types + " in slots of its"
                    + " width; use the typed getters and setters of Array (they convert), or the bulk methods");
        }
        if (!a.isHostAccessible()) {
            return Array.notHostAccessible(a.shape, a.provider);
        }
        int rank = a.dims.length;
        return new IllegalArgumentException(method + ": " + a.shape + " is of rank " + rank
                + (rank < 1 || rank > 4 ? " (ranks 1 to 4 have accessors)" : " with tiles that are not powers of two")
                + "; use the typed getters and setters of Array, or walk it with Runs");
    }

    /** {@return the exception of an index with the wrong number of coordinates, as {@link Array}'s accessors word it} */
    static IndexOutOfBoundsException wrongRank(ArrayShape shape, long... index) {
        return IndexErrors.rankMismatch(index, shape);
    }

    /** {@return the exception of an index out of bounds, as {@link Array}'s accessors word it} */
    static IndexOutOfBoundsException outOfBounds(ArrayShape shape, long... index) {
        return new IndexOutOfBoundsException("index " + Arrays.toString(index) + " is out of bounds for "
                + shape.toStringWithoutLayout());
    }

    /** {@return the exception of a write to a read-only array, as {@link Array} words it} */
    static UnsupportedOperationException readOnly(ArrayShape shape) {
        return new UnsupportedOperationException("array is read-only: " + shape);
    }
}
