package dev.tegula.vector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Relayout with conversion in the same pass, f32 to bf16 (round to nearest even; a NaN keeps its
 * sign and top payload bits and becomes quiet, as {@code BFloat16.fromFloat}): the fast path for
 * moving f32 weights into a bf16 layout, transposed or tiled, without a second pass.
 *
 * <p>Each {@link LoopNest} (in element units; source elements 4 bytes, destination 2) runs one of
 * three ways: runs contiguous on both sides convert a vector at a time; a transposing nest (the
 * innermost loop contiguous in the destination, another in the source) transposes 16×16 f32 tiles
 * in registers, as {@link TransposeKernels} does, and rounds each destination row as it is stored,
 * two tiles side by side so each destination row is written as a whole 64-byte line (512-bit
 * vectors only; other widths convert element by element there); anything else converts element
 * by element. Stateless and thread-safe.
 */
final class ConvertKernels {
    private ConvertKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    /** The species of the run kernel: the widest int vectors, and shorts of the same lane count. */
    private static final VectorSpecies<Integer> IR = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SR = VectorSpecies.of(short.class,
            VectorShape.forBitSize(Math.max(64, IR.vectorBitSize() / 2)));
    private static final boolean RUN_VECTOR = Kernels.VECTOR && SR.length() == IR.length();

    private static final IntVector IDX_A1 = index(1, true);
    private static final IntVector IDX_B1 = index(1, false);
    private static final IntVector IDX_A2 = index(2, true);
    private static final IntVector IDX_B2 = index(2, false);
    private static final IntVector IDX_A4 = index(4, true);
    private static final IntVector IDX_B4 = index(4, false);
    private static final IntVector IDX_A8 = index(8, true);
    private static final IntVector IDX_B8 = index(8, false);

    private static IntVector index(int d, boolean first) {
        return IntVector.fromArray(I16, TransposeKernels.roundIndex(d, first), 0);
    }

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;

    /** {@return the bf16 code of the f32 with these bits, rounded to nearest even} */
    static short bf16(int bits) {
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    private static IntVector bf16Lanes(IntVector bits) {
        IntVector hi = bits.lanewise(VectorOperators.LSHR, 16);
        IntVector rounded = bits.add(hi.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16);
        VectorMask<Integer> nan = bits.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000);
        return rounded.blend(hi.or(0x40), nan);
    }

    /** 16 f32 lanes to 16 bf16 lanes. */
    private static ShortVector bf16(IntVector bits) {
        return (ShortVector) bf16Lanes(bits).convertShape(VectorOperators.I2S, S16, 0);
    }

    private enum Mode { RUNS, TRANSPOSE, STRIDED }

    private static Mode mode(LoopNest nest) {
        int inner = nest.depth() - 1;
        if (nest.srcStrides()[inner] == 1 && nest.dstStrides()[inner] == 1) {
            return Mode.RUNS;
        }
        return nest.dstStrides()[inner] == 1 && transposeLoop(nest) >= 0 ? Mode.TRANSPOSE : Mode.STRIDED;
    }

    private static int transposeLoop(LoopNest nest) {
        for (int q = 0; q < nest.depth() - 1; q++) {
            if (nest.srcStrides()[q] == 1) {
                return q;
            }
        }
        return -1;
    }

    /** The outermost loop the kernel walks itself (not the innermost, not the transposed one), or -1. */
    private static int splitLoop(LoopNest nest) {
        int skip = mode(nest) == Mode.TRANSPOSE ? transposeLoop(nest) : -1;
        for (int q = 0; q < nest.depth() - 1; q++) {
            if (q != skip) {
                return q;
            }
        }
        return -1;
    }

    /** {@return how many parts the nest can be split into for threads} (see {@link #run}) */
    static long splitExtent(LoopNest nest) {
        int q = splitLoop(nest);
        return q >= 0 ? nest.extents()[q] : nest.extents()[nest.depth() - 1];
    }

