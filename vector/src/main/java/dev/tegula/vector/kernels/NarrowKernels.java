package dev.tegula.vector.kernels;

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
public final class NarrowKernels {
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
     * the lanes of output {@code o} that input {@code x} fills. The indexes are {@code int}s for
     * 4-byte elements, or (the {@code short} arrays, the {@code int} ones then null) for 2-byte ones.
     */
    record Table(int[] interleaveIndex, long[] interleaveMask, int[] deinterleaveIndex,
                 long[] deinterleaveMask, short[] interleaveShortIndex, short[] deinterleaveShortIndex) {
        /** {@return this table with its indexes as {@code short}s, for 2-byte elements} */
        Table forShorts() {
            return new Table(null, interleaveMask, null, deinterleaveMask, shorts(interleaveIndex),
                    shorts(deinterleaveIndex));
        }

        private static short[] shorts(int[] index) {
            short[] out = new short[index.length];
            for (int k = 0; k < index.length; k++) {
                out[k] = (short) index[k];
            }
            return out;
        }
    }

    /**
     * {@return whether these kernels take a transpose of {@code b}-byte elements whose narrow side has
     * {@code n} elements} 2 to the lane count less one (4-byte elements: 15 with 512-bit vectors, 7
     * with 256-bit ones; 2-byte elements twice that); false where the Vector API paths are off. The
     * rule of {@link Kernel#INTERLEAVE} and {@link Kernel#DEINTERLEAVE}.
     */
    static boolean takes(int b, long n) {
        int lanes = b == 4 ? INTS.length() : b == 2 ? SHORTS.length() : 0;
        return Tuning.VECTOR && n >= 2 && n < lanes;
    }

    /**
     * {@code dst[dO + i·n + j] = src[so + i + j·sJ]} for {@code i < nI}, {@code j < n} (element units):
     * {@code n} source rows {@code sJ} apart interleaved into one destination run.
     */
    public static void interleave(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, int b, long nI,
                                  int n) {
        KernelTrace.ran(Kernel.INTERLEAVE);
        Table t = table(b, n);
        int lanes = lanes(b);
        long chunks = nI / lanes;
        // chunk c: L elements of each source row (row x at so + c·L + x·sJ) into n vectors of the run
        permute(src, so, sJ, lanes, dst, dO, lanes, (long) n * lanes, chunks, b, n, t.interleaveIndex(),
                t.interleaveShortIndex(), t.interleaveMask());
        for (long i = chunks * lanes; i < nI; i++) {
            CopyKernels.stridedLine(src, so + i, sJ, dst, dO + i * n, 1, n, b);
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = src[so + i + j·n]} for {@code i < n}, {@code j < nJ} (element units):
     * one source run of {@code n} alternating rows split into {@code n} destination rows {@code tI}
     * apart.
     */
    public static void deinterleave(MemorySegment src, long so, MemorySegment dst, long dO, long tI, int b, int n,
                                    long nJ) {
        KernelTrace.ran(Kernel.DEINTERLEAVE);
        deinterleaveRows(src, so, dst, dO, tI, b, n, nJ);
    }

    /** The deinterleave of {@link #deinterleave}, untraced: for kernels that transpose a buffer of their own. */
    static void deinterleaveRows(MemorySegment src, long so, MemorySegment dst, long dO, long tI, int b, int n, long nJ) {
        Table t = table(b, n);
        int lanes = lanes(b);
        long chunks = nJ / lanes;
        // chunk c: n vectors of the run (from so + c·n·L) into L elements of each destination row
        permute(src, so, lanes, (long) n * lanes, dst, dO, tI, lanes, chunks, b, n, t.deinterleaveIndex(),
                t.deinterleaveShortIndex(), t.deinterleaveMask());
        long j = chunks * lanes;
        for (int o = 0; o < n; o++) {
            CopyKernels.stridedLine(src, so + o + j * n, n, dst, dO + o * tI + j, 1, nJ - j, b);
        }
    }

    private static int lanes(int b) {
        return b == 4 ? INTS.length() : SHORTS.length();
    }

    /**
     * For each of {@code chunks} chunks: output vector {@code o} (at element {@code out + o·outStep},
     * {@code o < n}) is the blend, over input vectors {@code x} (at {@code in + x·inStep}), of input
     * {@code x} permuted by the lane indexes at {@code (o·n + x)·L} under mask {@code (o·n + x)};
     * the next chunk starts {@code inAdvance} and {@code outAdvance} elements on.
     */
    private static void permute(MemorySegment src, long in, long inStep, long inAdvance, MemorySegment dst, long out,
                                long outStep, long outAdvance, long chunks, int b, int n, int[] index,
                                short[] shortIndex, long[] mask) {
        if (b == 4) {
            int lanes = INTS.length();
            for (long c = 0; c < chunks; c++, in += inAdvance, out += outAdvance) {
                for (int o = 0; o < n; o++) {
                    IntVector v = IntVector.zero(INTS);
                    for (int x = 0; x < n; x++) {
                        int at = o * n + x;
                        IntVector from = IntVector.fromMemorySegment(INTS, src, (in + x * inStep) * 4, NATIVE);
                        v = v.blend(IntVector.fromArray(INTS, index, at * lanes).selectFrom(from),
                                VectorMask.fromLong(INTS, mask[at]));
                    }
                    v.intoMemorySegment(dst, (out + o * outStep) * 4, NATIVE);
                }
            }
            return;
        }
        int lanes = SHORTS.length();
        for (long c = 0; c < chunks; c++, in += inAdvance, out += outAdvance) {
            for (int o = 0; o < n; o++) {
                ShortVector v = ShortVector.zero(SHORTS);
                for (int x = 0; x < n; x++) {
                    int at = o * n + x;
                    ShortVector from = ShortVector.fromMemorySegment(SHORTS, src, (in + x * inStep) * 2, NATIVE);
                    v = v.blend(ShortVector.fromArray(SHORTS, shortIndex, at * lanes).selectFrom(from),
                            VectorMask.fromLong(SHORTS, mask[at]));
                }
                v.intoMemorySegment(dst, (out + o * outStep) * 2, NATIVE);
            }
        }
    }

    /** {@return the tables of {@code n} for {@code b}-byte elements, made on first use} */
    private static Table table(int b, int n) {
        Table[] tables = b == 4 ? INT_TABLES : SHORT_TABLES;
        Table t = tables[n];
        if (t == null) {
            // two threads may both make it, the same table; its fields are final, so a thread that
            // reads it from the array sees it whole
            t = b == 4 ? make(INTS.length(), n) : make(SHORTS.length(), n).forShorts();
            tables[n] = t;
        }
        return t;
    }

    /**
     * {@return the tables of {@code n} rows and {@code lanes} lanes, indexes as {@code int}s}
     * Interleave: element {@code e} of
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
        return new Table(iIndex, iMask, dIndex, dMask, null, null);
    }
}
