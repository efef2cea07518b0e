package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Untiled rank 3.
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class Strided3 extends Addressing {
    private final long d0;
    private final long d1;
    private final long d2;
    private final long s0;
    private final long s1;
    private final long s2;

    public Strided3(ArrayShape shape, long[] dims, long[] s) {
        super(shape);
        d0 = dims[0];
        d1 = dims[1];
        d2 = dims[2];
        s0 = s[0];
        s1 = s[1];
        s2 = s[2];
    }

    @Override
    public long slot(long... index) {
        if (index.length != 3) {
            throw oob(index);
        }
        return slot(index[0], index[1], index[2]);
    }

    @Override
    public long slot(long i, long j, long k) {
        if (out(i, d0) || out(j, d1) || out(k, d2)) {
            throw oob(i, j, k);
        }
        return i * s0 + j * s1 + k * s2;
    }
}
