package dev.tegula.vector;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * Transposes of 2- and 4-byte elements with one narrow side: {@code n} rows of a few elements that
 * lie next to each other, too short for the square tiles of {@link TransposeKernels} (which write
 * whole 64-byte lines of each destination row and read {@code T} source rows of at least {@code T}
 * elements). Two shapes:
 * <ul>
 *   <li><em>interleave</em>: {@code n} source rows, each long, into one destination run where the
 *       rows' elements alternate: {@code dst[dO + i·n + j] = src[so + i + j·sJ]} (channels-first to
 *       channels-last, planar to interleaved);</li>
 *   <li><em>deinterleave</em>: the reverse, one source run of alternating elements into {@code n}
 *       long destination rows: {@code dst[dO + i·tI + j] = src[so + i + j·n]}.</li>
 * </ul>
 * Both sides are read and written front to back, one vector of {@code L} lanes (the preferred
 * species) at a time: an interleave loads {@code L} elements of each source row and writes {@code n}
 * whole vectors of the run; output vector {@code k} takes, for each source row, the lanes that row
 * contributes (one permute, {@code selectFrom}, and one blend under a constant mask per row). A
 * deinterleave is the same with the roles of rows and vectors exchanged. The permutes' lane indexes
 * and masks depend only on {@code n} and the element size, and are made once per {@code n}.
 * Remainders (the last fewer than {@code L} elements of each row) go element by element.
 *
 * <p>Stateless apart from those tables (immutable once made) and thread-safe.
 */
final class NarrowKernels {
    private NarrowKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;

    /** The interleave and deinterleave tables of 4-byte elements by {@code n}, made on first use. */
    private static final Table[] INT_TABLES = new Table[INTS.length()];
    /** Likewise for 2-byte elements. */
    private static final Table[] SHORT_TABLES = new Table[SHORTS.length()];

    /**
     * The permutes of one {@code n} and lane count {@code L}, for output vector {@code o} and input
     * vector {@code x} at {@code (o·n + x)}: the lane indexes into input {@code x} (from
     * {@code (o·n + x)·L}, any valid index in lanes the input does not fill) and, as a bit per lane,
     * the lanes of output {@code o} that input {@code x} fills.
     */
    record Table(int[] interleaveIndex, long[] interleaveMask, int[] deinterleaveIndex,
                         long[] deinterleaveMask, short[] interleaveShortIndex, short[] deinterleaveShortIndex) {
    }

    /**
     * {@return whether this kernel takes a transpose of {@code b}-byte elements whose narrow side has
     * {@code n} elements} 2 to the lane count less one (4-byte elements: 15 with 512-bit vectors, 7
     * with 256-bit ones; 2-byte elements twice that); false where the Vector API paths are off.
     */
    static boolean applies(int b, long n) {
        int lanes = b == 4 ? INTS.length() : b == 2 ? SHORTS.length() : 0;
        return Kernels.VECTOR && n >= 2 && n < lanes;
    }

