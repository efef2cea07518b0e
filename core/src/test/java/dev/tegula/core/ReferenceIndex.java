package dev.tegula.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A slow, plain re-implementation of the index mapping of spec section 7, written from the spec
 * text and sharing no code with {@link IndexPlan}: the test oracle for
 * {@link ArrayShape#linearIndex(long...)}, {@link ArrayShape#slotCount()} and
 * {@link ArrayShape#bufferSize()}.
 *
 * <p>Tegula's documented decision for a tile longer than the current rank that also holds
 * {@code *}: first prepend the size-1 dimensions, then merge the {@code *} runs (docs/validation.md).
 */
final class ReferenceIndex {
    private ReferenceIndex() {
    }

    /** The logical sizes the index math works on: the padded sizes for the 2017 layout, else the dims. */
    private static long[] sizes(ArrayShape s) {
        Layout l = s.layout();
        return l.hasPaddedDimensions() ? l.paddedDimensions() : s.dimensions();
    }

    /** Untiled formula: {@code lin = sum_k e[m[k]] * prod_{j<k} d[m[j]]}. */
    static long untiledLinear(ArrayShape s, long[] e) {
        long[] d = sizes(s);
        int[] m = s.layout().minorToMajor();
        long lin = 0;
        long stride = 1;
        for (int k = 0; k < m.length; k++) {
            lin += e[m[k]] * stride;
            stride *= d[m[k]];
        }
        return lin;
    }

    /** The general algorithm: returns {final sizes..., index...} as two lists. */
    private static List<List<Long>> tiled(ArrayShape s, long[] e) {
        long[] d = sizes(s);
        int[] m = s.layout().minorToMajor();
        int n = m.length;
        List<Long> p = new ArrayList<>();
        List<Long> idx = new ArrayList<>();
        for (int k = n - 1; k >= 0; k--) {      // physical major -> minor
            p.add(d[m[k]]);
            idx.add(e[m[k]]);
        }
        for (Tile tile : s.layout().tiles()) {
            long[] t = tile.dimensions();
            while (p.size() < t.length) {       // a tile longer than the dims: leading 1s
                p.add(0, 1L);
                idx.add(0, 0L);
            }
            int start = p.size() - t.length;
            List<Long> np = new ArrayList<>(p.subList(0, start));
            List<Long> ni = new ArrayList<>(idx.subList(0, start));
            List<Long> outerP = new ArrayList<>();
            List<Long> outerI = new ArrayList<>();
            List<Long> innerP = new ArrayList<>();
            List<Long> innerI = new ArrayList<>();
            long accSize = 1;
            long accIdx = 0;
            for (int i = 0; i < t.length; i++) {
                // '*' merges this dim into the next more-minor one: size d_i*d_{i+1}, index e_i*d_{i+1}+e_{i+1}
                accIdx = accIdx * p.get(start + i) + idx.get(start + i);
                accSize = accSize * p.get(start + i);
                if (t[i] == Tile.COMBINE) {
                    continue;
                }
                outerP.add((accSize + t[i] - 1) / t[i]);
                outerI.add(accIdx / t[i]);
                innerP.add(t[i]);
                innerI.add(accIdx % t[i]);
                accSize = 1;
                accIdx = 0;
            }
            if (accSize != 1 || accIdx != 0) {
                throw new IllegalStateException("trailing '*' has no meaning");
            }
            np.addAll(outerP);
            np.addAll(innerP);
            ni.addAll(outerI);
            ni.addAll(innerI);
            p = np;
            idx = ni;
        }
        return List.of(p, idx);
    }

    /** {@return the slot of index {@code e} by the spec's algorithm} */
    static long linearIndex(ArrayShape s, long[] e) {
        if (!s.layout().isTiled()) {
            return untiledLinear(s, e);
        }
        List<List<Long>> r = tiled(s, e);
        List<Long> p = r.get(0);
        List<Long> idx = r.get(1);
        long lin = 0;
        for (int i = 0; i < p.size(); i++) {    // row-major over the final vectors
            lin = lin * p.get(i) + idx.get(i);
        }
        return lin;
    }

    /** {@return the slots of the buffer: product of the final sizes, rounded up to L(n) when tiled} */
    static long slotCount(ArrayShape s) {
        long n = 1;
        if (!s.layout().isTiled()) {
            for (long d : sizes(s)) {
                n *= d;
            }
            return n;
        }
        for (long d : tiled(s, new long[s.rank()]).get(0)) {
            n *= d;
        }
        long l = s.layout().tailPaddingAlignment();
        return (n + l - 1) / l * l;
    }

    /** {@return bytes of {@code n} slots: {@code ceil(n*E/8)} with E(n), else n times the byte width} */
    static long bytes(ArrayShape s, long n) {
        long e = s.layout().elementSizeInBits();
        return e != 0 ? (n * e + 7) / 8 : n * s.elementType().byteWidth();
    }
}
