package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Untiled rank 1.
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class Strided1 extends Addressing {
    private final long d0;
    private final long s0;

    public Strided1(ArrayShape shape, long[] dims, long[] s) {
        super(shape);
        d0 = dims[0];
        s0 = s[0];
    }

    @Override
    public long slot(long... index) {
        if (index.length != 1) {
            throw oob(index);
        }
        return slot(index[0]);
    }

    @Override
    public long slot(long i) {
        if (out(i, d0)) {
            throw oob(i);
        }
        return i * s0;
    }
}