    /**
     * Runs a nest restricted to indices {@code [from, to)} of the loop {@link #splitExtent} counts:
     * the outermost walked loop, or the innermost loop when the kernel walks no other.
     */
    static void run(LoopNest nest, MemorySegment src, MemorySegment dst, long from, long to) {
        Mode m = mode(nest);
        int d = nest.depth();
        int inner = d - 1;
        int skip = m == Mode.TRANSPOSE ? transposeLoop(nest) : -1;
        int split = splitLoop(nest);
        long[] n = nest.extents();
        long[] s = nest.srcStrides();
        long[] t = nest.dstStrides();
        long[] lo = new long[d];
        long[] hi = n.clone();
        if (split >= 0) {
            lo[split] = Math.max(0, from);
            hi[split] = Math.min(n[split], to);
        } else {
            lo[inner] = Math.max(0, from);
            hi[inner] = Math.min(n[inner], to);
        }
        for (int q = 0; q < d; q++) {
            if (lo[q] >= hi[q]) {
                return;
            }
        }
        long[] idx = lo.clone();
        while (true) {
            long so = nest.srcOffset();
            long dO = nest.dstOffset();
            for (int q = 0; q < d; q++) {
                if (q != inner && q != skip) {
                    so += idx[q] * s[q];
                    dO += idx[q] * t[q];
                }
            }
            so += lo[inner] * s[inner];
            dO += lo[inner] * t[inner];
            long nj = hi[inner] - lo[inner];
            switch (m) {
                case RUNS -> run(src, so, dst, dO, nj);
                case TRANSPOSE -> transpose(src, so, dst, dO, n[skip], t[skip], nj, s[inner]);
                case STRIDED -> line(src, so, s[inner], dst, dO, t[inner], nj);
            }
            int q = inner - 1;
            while (q >= 0) {
                if (q == skip) {
                    q--;
                    continue;
                }
                if (++idx[q] < hi[q]) {
                    break;
                }
                idx[q] = lo[q];
                q--;
            }
            if (q < 0) {
                return;
            }
        }
    }

