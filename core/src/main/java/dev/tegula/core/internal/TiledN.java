package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Rank 3 and more with tile {@code (a,b)} (and optionally {@code (c,1)}) on the two most minor
 * physical dimensions; the more major physical dimensions are strided over whole tile grids.
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class TiledN extends Addressing {
    private final long[] dims;
    /** Logical dimension at each physical position. */
    private final int[] physical;
    /** Slot stride of each leading physical position (0..rank-3). */
    private final long[] leadStrides;
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

    public TiledN(ArrayShape shape, long[] dims, long[] physicalSizes, long a, long b, long c) {
        super(shape);
        this.dims = dims;
        int n = dims.length;
        physical = new int[n];
        for (int q = 0; q < n; q++) {
            physical[q] = shape.layout().major(q);
        }
        this.a = a;
        this.b = b;
        this.c = c;
        tilesAcross = Math.ceilDiv(physicalSizes[n - 1], b);
        tileSlots = Math.ceilDiv(a, c) * c * b;
        pow2 = isPowerOfTwo(a) && isPowerOfTwo(b) && isPowerOfTwo(c);   // then tileSlots = max(a,c)·b is one too
        aShift = Long.numberOfTrailingZeros(a);
        bShift = Long.numberOfTrailingZeros(b);
        cShift = Long.numberOfTrailingZeros(c);
        tileShift = Long.numberOfTrailingZeros(tileSlots);
        leadStrides = new long[n - 2];
        long stride = Math.ceilDiv(physicalSizes[n - 2], a) * tilesAcross * tileSlots;
        for (int q = n - 3; q >= 0; q--) {
            leadStrides[q] = stride;
            stride *= physicalSizes[q];
        }
    }

    @Override
    public long slot(long... index) {
        if (index.length != dims.length) {
            throw oob(index);
        }
        for (int d = 0; d < dims.length; d++) {
            if (out(index[d], dims[d])) {
                throw oob(index);
            }
        }
        int n = dims.length;
        long s = 0;
        for (int q = 0; q < n - 2; q++) {
            s += index[physical[q]] * leadStrides[q];
        }
        long r = index[physical[n - 2]];
        long col = index[physical[n - 1]];
        if (pow2) {   // as in Tiled2
            long ri = r & (a - 1);
            return s + (((r >>> aShift) * tilesAcross + (col >>> bShift)) << tileShift)
                    + ((((ri >>> cShift) << bShift) + (col & (b - 1))) << cShift) + (ri & (c - 1));
        }
        long ri = r % a;
        return s + ((r / a) * tilesAcross + col / b) * tileSlots + ((ri / c) * b + col % b) * c + ri % c;
    }
}
