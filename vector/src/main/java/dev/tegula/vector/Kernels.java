package dev.tegula.vector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The copy kernels of the relayout engine. Each runs one {@link LoopNest} over byte segments with
 * elements of {@code b} bytes (1, 2, 4, 8 or 16):
 * <ul>
 *   <li>bulk runs: the innermost loop is contiguous in both arrays, one {@link MemorySegment#copy}
 *       per run;</li>
 *   <li>transpose: the innermost loop is contiguous in the destination and another loop is
 *       contiguous in the source; 8x8 blocks are transposed in registers (Vector API two-vector
 *       {@code selectFrom}) for 2- and 4-byte elements, with a zip/unzip kernel when one side of
 *       the transpose has extent 2 (the bf16 {@code (2,1)} sub-tile) and {@link NarrowKernels}
 *       where one side's rows are shorter than a tile and lie side by side; remainders go element
 *       by element;</li>
 *   <li>strided: anything else, element by element.</li>
 * </ul>
 * Stateless and thread-safe. Bounds and lifetime are checked by the segments.
 */
final class Kernels {
    private Kernels() {
    }

    static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    /** Whether the Vector API paths are used (false: scalar paths only, for testing them). */
    static final boolean VECTOR = !Boolean.getBoolean(Tuning.SCALAR)
            && IntVector.SPECIES_PREFERRED.vectorBitSize() >= 256;

    /*
     * The 8x8 transpose swaps bit k of the row index with bit k of the column index for k = 0, 1, 2:
     * for each pair of rows (a, b = a + 2^k), a' takes b's lanes shifted right by 2^k where bit k of
     * the lane is set, and b' takes a's lanes shifted left where it is clear. Each half is one
     * constant lane permutation and one blend (two-vector selectFrom is emulated on AVX2 and slower).
     */
    private static final VectorShuffle<Integer> I_R0 = shuffle(I8, -1, 0);
    private static final VectorShuffle<Integer> I_L0 = shuffle(I8, 1, 0);
    private static final VectorMask<Integer> I_M0 = mask(I8, 0);
    private static final VectorShuffle<Integer> I_R1 = shuffle(I8, -1, 1);
    private static final VectorShuffle<Integer> I_L1 = shuffle(I8, 1, 1);
    private static final VectorMask<Integer> I_M1 = mask(I8, 1);
    private static final VectorShuffle<Integer> I_R2 = shuffle(I8, -1, 2);
    private static final VectorShuffle<Integer> I_L2 = shuffle(I8, 1, 2);
    private static final VectorMask<Integer> I_M2 = mask(I8, 2);
    private static final VectorShuffle<Short> S_R0 = shuffle(S8, -1, 0);
    private static final VectorShuffle<Short> S_L0 = shuffle(S8, 1, 0);
    private static final VectorMask<Short> S_M0 = mask(S8, 0);
    private static final VectorShuffle<Short> S_R1 = shuffle(S8, -1, 1);
    private static final VectorShuffle<Short> S_L1 = shuffle(S8, 1, 1);
    private static final VectorMask<Short> S_M1 = mask(S8, 1);
    private static final VectorShuffle<Short> S_R2 = shuffle(S8, -1, 2);
    private static final VectorShuffle<Short> S_L2 = shuffle(S8, 1, 2);
    private static final VectorMask<Short> S_M2 = mask(S8, 2);
    private static final ShortVector ZIP_LO;
    private static final ShortVector ZIP_HI;
    private static final ShortVector UNZIP_EVEN;
    private static final ShortVector UNZIP_ODD;

    static {
        short[] lo = new short[16];
        short[] hi = new short[16];
        short[] ev = new short[16];
        short[] od = new short[16];
        for (int c = 0; c < 16; c++) {
            lo[c] = (short) ((c & 1) == 0 ? c / 2 : 16 + c / 2);
            hi[c] = (short) ((c & 1) == 0 ? 8 + c / 2 : 24 + c / 2);
            ev[c] = (short) (2 * c);
            od[c] = (short) (2 * c + 1);
        }
        ZIP_LO = ShortVector.fromArray(S16, lo, 0);
        ZIP_HI = ShortVector.fromArray(S16, hi, 0);
        UNZIP_EVEN = ShortVector.fromArray(S16, ev, 0);
        UNZIP_ODD = ShortVector.fromArray(S16, od, 0);
    }

    /** The kernel a loop nest runs: bulk runs, a blocked transpose, or element by element. */
    enum Mode { RUNS, TRANSPOSE, STRIDED }

    static Mode mode(LoopNest nest) {
        return nest.isRuns() ? Mode.RUNS : nest.isTranspose() ? Mode.TRANSPOSE : Mode.STRIDED;
    }

    private static <E> VectorShuffle<E> shuffle(VectorSpecies<E> species, int direction, int k) {
        return VectorShuffle.fromOp(species, c -> (c + direction * (1 << k)) & 7);
    }

    private static <E> VectorMask<E> mask(VectorSpecies<E> species, int k) {
        boolean[] m = new boolean[8];
        for (int c = 0; c < 8; c++) {
            m[c] = (c & (1 << k)) != 0;
        }
        return VectorMask.fromArray(species, m, 0);
    }

    /**
     * Runs a walk's nest, restricted to indices {@code [from, to)} of its split loop (for sharing
     * work between threads; pass 0 and Long.MAX_VALUE for all of it).
     */
    static void run(Walk w, MemorySegment src, MemorySegment dst, int b, long from, long to) {
        if (w.paneled()) {
            PanelKernels.run(w, src, dst, b, from, to);
            return;
        }
        LoopNest nest = w.nest();
        Mode m = mode(nest);
        int skip = m == Mode.TRANSPOSE ? nest.sourceContiguousLoop() : -1;
        int end = m == Mode.STRIDED ? nest.depth() : nest.depth() - 1;
        long lo = Math.max(0, from);
        long hi = Math.min(to, nest.extents()[w.split()]);
        if (lo < hi) {
            outer(w, src, dst, b, lo, hi, 0, end, skip, nest.srcOffset(), nest.dstOffset(), m);
        }
    }

    /** Walks loops [level, end) except {@code skip}, the split loop over [from, to), then calls the kernel of the mode. */
    private static void outer(Walk w, MemorySegment src, MemorySegment dst, int b, long from, long to, int level,
                              int end, int skip, long so, long dO, Mode mode) {
        LoopNest nest = w.nest();
        int split = w.split();
        if (level == skip) {
            level++;
        }
        int inner = nest.depth() - 1;
        if (level >= end) {
            long jLo = split == inner ? from : 0;
            long jHi = split == inner ? to : nest.extents()[inner];
            switch (mode) {
                case RUNS -> MemorySegment.copy(src, (so + jLo) * b, dst, (dO + jLo) * b, (jHi - jLo) * b);
                case TRANSPOSE -> {
                    long iLo = split == skip ? from : 0;
                    long iHi = split == skip ? to : nest.extents()[skip];
                    long sJ = nest.srcStrides()[inner];
                    long tI = nest.dstStrides()[skip];
                    transpose(src, so + iLo + jLo * sJ, dst, dO + iLo * tI + jLo, b, iHi - iLo, tI, jHi - jLo, sJ, w);
                }
                case STRIDED -> element(src, so, dst, dO, b);
            }
            return;
        }
        long n = nest.extents()[level];
        long s = nest.srcStrides()[level];
        long t = nest.dstStrides()[level];
        long lo = level == split ? from : 0;
        long hi = level == split ? to : n;
        if (mode == Mode.STRIDED && level == end - 1) {
            stridedLine(src, so + lo * s, s, dst, dO + lo * t, t, hi - lo, b);
            return;
        }
        if (mode == Mode.RUNS && level == end - 1 && split != inner) {
            runs(src, so + lo * s, s, dst, dO + lo * t, t, hi - lo, nest.extents()[inner] * b, b);
            return;
        }
        for (long i = lo; i < hi; i++) {
            outer(w, src, dst, b, from, to, level + 1, end, skip, so + i * s, dO + i * t, mode);
        }
    }

    static void element(MemorySegment src, long so, MemorySegment dst, long dO, int b) {
        switch (b) {
            case 1 -> dst.set(ValueLayout.JAVA_BYTE, dO, src.get(ValueLayout.JAVA_BYTE, so));
            case 2 -> dst.set(S, dO * 2, src.get(S, so * 2));
            case 4 -> dst.set(I, dO * 4, src.get(I, so * 4));
            case 8 -> dst.set(L, dO * 8, src.get(L, so * 8));
            default -> MemorySegment.copy(src, so * b, dst, dO * b, b);
        }
    }

    /**
     * {@code n} bulk runs of {@code runBytes} bytes, the {@code i}-th from slot {@code so + i s} to slot
     * {@code dO + i t} (element size {@code b}): the last loop around the runs written out here, not
     * one more level of {@link #outer}'s recursion per run.
     */
    static void runs(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n, long runBytes, int b) {
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(src, (so + i * s) * b, dst, (dO + i * t) * b, runBytes);
        }
    }

    static void stridedLine(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n, int b) {
        switch (b) {
            case 1 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(ValueLayout.JAVA_BYTE, dO + i * t, src.get(ValueLayout.JAVA_BYTE, so + i * s));
                }
            }
            case 2 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(S, (dO + i * t) * 2, src.get(S, (so + i * s) * 2));
                }
            }
            case 4 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(I, (dO + i * t) * 4, src.get(I, (so + i * s) * 4));
                }
            }
            case 8 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(L, (dO + i * t) * 8, src.get(L, (so + i * s) * 8));
                }
            }
            default -> {
                for (long i = 0; i < n; i++) {
                    MemorySegment.copy(src, (so + i * s) * b, dst, (dO + i * t) * b, b);
                }
            }
        }
    }

    /**
     * dst[dO + i·tI + j] = src[so + i + j·sJ] for i < nI, j < nJ (element units): loop I is
     * contiguous in the source, loop J in the destination. The blocked transpose of
     * {@link TransposeKernels} with the walk's tile, blocks and strips where it applies.
     */
    static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                          long sJ, Walk w) {
        if (VECTOR && b == 2 && nJ == 2 && tI == 2) {
            zip2(src, so, sJ, dst, dO, nI);
            return;
        }
        if (VECTOR && b == 2 && nI == 2 && sJ == 2) {
            unzip2(src, so, dst, dO, tI, nJ);
            return;
        }
        if (w.tile() > 0 && TransposeKernels.applies(b, nI, nJ, w.tile())) {
            TransposeKernels.transpose(src, so, dst, dO, b, nI, tI, nJ, sJ, w);
            return;
        }
        // one side narrow and its rows side by side: interleave or deinterleave whole vectors
        if (tI == nJ && NarrowKernels.applies(b, nJ)) {
            NarrowKernels.interleave(src, so, sJ, dst, dO, b, nI, (int) nJ);
            return;
        }
        if (sJ == nI && NarrowKernels.applies(b, nI)) {
            NarrowKernels.deinterleave(src, so, dst, dO, tI, b, (int) nI, nJ);
            return;
        }
        // scalar: blocked so both arrays are walked in cache-sized pieces
        final long blk = 32;
        for (long j0 = 0; j0 < nJ; j0 += blk) {
            long jEnd = Math.min(nJ, j0 + blk);
            for (long i0 = 0; i0 < nI; i0 += blk) {
                long iEnd = Math.min(nI, i0 + blk);
                for (long i = i0; i < iEnd; i++) {
                    stridedLine(src, so + i + j0 * sJ, sJ, dst, dO + i * tI + j0, 1, jEnd - j0, b);
                }
            }
        }
    }

    static void block8x8Int(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector v0 = IntVector.fromMemorySegment(I8, src, sb, NATIVE);
        IntVector v1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector v2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector v3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector v4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector v5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector v6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector v7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector x00 = v0.blend(v1.rearrange(I_R0), I_M0);
        IntVector x01 = v0.rearrange(I_L0).blend(v1, I_M0);
        IntVector x02 = v2.blend(v3.rearrange(I_R0), I_M0);
        IntVector x03 = v2.rearrange(I_L0).blend(v3, I_M0);
        IntVector x04 = v4.blend(v5.rearrange(I_R0), I_M0);
        IntVector x05 = v4.rearrange(I_L0).blend(v5, I_M0);
        IntVector x06 = v6.blend(v7.rearrange(I_R0), I_M0);
        IntVector x07 = v6.rearrange(I_L0).blend(v7, I_M0);
        IntVector x10 = x00.blend(x02.rearrange(I_R1), I_M1);
        IntVector x12 = x00.rearrange(I_L1).blend(x02, I_M1);
        IntVector x11 = x01.blend(x03.rearrange(I_R1), I_M1);
        IntVector x13 = x01.rearrange(I_L1).blend(x03, I_M1);
        IntVector x14 = x04.blend(x06.rearrange(I_R1), I_M1);
        IntVector x16 = x04.rearrange(I_L1).blend(x06, I_M1);
        IntVector x15 = x05.blend(x07.rearrange(I_R1), I_M1);
        IntVector x17 = x05.rearrange(I_L1).blend(x07, I_M1);
        IntVector x20 = x10.blend(x14.rearrange(I_R2), I_M2);
        IntVector x24 = x10.rearrange(I_L2).blend(x14, I_M2);
        IntVector x21 = x11.blend(x15.rearrange(I_R2), I_M2);
        IntVector x25 = x11.rearrange(I_L2).blend(x15, I_M2);
        IntVector x22 = x12.blend(x16.rearrange(I_R2), I_M2);
        IntVector x26 = x12.rearrange(I_L2).blend(x16, I_M2);
        IntVector x23 = x13.blend(x17.rearrange(I_R2), I_M2);
        IntVector x27 = x13.rearrange(I_L2).blend(x17, I_M2);
        x20.intoMemorySegment(dst, db, NATIVE);
        x21.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        x22.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        x23.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        x24.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        x25.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        x26.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        x27.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
    }

    static void block8x8Short(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        ShortVector v0 = ShortVector.fromMemorySegment(S8, src, sb, NATIVE);
        ShortVector v1 = ShortVector.fromMemorySegment(S8, src, sb + 1 * sRow, NATIVE);
        ShortVector v2 = ShortVector.fromMemorySegment(S8, src, sb + 2 * sRow, NATIVE);
        ShortVector v3 = ShortVector.fromMemorySegment(S8, src, sb + 3 * sRow, NATIVE);
        ShortVector v4 = ShortVector.fromMemorySegment(S8, src, sb + 4 * sRow, NATIVE);
        ShortVector v5 = ShortVector.fromMemorySegment(S8, src, sb + 5 * sRow, NATIVE);
        ShortVector v6 = ShortVector.fromMemorySegment(S8, src, sb + 6 * sRow, NATIVE);
        ShortVector v7 = ShortVector.fromMemorySegment(S8, src, sb + 7 * sRow, NATIVE);
        ShortVector x00 = v0.blend(v1.rearrange(S_R0), S_M0);
        ShortVector x01 = v0.rearrange(S_L0).blend(v1, S_M0);
        ShortVector x02 = v2.blend(v3.rearrange(S_R0), S_M0);
        ShortVector x03 = v2.rearrange(S_L0).blend(v3, S_M0);
        ShortVector x04 = v4.blend(v5.rearrange(S_R0), S_M0);
        ShortVector x05 = v4.rearrange(S_L0).blend(v5, S_M0);
        ShortVector x06 = v6.blend(v7.rearrange(S_R0), S_M0);
        ShortVector x07 = v6.rearrange(S_L0).blend(v7, S_M0);
        ShortVector x10 = x00.blend(x02.rearrange(S_R1), S_M1);
        ShortVector x12 = x00.rearrange(S_L1).blend(x02, S_M1);
        ShortVector x11 = x01.blend(x03.rearrange(S_R1), S_M1);
        ShortVector x13 = x01.rearrange(S_L1).blend(x03, S_M1);
        ShortVector x14 = x04.blend(x06.rearrange(S_R1), S_M1);
        ShortVector x16 = x04.rearrange(S_L1).blend(x06, S_M1);
        ShortVector x15 = x05.blend(x07.rearrange(S_R1), S_M1);
        ShortVector x17 = x05.rearrange(S_L1).blend(x07, S_M1);
        ShortVector x20 = x10.blend(x14.rearrange(S_R2), S_M2);
        ShortVector x24 = x10.rearrange(S_L2).blend(x14, S_M2);
        ShortVector x21 = x11.blend(x15.rearrange(S_R2), S_M2);
        ShortVector x25 = x11.rearrange(S_L2).blend(x15, S_M2);
        ShortVector x22 = x12.blend(x16.rearrange(S_R2), S_M2);
        ShortVector x26 = x12.rearrange(S_L2).blend(x16, S_M2);
        ShortVector x23 = x13.blend(x17.rearrange(S_R2), S_M2);
        ShortVector x27 = x13.rearrange(S_L2).blend(x17, S_M2);
        x20.intoMemorySegment(dst, db, NATIVE);
        x21.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        x22.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        x23.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        x24.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        x25.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        x26.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        x27.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
    }

    /** dst[dO + 2i + j] = src[so + i + j·sJ], j in {0, 1}: interleave two 16-bit rows. */
    private static void zip2(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI) {
        long i = 0;
        for (; i + 16 <= nI; i += 16) {
            ShortVector a = ShortVector.fromMemorySegment(S16, src, (so + i) * 2, NATIVE);
            ShortVector b = ShortVector.fromMemorySegment(S16, src, (so + i + sJ) * 2, NATIVE);
            ZIP_LO.selectFrom(a, b).intoMemorySegment(dst, (dO + 2 * i) * 2, NATIVE);
            ZIP_HI.selectFrom(a, b).intoMemorySegment(dst, (dO + 2 * i + 16) * 2, NATIVE);
        }
        for (; i < nI; i++) {
            dst.set(S, (dO + 2 * i) * 2, src.get(S, (so + i) * 2));
            dst.set(S, (dO + 2 * i + 1) * 2, src.get(S, (so + i + sJ) * 2));
        }
    }

    /** dst[dO + i·tI + j] = src[so + i + 2j], i in {0, 1}: split interleaved 16-bit pairs into two rows. */
    private static void unzip2(MemorySegment src, long so, MemorySegment dst, long dO, long tI, long nJ) {
        long j = 0;
        for (; j + 16 <= nJ; j += 16) {
            ShortVector a = ShortVector.fromMemorySegment(S16, src, (so + 2 * j) * 2, NATIVE);
            ShortVector b = ShortVector.fromMemorySegment(S16, src, (so + 2 * j + 16) * 2, NATIVE);
            UNZIP_EVEN.selectFrom(a, b).intoMemorySegment(dst, (dO + j) * 2, NATIVE);
            UNZIP_ODD.selectFrom(a, b).intoMemorySegment(dst, (dO + tI + j) * 2, NATIVE);
        }
        for (; j < nJ; j++) {
            dst.set(S, (dO + j) * 2, src.get(S, (so + 2 * j) * 2));
            dst.set(S, (dO + tI + j) * 2, src.get(S, (so + 2 * j + 1) * 2));
        }
    }
}
