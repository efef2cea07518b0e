package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Untiled rank 2.
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class Strided2 extends Addressing {
    private final long d0;
    private final long d1;
    private final long s0;
    private final long s1;

    public Strided2(ArrayShape shape, long[] dims, long[] s) {
        super(shape);
        d0 = dims[0];
        d1 = dims[1];
        s0 = s[0];
        s1 = s[1];
    }

    @Override
    public long slot(long... index) {
        if (index.length != 2) {
            throw oob(index);
        }
        return slot(index[0], index[1]);
    }

    @Override
    public long slot(long i, long j) {
        if (out(i, d0) || out(j, d1)) {
            throw oob(i, j);
        }
        return i * s0 + j * s1;
    }
}