    /**
     * {@code dst[dO + i·n + j] = src[so + i + j·sJ]} for {@code i < nI}, {@code j < n} (element units):
     * {@code n} source rows {@code sJ} apart interleaved into one destination run.
     */
    static void interleave(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, int b, long nI, int n) {
        Table t = table(b, n);
        if (b == 4) {
            interleaveInts(src, so, sJ, dst, dO, nI, n, t);
        } else {
            interleaveShorts(src, so, sJ, dst, dO, nI, n, t);
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = src[so + i + j·n]} for {@code i < n}, {@code j < nJ} (element units):
     * one source run of {@code n} alternating rows split into {@code n} destination rows {@code tI}
     * apart.
     */
    static void deinterleave(MemorySegment src, long so, MemorySegment dst, long dO, long tI, int b, int n, long nJ) {
        Table t = table(b, n);
        if (b == 4) {
            deinterleaveInts(src, so, dst, dO, tI, n, nJ, t);
        } else {
            deinterleaveShorts(src, so, dst, dO, tI, n, nJ, t);
        }
    }

    private static void interleaveInts(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI, int n,
                                       Table t) {
        int lanes = INTS.length();
        long i = 0;
        for (; i + lanes <= nI; i += lanes) {
            long out = (dO + i * n) * 4;
            for (int o = 0; o < n; o++) {
                IntVector v = IntVector.zero(INTS);
                for (int x = 0; x < n; x++) {
                    int at = o * n + x;
                    IntVector row = IntVector.fromMemorySegment(INTS, src, (so + i + x * sJ) * 4, NATIVE);
                    IntVector index = IntVector.fromArray(INTS, t.interleaveIndex(), at * lanes);
                    v = v.blend(index.selectFrom(row), VectorMask.fromLong(INTS, t.interleaveMask()[at]));
                }
                v.intoMemorySegment(dst, out + (long) o * lanes * 4, NATIVE);
            }
        }
        for (; i < nI; i++) {
            Kernels.stridedLine(src, so + i, sJ, dst, dO + i * n, 1, n, 4);
        }
    }

    private static void interleaveShorts(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI,
                                         int n, Table t) {
        int lanes = SHORTS.length();
        long i = 0;
        for (; i + lanes <= nI; i += lanes) {
            long out = (dO + i * n) * 2;
            for (int o = 0; o < n; o++) {
                ShortVector v = ShortVector.zero(SHORTS);
                for (int x = 0; x < n; x++) {
                    int at = o * n + x;
                    ShortVector row = ShortVector.fromMemorySegment(SHORTS, src, (so + i + x * sJ) * 2, NATIVE);
                    ShortVector index = ShortVector.fromArray(SHORTS, t.interleaveShortIndex(), at * lanes);
                    v = v.blend(index.selectFrom(row), VectorMask.fromLong(SHORTS, t.interleaveMask()[at]));
                }
                v.intoMemorySegment(dst, out + (long) o * lanes * 2, NATIVE);
            }
        }
        for (; i < nI; i++) {
            Kernels.stridedLine(src, so + i, sJ, dst, dO + i * n, 1, n, 2);
        }
    }

    private static void deinterleaveInts(MemorySegment src, long so, MemorySegment dst, long dO, long tI, int n,
                                         long nJ, Table t) {
        int lanes = INTS.length();
        long j = 0;
        for (; j + lanes <= nJ; j += lanes) {
            long in = (so + j * n) * 4;
            for (int o = 0; o < n; o++) {
                IntVector v = IntVector.zero(INTS);
                for (int x = 0; x < n; x++) {
                    int at = o * n + x;
                    IntVector part = IntVector.fromMemorySegment(INTS, src, in + (long) x * lanes * 4, NATIVE);
                    IntVector index = IntVector.fromArray(INTS, t.deinterleaveIndex(), at * lanes);
                    v = v.blend(index.selectFrom(part), VectorMask.fromLong(INTS, t.deinterleaveMask()[at]));
                }
                v.intoMemorySegment(dst, (dO + o * tI + j) * 4, NATIVE);
            }
        }
        for (int o = 0; o < n; o++) {
            Kernels.stridedLine(src, so + o + j * n, n, dst, dO + o * tI + j, 1, nJ - j, 4);
        }
    }

    private static void deinterleaveShorts(MemorySegment src, long so, MemorySegment dst, long dO, long tI, int n,
                                           long nJ, Table t) {
        int lanes = SHORTS.length();
        long j = 0;
        for (; j + lanes <= nJ; j += lanes) {
            long in = (so + j * n) * 2;
            for (int o = 0; o < n; o++) {
                ShortVector v = ShortVector.zero(SHORTS);
                for (int x = 0; x < n; x++) {
                    int at = o * n + x;
                    ShortVector part = ShortVector.fromMemorySegment(SHORTS, src, in + (long) x * lanes * 2, NATIVE);
                    ShortVector index = ShortVector.fromArray(SHORTS, t.deinterleaveShortIndex(), at * lanes);
                    v = v.blend(index.selectFrom(part), VectorMask.fromLong(SHORTS, t.deinterleaveMask()[at]));
                }
                v.intoMemorySegment(dst, (dO + o * tI + j) * 2, NATIVE);
            }
        }
        for (int o = 0; o < n; o++) {
            Kernels.stridedLine(src, so + o + j * n, n, dst, dO + o * tI + j, 1, nJ - j, 2);
        }
    }

    /** {@return the tables of {@code n} for {@code b}-byte elements, made on first use} */
    private static Table table(int b, int n) {
        Table[] tables = b == 4 ? INT_TABLES : SHORT_TABLES;
        Table t = tables[n];
        if (t == null) {
            t = make(b == 4 ? INTS.length() : SHORTS.length(), n);
            synchronized (tables) {
                tables[n] = t;   // an immutable table: two threads making it make the same one
            }
        }
        return t;
    }

    /**
     * {@return the tables of {@code n} rows and {@code lanes} lanes} Interleave: element {@code e} of
     * the run (output {@code e / L}, lane {@code e % L}) is source row {@code e % n}'s element
     * {@code e / n} of the chunk. Deinterleave: lane {@code l} of output row {@code o} is element
     * {@code e = l·n + o} of the run: input vector {@code e / L}, lane {@code e % L}.
     */
    static Table make(int lanes, int n) {
        int[] iIndex = new int[n * n * lanes];
        long[] iMask = new long[n * n];
        int[] dIndex = new int[n * n * lanes];
        long[] dMask = new long[n * n];
        for (int o = 0; o < n; o++) {
            for (int l = 0; l < lanes; l++) {
                int e = o * lanes + l;
                int row = e % n;
                iIndex[(o * n + row) * lanes + l] = e / n;
                iMask[o * n + row] |= 1L << l;
                int d = l * n + o;
                int in = d / lanes;
                dIndex[(o * n + in) * lanes + l] = d % lanes;
                dMask[o * n + in] |= 1L << l;
            }
        }
        short[] iShort = new short[iIndex.length];
        short[] dShort = new short[dIndex.length];
        for (int k = 0; k < iIndex.length; k++) {
            iShort[k] = (short) iIndex[k];
            dShort[k] = (short) dIndex[k];
        }
        return new Table(iIndex, iMask, dIndex, dMask, iShort, dShort);
    }
}
