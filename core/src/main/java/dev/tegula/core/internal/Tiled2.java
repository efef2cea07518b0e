package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Rank 2 with tile {@code (a,b)} on the physical dimensions, optionally followed by {@code (c,1)}:
 * {@code slot = ((r/a)·⌈C/b⌉ + q/b)·⌈a/c⌉·c·b + (((r%a)/c)·b + q%b)·c + (r%a)%c}, where
 * {@code r} is the physically major coordinate and {@code q} the minor one. When {@code a},
 * {@code b} and {@code c} are powers of two, the same formula runs with shifts and masks.
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class Tiled2 extends Addressing {
    private final long d0;
    private final long d1;
    private final boolean swap;
    private final long a;
    private final long b;
    private final long c;
    private final long tilesAcross;
    private final long tileSlots;
    // When a, b and c are powers of two (decided once, here): the same formula with shifts and
    // masks. A long division costs tens of cycles; T(8,128) would otherwise pay for six of them.
    private final boolean pow2;
    private final int aShift;
    private final int bShift;
    private final int cShift;
    private final int tileShift;

    public Tiled2(ArrayShape shape, long[] dims, long[] physicalSizes, long a, long b, long c) {
        super(shape);
        d0 = dims[0];
        d1 = dims[1];
        swap = shape.layout().major(0) != 0;   // logical dim 1 is physically major
        this.a = a;
        this.b = b;
        this.c = c;
        tilesAcross = Math.ceilDiv(physicalSizes[1], b);
        tileSlots = Math.ceilDiv(a, c) * c * b;
        pow2 = isPowerOfTwo(a) && isPowerOfTwo(b) && isPowerOfTwo(c);   // then tileSlots = max(a,c)·b is one too
        aShift = Long.numberOfTrailingZeros(a);
        bShift = Long.numberOfTrailingZeros(b);
        cShift = Long.numberOfTrailingZeros(c);
        tileShift = Long.numberOfTrailingZeros(tileSlots);
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
        long r = swap ? j : i;
        long q = swap ? i : j;
        if (pow2) {   // r, q >= 0 (checked above): x/2^k = x>>>k, x%2^k = x&(2^k-1)
            long ri = r & (a - 1);
            return (((r >>> aShift) * tilesAcross + (q >>> bShift)) << tileShift)
                    + ((((ri >>> cShift) << bShift) + (q & (b - 1))) << cShift) + (ri & (c - 1));
        }
        return divided(r, q);
    }

    /**
     * The formula with divisions, out of line: six long divisions dwarf a call, and keeping their
     * machine code out of {@link #slot(long, long)} keeps callers that inline it small.
     */
    private long divided(long r, long q) {
        long ri = r % a;
        return ((r / a) * tilesAcross + q / b) * tileSlots + ((ri / c) * b + q % b) * c + ri % c;
    }
}