    /** dst[dO + k] = bf16(src[so + k]) for k < n. */
    static void run(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        if (RUN_VECTOR) {
            int lanes = IR.length();
            for (; k + lanes <= n; k += lanes) {
                IntVector v = IntVector.fromMemorySegment(IR, src, (so + k) * 4, NATIVE);
                ((ShortVector) bf16Lanes(v).convertShape(VectorOperators.I2S, SR, 0))
                        .intoMemorySegment(dst, (dO + k) * 2, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(S, (dO + k) * 2, bf16(src.get(I, (so + k) * 4)));
        }
    }

    /** dst[dO + k·t] = bf16(src[so + k·s]) for k < n. */
    static void line(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n) {
        for (long k = 0; k < n; k++) {
            dst.set(S, (dO + k * t) * 2, bf16(src.get(I, (so + k * s) * 4)));
        }
    }

    /** dst[dO + i·tI + j] = bf16(src[so + i + j·sJ]) for i < nI, j < nJ. */
    static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI, long nJ,
                          long sJ) {
        long fullI = 0;
        long fullJ = 0;
        if (TransposeKernels.TILE == 16 && nI >= 16 && nJ >= 32) {
            fullI = nI - nI % 16;
            fullJ = nJ - nJ % 32;
            long sRow = sJ * 4;
            long dRow = tI * 2;
            MemorySegment w = TransposeKernels.TILE_BUFFER.get();
            long bi = TransposeKernels.BLOCK_I;
            long bj = TransposeKernels.BLOCK_J;
            for (long jb = 0; jb < fullJ; jb += bj) {
                long jEnd = Math.min(fullJ, jb + bj);
                for (long ib = 0; ib < fullI; ib += bi) {
                    long iEnd = Math.min(fullI, ib + bi);
                    for (long j = jb; j < jEnd; j += 32) {
                        long srcStrip = (so + j * sJ) * 4;
                        long dstCol = (dO + j) * 2;
                        for (long i = ib; i < iEnd; i += 16) {
                            long sb = srcStrip + i * 4;
                            long db = dstCol + i * dRow;
                            tile16F32ToBf16(src, sb, sRow, dst, db, dRow, w);
                            tile16F32ToBf16(src, sb + 16 * sRow, sRow, dst, db + 32, dRow, w);
                        }
                    }
                }
            }
        }
        // remainders (everything when the tiles do not apply): columns i >= fullI; rows j >= fullJ for i < fullI
        for (long j = 0; j < nJ; j++) {
            line(src, so + fullI + j * sJ, 1, dst, dO + fullI * tI + j, tI, nI - fullI);
        }
        for (long j = fullJ; j < nJ; j++) {
            line(src, so + j * sJ, 1, dst, dO + j, tI, fullI);
        }
    }

    /**
     * One 16x16 tile: four rounds of two-source permutes ({@code selectFrom} of two vectors,
     * {@code vpermt2d}/{@code vpermt2w} on AVX-512), each swapping one bit of the row index with
     * the same bit of the lane index. Two rounds in registers, the rows through the small per-thread
     * buffer {@code w} (in L1), two more rounds: one method doing all four (64 permutes, 32 vector
     * registers' worth) was refused by C1 ("out of virtual registers in linear scan") in a JVM that
     * had run other relayouts first, and then never reached C2 (20x slower); a loop over the rounds
     * through {@code w} ran at half the speed (docs/benchmarks.md).
     */
    static void tile16F32ToBf16(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow, MemorySegment w) {
        tile16F32ToBf16Front(src, sb, sRow, w);
        tile16F32ToBf16Back(w, dst, db, dRow);
    }

    private static void tile16F32ToBf16Front(MemorySegment src, long sb, long sRow, MemorySegment w) {
        IntVector a0 = IntVector.fromMemorySegment(I16, src, sb, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I16, src, sb + 1 * sRow, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I16, src, sb + 2 * sRow, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I16, src, sb + 3 * sRow, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I16, src, sb + 4 * sRow, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I16, src, sb + 5 * sRow, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I16, src, sb + 6 * sRow, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I16, src, sb + 7 * sRow, NATIVE);
        IntVector a8 = IntVector.fromMemorySegment(I16, src, sb + 8 * sRow, NATIVE);
        IntVector a9 = IntVector.fromMemorySegment(I16, src, sb + 9 * sRow, NATIVE);
        IntVector a10 = IntVector.fromMemorySegment(I16, src, sb + 10 * sRow, NATIVE);
        IntVector a11 = IntVector.fromMemorySegment(I16, src, sb + 11 * sRow, NATIVE);
        IntVector a12 = IntVector.fromMemorySegment(I16, src, sb + 12 * sRow, NATIVE);
        IntVector a13 = IntVector.fromMemorySegment(I16, src, sb + 13 * sRow, NATIVE);
        IntVector a14 = IntVector.fromMemorySegment(I16, src, sb + 14 * sRow, NATIVE);
        IntVector a15 = IntVector.fromMemorySegment(I16, src, sb + 15 * sRow, NATIVE);
        IntVector b0 = IDX_A1.selectFrom(a0, a1);
        IntVector b1 = IDX_B1.selectFrom(a0, a1);
        IntVector b2 = IDX_A1.selectFrom(a2, a3);
        IntVector b3 = IDX_B1.selectFrom(a2, a3);
        IntVector b4 = IDX_A1.selectFrom(a4, a5);
        IntVector b5 = IDX_B1.selectFrom(a4, a5);
        IntVector b6 = IDX_A1.selectFrom(a6, a7);
        IntVector b7 = IDX_B1.selectFrom(a6, a7);
        IntVector b8 = IDX_A1.selectFrom(a8, a9);
        IntVector b9 = IDX_B1.selectFrom(a8, a9);
        IntVector b10 = IDX_A1.selectFrom(a10, a11);
        IntVector b11 = IDX_B1.selectFrom(a10, a11);
        IntVector b12 = IDX_A1.selectFrom(a12, a13);
        IntVector b13 = IDX_B1.selectFrom(a12, a13);
        IntVector b14 = IDX_A1.selectFrom(a14, a15);
        IntVector b15 = IDX_B1.selectFrom(a14, a15);
        IntVector c0 = IDX_A2.selectFrom(b0, b2);
        IntVector c2 = IDX_B2.selectFrom(b0, b2);
        IntVector c1 = IDX_A2.selectFrom(b1, b3);
        IntVector c3 = IDX_B2.selectFrom(b1, b3);
        IntVector c4 = IDX_A2.selectFrom(b4, b6);
        IntVector c6 = IDX_B2.selectFrom(b4, b6);
        IntVector c5 = IDX_A2.selectFrom(b5, b7);
        IntVector c7 = IDX_B2.selectFrom(b5, b7);
        IntVector c8 = IDX_A2.selectFrom(b8, b10);
        IntVector c10 = IDX_B2.selectFrom(b8, b10);
        IntVector c9 = IDX_A2.selectFrom(b9, b11);
        IntVector c11 = IDX_B2.selectFrom(b9, b11);
        IntVector c12 = IDX_A2.selectFrom(b12, b14);
        IntVector c14 = IDX_B2.selectFrom(b12, b14);
        IntVector c13 = IDX_A2.selectFrom(b13, b15);
        IntVector c15 = IDX_B2.selectFrom(b13, b15);
        c0.intoMemorySegment(w, 0, NATIVE);
        c1.intoMemorySegment(w, 64, NATIVE);
        c2.intoMemorySegment(w, 128, NATIVE);
        c3.intoMemorySegment(w, 192, NATIVE);
        c4.intoMemorySegment(w, 256, NATIVE);
        c5.intoMemorySegment(w, 320, NATIVE);
        c6.intoMemorySegment(w, 384, NATIVE);
        c7.intoMemorySegment(w, 448, NATIVE);
        c8.intoMemorySegment(w, 512, NATIVE);
        c9.intoMemorySegment(w, 576, NATIVE);
        c10.intoMemorySegment(w, 640, NATIVE);
        c11.intoMemorySegment(w, 704, NATIVE);
        c12.intoMemorySegment(w, 768, NATIVE);
        c13.intoMemorySegment(w, 832, NATIVE);
        c14.intoMemorySegment(w, 896, NATIVE);
        c15.intoMemorySegment(w, 960, NATIVE);
    }

    private static void tile16F32ToBf16Back(MemorySegment w, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I16, w, 0, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I16, w, 64, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I16, w, 128, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I16, w, 192, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I16, w, 256, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I16, w, 320, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I16, w, 384, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I16, w, 448, NATIVE);
        IntVector a8 = IntVector.fromMemorySegment(I16, w, 512, NATIVE);
        IntVector a9 = IntVector.fromMemorySegment(I16, w, 576, NATIVE);
        IntVector a10 = IntVector.fromMemorySegment(I16, w, 640, NATIVE);
        IntVector a11 = IntVector.fromMemorySegment(I16, w, 704, NATIVE);
        IntVector a12 = IntVector.fromMemorySegment(I16, w, 768, NATIVE);
        IntVector a13 = IntVector.fromMemorySegment(I16, w, 832, NATIVE);
        IntVector a14 = IntVector.fromMemorySegment(I16, w, 896, NATIVE);
        IntVector a15 = IntVector.fromMemorySegment(I16, w, 960, NATIVE);
        IntVector b0 = IDX_A4.selectFrom(a0, a4);
        IntVector b4 = IDX_B4.selectFrom(a0, a4);
        IntVector b1 = IDX_A4.selectFrom(a1, a5);
        IntVector b5 = IDX_B4.selectFrom(a1, a5);
        IntVector b2 = IDX_A4.selectFrom(a2, a6);
        IntVector b6 = IDX_B4.selectFrom(a2, a6);
        IntVector b3 = IDX_A4.selectFrom(a3, a7);
        IntVector b7 = IDX_B4.selectFrom(a3, a7);
        IntVector b8 = IDX_A4.selectFrom(a8, a12);
        IntVector b12 = IDX_B4.selectFrom(a8, a12);
        IntVector b9 = IDX_A4.selectFrom(a9, a13);
        IntVector b13 = IDX_B4.selectFrom(a9, a13);
        IntVector b10 = IDX_A4.selectFrom(a10, a14);
        IntVector b14 = IDX_B4.selectFrom(a10, a14);
        IntVector b11 = IDX_A4.selectFrom(a11, a15);
        IntVector b15 = IDX_B4.selectFrom(a11, a15);
        IntVector c0 = IDX_A8.selectFrom(b0, b8);
        IntVector c8 = IDX_B8.selectFrom(b0, b8);
        IntVector c1 = IDX_A8.selectFrom(b1, b9);
        IntVector c9 = IDX_B8.selectFrom(b1, b9);
        IntVector c2 = IDX_A8.selectFrom(b2, b10);
        IntVector c10 = IDX_B8.selectFrom(b2, b10);
        IntVector c3 = IDX_A8.selectFrom(b3, b11);
        IntVector c11 = IDX_B8.selectFrom(b3, b11);
        IntVector c4 = IDX_A8.selectFrom(b4, b12);
        IntVector c12 = IDX_B8.selectFrom(b4, b12);
        IntVector c5 = IDX_A8.selectFrom(b5, b13);
        IntVector c13 = IDX_B8.selectFrom(b5, b13);
        IntVector c6 = IDX_A8.selectFrom(b6, b14);
        IntVector c14 = IDX_B8.selectFrom(b6, b14);
        IntVector c7 = IDX_A8.selectFrom(b7, b15);
        IntVector c15 = IDX_B8.selectFrom(b7, b15);
        bf16(c0).intoMemorySegment(dst, db, NATIVE);
        bf16(c1).intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        bf16(c2).intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        bf16(c3).intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        bf16(c4).intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        bf16(c5).intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        bf16(c6).intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        bf16(c7).intoMemorySegment(dst, db + 7 * dRow, NATIVE);
        bf16(c8).intoMemorySegment(dst, db + 8 * dRow, NATIVE);
        bf16(c9).intoMemorySegment(dst, db + 9 * dRow, NATIVE);
        bf16(c10).intoMemorySegment(dst, db + 10 * dRow, NATIVE);
        bf16(c11).intoMemorySegment(dst, db + 11 * dRow, NATIVE);
        bf16(c12).intoMemorySegment(dst, db + 12 * dRow, NATIVE);
        bf16(c13).intoMemorySegment(dst, db + 13 * dRow, NATIVE);
        bf16(c14).intoMemorySegment(dst, db + 14 * dRow, NATIVE);
        bf16(c15).intoMemorySegment(dst, db + 15 * dRow, NATIVE);
    }
}
