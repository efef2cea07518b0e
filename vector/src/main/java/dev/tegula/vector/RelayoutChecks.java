package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The argument checks of the relayout engine, shared by {@link Relayout}, {@link RelayoutPlan} and
 * {@link PlanCache}: each throws the exception the public contract names, with the field and its
 * value. Stateless and thread-safe; depends on nothing else in this package.
 */
final class RelayoutChecks {
    private RelayoutChecks() {
    }

    /**
     * Checks that a relayout between these shapes is defined.
     *
     * @throws IllegalArgumentException if the dimensions differ, complex meets real, or a dimension
     *                                  is unbounded
     */
    static void checkCompatible(ArrayShape from, ArrayShape to) {
        if (!Arrays.equals(from.dimensions(), to.dimensions())) {
            throw new IllegalArgumentException("dimensions: source " + from.toStringWithoutLayout()
                    + " and destination " + to.toStringWithoutLayout() + " differ");
        }
        if (from.elementType().isComplex() != to.elementType().isComplex()) {
            throw new IllegalArgumentException("elementType: cannot convert " + from.elementType() + " to "
                    + to.elementType() + " (complex and real)");
        }
        if (!from.isStaticOrBounded() || !to.isStaticOrBounded()) {
            throw new IllegalArgumentException("dimensions: unbounded dynamic dimensions cannot be relayouted");
        }
    }

    /**
     * Checks that both arrays are in host memory and the destination is writable.
     *
     * @throws IllegalStateException         if an array is not host-addressable
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    static void checkArrays(Array src, Array dst) {
        if (!src.isHostAccessible()) {
            throw new IllegalStateException("src: memory space S(" + src.shape().layout().memorySpace()
                    + ") is not host-addressable; copy it to host memory through its provider first");
        }
        if (!dst.isHostAccessible()) {
            throw new IllegalStateException("dst: memory space S(" + dst.shape().layout().memorySpace()
                    + ") is not host-addressable");
        }
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination array is read-only");
        }
    }

    /** @throws IllegalArgumentException if {@code seg} has fewer than {@code need} bytes */
    static void checkSize(String name, MemorySegment seg, long need) {
        if (seg.byteSize() < need) {
            throw new IllegalArgumentException(name + ": segment has " + seg.byteSize() + " bytes, the layout needs "
                    + need);
        }
    }
}
