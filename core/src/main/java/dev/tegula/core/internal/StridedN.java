package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Untiled, any rank (0 and 5+).
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class StridedN extends Addressing {
    private final long[] dims;
    private final long[] strides;

    public StridedN(ArrayShape shape, long[] dims, long[] s) {
        super(shape);
        this.dims = dims;
        strides = s;
    }

    @Override
    public long slot(long... index) {
        if (index.length != dims.length) {
            throw oob(index);
        }
        long s = 0;
        for (int d = 0; d < dims.length; d++) {
            if (out(index[d], dims[d])) {
                throw oob(index);
            }
            s += index[d] * strides[d];
        }
        return s;
    }
}
