package dev.tegula.core.internal;

import dev.tegula.core.ArrayShape;
import java.util.Arrays;

/**
 * The one wording of an index whose rank is not the shape's, for core's address calculators and
 * ffm's arrays alike. Stateless.
 */
public final class IndexErrors {
    private IndexErrors() {
    }

    /** {@return "index [i, j, k] has 3 coordinates, but f32[3,4] has rank 2"} */
    public static IndexOutOfBoundsException rankMismatch(long[] index, ArrayShape shape) {
        return new IndexOutOfBoundsException("index " + Arrays.toString(index) + " has " + index.length
                + " coordinates, but " + shape.toStringWithoutLayout() + " has rank " + shape.rank());
    }
}
