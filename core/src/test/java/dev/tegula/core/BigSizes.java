package dev.tegula.core;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffer sizes of spec section 7 in {@link BigInteger}, so that nothing can overflow: the fuzz
 * targets compare {@link ArrayShape#slotCount()} and {@link ArrayShape#bufferSize()} with these to
 * prove that sizes never wrap silently (a shape whose true size does not fit a {@code long} must be
 * refused). Written from the spec, like {@link ReferenceIndex}, sharing no code with {@link IndexPlan}.
 */
final class BigSizes {
    static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private BigSizes() {
    }

    /** {@return the slots of the buffer: product of the final (tiled or padded) sizes, rounded up to L(n) when tiled} */
    static BigInteger slotCount(ArrayShape s) {
        Layout l = s.layout();
        long[] d = l.hasPaddedDimensions() ? l.paddedDimensions() : s.dimensions();
        int[] m = l.minorToMajor();
        List<BigInteger> p = new ArrayList<>();
        for (int k = m.length - 1; k >= 0; k--) {
            p.add(BigInteger.valueOf(d[m[k]]));
        }
        if (!l.isTiled()) {
            return product(p);
        }
        for (Tile tile : l.tiles()) {
            long[] t = tile.dimensions();
            while (p.size() < t.length) {
                p.add(0, BigInteger.ONE);
            }
            int start = p.size() - t.length;
            List<BigInteger> next = new ArrayList<>(p.subList(0, start));
            List<BigInteger> inner = new ArrayList<>();
            BigInteger acc = BigInteger.ONE;
            for (int i = 0; i < t.length; i++) {
                acc = acc.multiply(p.get(start + i));
                if (t[i] == Tile.COMBINE) {
                    continue;
                }
                BigInteger ti = BigInteger.valueOf(t[i]);
                next.add(ceilDiv(acc, ti));
                inner.add(ti);
                acc = BigInteger.ONE;
            }
            next.addAll(inner);
            p = next;
        }
        BigInteger align = BigInteger.valueOf(l.tailPaddingAlignment());
        return ceilDiv(product(p), align).multiply(align);
    }

    /** {@return the bytes of {@code slots} slots: {@code ceil(slots*E/8)} with E(n), else slots times the byte width} */
    static BigInteger bytes(ArrayShape s, BigInteger slots) {
        long e = s.layout().elementSizeInBits();
        return e != 0 ? ceilDiv(slots.multiply(BigInteger.valueOf(e)), BigInteger.valueOf(8))
                : slots.multiply(BigInteger.valueOf(s.elementType().byteWidth()));
    }

    /** {@return the logical element count (bounds for dynamic dimensions)} */
    static BigInteger elementCount(ArrayShape s) {
        BigInteger n = BigInteger.ONE;
        for (long d : s.dimensions()) {
            n = n.multiply(BigInteger.valueOf(d));
        }
        return n;
    }

    static boolean fitsLong(BigInteger v) {
        return v.signum() >= 0 && v.compareTo(LONG_MAX) <= 0;
    }

    private static BigInteger product(List<BigInteger> p) {
        BigInteger n = BigInteger.ONE;
        for (BigInteger v : p) {
            n = n.multiply(v);
        }
        return n;
    }

    private static BigInteger ceilDiv(BigInteger a, BigInteger b) {
        return a.add(b).subtract(BigInteger.ONE).divide(b);
    }
}
