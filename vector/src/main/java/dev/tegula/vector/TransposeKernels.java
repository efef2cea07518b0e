package dev.tegula.vector;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The blocked transpose of the relayout engine for 2- and 4-byte elements:
 * {@code dst[dO + i·tI + j] = src[so + i + j·sJ]} (loop I contiguous in the source, loop J in the
 * destination).
 *
 * <p>Two levels of blocking. The outer level cuts the problem into blocks of {@link #BLOCK_J}
 * source rows by {@link #BLOCK_I} elements of each row, walked source-row strips first (all blocks
 * of a band of source rows, then the next band), so the block's source rows and destination lines
 * stay in L2 and in the TLB. The inner level walks a block strip by strip ({@code T} source rows at
 * a time, across the block) in square tiles of {@code T×T} elements transposed in registers: 16×16
 * with 512-bit vectors (AVX-512: 16 int lanes, the 16 shorts of a 256-bit vector), 8×8 otherwise.
 * A 16×16 tile is four rounds of two-source permutes ({@code selectFrom} of two vectors, one
 * {@code vpermt2d}/{@code vpermt2w} each on AVX-512); each round swaps one bit of the row index
 * with the same bit of the lane index. Tiles are stored straight into the destination, and a step
 * along a strip covers {@code max(T, 64 / b)} destination elements, so that each destination row
 * of a step is written as whole 64-byte lines (two 16×16 tiles side by side for 2-byte elements).
 * Remainders (rows and columns beyond the last whole tile) go element by element.
 *
 * <p>Stateless and thread-safe; threads share work by calling it on disjoint ranges of J.
 */
final class TransposeKernels {
    private TransposeKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;

    /** The tile edge: 16 where 512-bit vectors are native, else 8; 0 when the Vector API paths are off. */
    static final int TILE = !Kernels.VECTOR ? 0 : IntVector.SPECIES_PREFERRED.length() >= 16
            && !Boolean.getBoolean("tegula.transpose.tile8") ? 16 : 8;
    /**
     * Elements of each source row a block covers (destination rows per block) and source rows per
     * block (elements of each destination row), measured on AMD Zen 4 (docs/benchmarks.md). The
     * system properties exist for that tuning study only.
     */
    static final int BLOCK_I = Integer.getInteger("tegula.transpose.bi", 128);
    static final int BLOCK_J = Integer.getInteger("tegula.transpose.bj", 128);

    private static final IntVector IDX_IA1 = intIndex(1, true);
    private static final IntVector IDX_IB1 = intIndex(1, false);
    private static final IntVector IDX_IA2 = intIndex(2, true);
    private static final IntVector IDX_IB2 = intIndex(2, false);
    private static final IntVector IDX_IA4 = intIndex(4, true);
    private static final IntVector IDX_IB4 = intIndex(4, false);
    private static final IntVector IDX_IA8 = intIndex(8, true);
    private static final IntVector IDX_IB8 = intIndex(8, false);
    private static final ShortVector IDX_SA1 = shortIndex(1, true);
    private static final ShortVector IDX_SB1 = shortIndex(1, false);
    private static final ShortVector IDX_SA2 = shortIndex(2, true);
    private static final ShortVector IDX_SB2 = shortIndex(2, false);
    private static final ShortVector IDX_SA4 = shortIndex(4, true);
    private static final ShortVector IDX_SB4 = shortIndex(4, false);
    private static final ShortVector IDX_SA8 = shortIndex(8, true);
    private static final ShortVector IDX_SB8 = shortIndex(8, false);

    /**
     * The lane indexes of one round for the pair of rows (a, b = a + d): into the concatenation
     * {@code a ++ b} (16 lanes each), lane c of a' takes a[c] where bit d of c is clear and b[c - d]
     * where it is set; lane c of b' takes a[c + d] where clear and b[c] where set.
     */
    static int[] roundIndex(int d, boolean first) {
        int[] x = new int[16];
        for (int c = 0; c < 16; c++) {
            boolean set = (c & d) != 0;
            x[c] = first ? (set ? 16 + c - d : c) : (set ? 16 + c : c + d);
        }
        return x;
    }

    private static IntVector intIndex(int d, boolean first) {
        return IntVector.fromArray(I16, roundIndex(d, first), 0);
    }

    private static ShortVector shortIndex(int d, boolean first) {
        int[] x = roundIndex(d, first);
        short[] s = new short[16];
        for (int c = 0; c < 16; c++) {
            s[c] = (short) x[c];
        }
        return ShortVector.fromArray(S16, s, 0);
    }

    /** {@return true if this kernel takes a transpose of {@code b}-byte elements with these extents} */
    static boolean applies(int b, long nI, long nJ) {
        return TILE > 0 && (b == 4 || b == 2) && nI >= TILE && nJ >= Math.max(TILE, 64 / b);
    }

    /**
     * Bytes of the per-thread band scratch of {@link #banded} (0, the default: off). Measured on Zen 4
     * with 4 MiB bands (large enough for MemorySegment.copy's streaming stores): no faster than
     * {@link #direct} (docs/benchmarks.md), so it stays as an option for that comparison.
     */
    static final long BAND_BYTES = Long.getLong("tegula.transpose.band", 0);
    private static final ThreadLocal<MemorySegment> BAND = ThreadLocal.withInitial(
            () -> dev.tegula.ffm.HostMemory.allocate(java.lang.foreign.Arena.ofAuto(), BAND_BYTES, 64));

    /** dst[dO + i·tI + j] = src[so + i + j·sJ] for i < nI, j < nJ, element units; see the class documentation. */
    static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                          long sJ) {
        long bandRows = BAND_BYTES <= 0 ? 0 : BAND_BYTES / (nJ * b) / TILE * TILE;
        if (tI == nJ && bandRows >= TILE) {
            banded(src, so, dst, dO, b, nI, nJ, sJ, Math.min(bandRows, nI - nI % TILE));
            return;
        }
        direct(src, so, dst, dO, b, nI, tI, nJ, sJ);
    }

    /**
     * A transpose whose destination rows are dense ({@code tI == nJ}): bands of whole destination
     * rows are transposed into a cache-resident scratch band, which goes to the destination in one
     * bulk copy (large enough for the JDK's streaming stores, which do not read the destination first).
     */
    static void banded(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long nJ,
                               long sJ, long bandRows) {
        MemorySegment band = BAND.get();
        long fullI = nI - nI % TILE;
        for (long i0 = 0; i0 < fullI; i0 += bandRows) {
            long r = Math.min(bandRows, fullI - i0);
            direct(src, so + i0, band, 0, b, r, nJ, nJ, sJ);
            MemorySegment.copy(band, 0, dst, (dO + i0 * nJ) * b, r * nJ * b);
        }
        for (long j = 0; j < nJ; j++) {
            Kernels.stridedLine(src, so + fullI + j * sJ, 1, dst, dO + fullI * nJ + j, nJ, nI - fullI, b);
        }
    }

    /** The transpose with tiles stored straight into the destination. */
    static void direct(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                       long sJ) {
        direct(src, so, dst, dO, b, nI, tI, nJ, sJ, BLOCK_I, BLOCK_J);
    }

    /** {@link #direct} with blocks of {@code blockI} by {@code blockJ} elements (multiples of 32). */
    static void direct(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                       long sJ, long blockI, long blockJ) {
        int t = TILE;
        int tj = Math.max(t, 64 / b);             // destination elements per step: whole 64-byte lines
        long fullI = nI - nI % t;
        long fullJ = nJ - nJ % tj;
        long sRow = sJ * b;
        long dRow = tI * b;
        for (long jb = 0; jb < fullJ; jb += blockJ) {
            long jEnd = Math.min(fullJ, jb + blockJ);
            for (long ib = 0; ib < fullI; ib += blockI) {
                long iEnd = Math.min(fullI, ib + blockI);
                for (long j = jb; j < jEnd; j += tj) {
                    long srcStrip = (so + j * sJ) * b;
                    long dstCol = (dO + j) * b;
                    for (long i = ib; i < iEnd; i += t) {
                        long sb = srcStrip + i * b;
                        long db = dstCol + i * dRow;
                        step(src, sb, sRow, dst, db, dRow, b, t, tj);
                    }
                }
            }
        }
        // remainders: columns i >= fullI for every j; rows j >= fullJ for i < fullI
        for (long j = 0; j < nJ; j++) {
            Kernels.stridedLine(src, so + fullI + j * sJ, 1, dst, dO + fullI * tI + j, tI, nI - fullI, b);
        }
        for (long j = fullJ; j < nJ; j++) {
            Kernels.stridedLine(src, so + j * sJ, 1, dst, dO + j, tI, fullI, b);
        }
    }

    /** One step of a strip: t destination rows by tj destination elements, as tj / t square tiles. */
    private static void step(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow, int b,
                             int t, int tj) {
        if (t == 16) {
            if (b == 4) {
                tile16Int(src, sb, sRow, dst, db, dRow);
            } else {
                tile16Short(src, sb, sRow, dst, db, dRow);
                tile16Short(src, sb + 16 * sRow, sRow, dst, db + 32, dRow);
            }
            return;
        }
        for (int k = 0; k < tj; k += 8) {
            if (b == 4) {
                Kernels.block8x8Int(src, sb + k * sRow, sRow, dst, db + k * 4L, dRow);
            } else {
                Kernels.block8x8Short(src, sb + k * sRow, sRow, dst, db + k * 2L, dRow);
            }
        }
    }

    /** A 16x16 transpose in registers: row r of the source block becomes row r of the destination block's column. */
    static void tile16Int(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
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
        IntVector b0 = IDX_IA1.selectFrom(a0, a1);
        IntVector b1 = IDX_IB1.selectFrom(a0, a1);
        IntVector b2 = IDX_IA1.selectFrom(a2, a3);
        IntVector b3 = IDX_IB1.selectFrom(a2, a3);
        IntVector b4 = IDX_IA1.selectFrom(a4, a5);
        IntVector b5 = IDX_IB1.selectFrom(a4, a5);
        IntVector b6 = IDX_IA1.selectFrom(a6, a7);
        IntVector b7 = IDX_IB1.selectFrom(a6, a7);
        IntVector b8 = IDX_IA1.selectFrom(a8, a9);
        IntVector b9 = IDX_IB1.selectFrom(a8, a9);
        IntVector b10 = IDX_IA1.selectFrom(a10, a11);
        IntVector b11 = IDX_IB1.selectFrom(a10, a11);
        IntVector b12 = IDX_IA1.selectFrom(a12, a13);
        IntVector b13 = IDX_IB1.selectFrom(a12, a13);
        IntVector b14 = IDX_IA1.selectFrom(a14, a15);
        IntVector b15 = IDX_IB1.selectFrom(a14, a15);
        IntVector c0 = IDX_IA2.selectFrom(b0, b2);
        IntVector c2 = IDX_IB2.selectFrom(b0, b2);
        IntVector c1 = IDX_IA2.selectFrom(b1, b3);
        IntVector c3 = IDX_IB2.selectFrom(b1, b3);
        IntVector c4 = IDX_IA2.selectFrom(b4, b6);
        IntVector c6 = IDX_IB2.selectFrom(b4, b6);
        IntVector c5 = IDX_IA2.selectFrom(b5, b7);
        IntVector c7 = IDX_IB2.selectFrom(b5, b7);
        IntVector c8 = IDX_IA2.selectFrom(b8, b10);
        IntVector c10 = IDX_IB2.selectFrom(b8, b10);
        IntVector c9 = IDX_IA2.selectFrom(b9, b11);
        IntVector c11 = IDX_IB2.selectFrom(b9, b11);
        IntVector c12 = IDX_IA2.selectFrom(b12, b14);
        IntVector c14 = IDX_IB2.selectFrom(b12, b14);
        IntVector c13 = IDX_IA2.selectFrom(b13, b15);
        IntVector c15 = IDX_IB2.selectFrom(b13, b15);
        IntVector d0 = IDX_IA4.selectFrom(c0, c4);
        IntVector d4 = IDX_IB4.selectFrom(c0, c4);
        IntVector d1 = IDX_IA4.selectFrom(c1, c5);
        IntVector d5 = IDX_IB4.selectFrom(c1, c5);
        IntVector d2 = IDX_IA4.selectFrom(c2, c6);
        IntVector d6 = IDX_IB4.selectFrom(c2, c6);
        IntVector d3 = IDX_IA4.selectFrom(c3, c7);
        IntVector d7 = IDX_IB4.selectFrom(c3, c7);
        IntVector d8 = IDX_IA4.selectFrom(c8, c12);
        IntVector d12 = IDX_IB4.selectFrom(c8, c12);
        IntVector d9 = IDX_IA4.selectFrom(c9, c13);
        IntVector d13 = IDX_IB4.selectFrom(c9, c13);
        IntVector d10 = IDX_IA4.selectFrom(c10, c14);
        IntVector d14 = IDX_IB4.selectFrom(c10, c14);
        IntVector d11 = IDX_IA4.selectFrom(c11, c15);
        IntVector d15 = IDX_IB4.selectFrom(c11, c15);
        IntVector e0 = IDX_IA8.selectFrom(d0, d8);
        IntVector e8 = IDX_IB8.selectFrom(d0, d8);
        IntVector e1 = IDX_IA8.selectFrom(d1, d9);
        IntVector e9 = IDX_IB8.selectFrom(d1, d9);
        IntVector e2 = IDX_IA8.selectFrom(d2, d10);
        IntVector e10 = IDX_IB8.selectFrom(d2, d10);
        IntVector e3 = IDX_IA8.selectFrom(d3, d11);
        IntVector e11 = IDX_IB8.selectFrom(d3, d11);
        IntVector e4 = IDX_IA8.selectFrom(d4, d12);
        IntVector e12 = IDX_IB8.selectFrom(d4, d12);
        IntVector e5 = IDX_IA8.selectFrom(d5, d13);
        IntVector e13 = IDX_IB8.selectFrom(d5, d13);
        IntVector e6 = IDX_IA8.selectFrom(d6, d14);
        IntVector e14 = IDX_IB8.selectFrom(d6, d14);
        IntVector e7 = IDX_IA8.selectFrom(d7, d15);
        IntVector e15 = IDX_IB8.selectFrom(d7, d15);
        e0.intoMemorySegment(dst, db, NATIVE);
        e1.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        e2.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        e3.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        e4.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        e5.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        e6.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        e7.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
        e8.intoMemorySegment(dst, db + 8 * dRow, NATIVE);
        e9.intoMemorySegment(dst, db + 9 * dRow, NATIVE);
        e10.intoMemorySegment(dst, db + 10 * dRow, NATIVE);
        e11.intoMemorySegment(dst, db + 11 * dRow, NATIVE);
        e12.intoMemorySegment(dst, db + 12 * dRow, NATIVE);
        e13.intoMemorySegment(dst, db + 13 * dRow, NATIVE);
        e14.intoMemorySegment(dst, db + 14 * dRow, NATIVE);
        e15.intoMemorySegment(dst, db + 15 * dRow, NATIVE);
    }

    /** A 16x16 transpose in registers: row r of the source block becomes row r of the destination block's column. */
    static void tile16Short(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        ShortVector a0 = ShortVector.fromMemorySegment(S16, src, sb, NATIVE);
        ShortVector a1 = ShortVector.fromMemorySegment(S16, src, sb + 1 * sRow, NATIVE);
        ShortVector a2 = ShortVector.fromMemorySegment(S16, src, sb + 2 * sRow, NATIVE);
        ShortVector a3 = ShortVector.fromMemorySegment(S16, src, sb + 3 * sRow, NATIVE);
        ShortVector a4 = ShortVector.fromMemorySegment(S16, src, sb + 4 * sRow, NATIVE);
        ShortVector a5 = ShortVector.fromMemorySegment(S16, src, sb + 5 * sRow, NATIVE);
        ShortVector a6 = ShortVector.fromMemorySegment(S16, src, sb + 6 * sRow, NATIVE);
        ShortVector a7 = ShortVector.fromMemorySegment(S16, src, sb + 7 * sRow, NATIVE);
        ShortVector a8 = ShortVector.fromMemorySegment(S16, src, sb + 8 * sRow, NATIVE);
        ShortVector a9 = ShortVector.fromMemorySegment(S16, src, sb + 9 * sRow, NATIVE);
        ShortVector a10 = ShortVector.fromMemorySegment(S16, src, sb + 10 * sRow, NATIVE);
        ShortVector a11 = ShortVector.fromMemorySegment(S16, src, sb + 11 * sRow, NATIVE);
        ShortVector a12 = ShortVector.fromMemorySegment(S16, src, sb + 12 * sRow, NATIVE);
        ShortVector a13 = ShortVector.fromMemorySegment(S16, src, sb + 13 * sRow, NATIVE);
        ShortVector a14 = ShortVector.fromMemorySegment(S16, src, sb + 14 * sRow, NATIVE);
        ShortVector a15 = ShortVector.fromMemorySegment(S16, src, sb + 15 * sRow, NATIVE);
        ShortVector b0 = IDX_SA1.selectFrom(a0, a1);
        ShortVector b1 = IDX_SB1.selectFrom(a0, a1);
        ShortVector b2 = IDX_SA1.selectFrom(a2, a3);
        ShortVector b3 = IDX_SB1.selectFrom(a2, a3);
        ShortVector b4 = IDX_SA1.selectFrom(a4, a5);
        ShortVector b5 = IDX_SB1.selectFrom(a4, a5);
        ShortVector b6 = IDX_SA1.selectFrom(a6, a7);
        ShortVector b7 = IDX_SB1.selectFrom(a6, a7);
        ShortVector b8 = IDX_SA1.selectFrom(a8, a9);
        ShortVector b9 = IDX_SB1.selectFrom(a8, a9);
        ShortVector b10 = IDX_SA1.selectFrom(a10, a11);
        ShortVector b11 = IDX_SB1.selectFrom(a10, a11);
        ShortVector b12 = IDX_SA1.selectFrom(a12, a13);
        ShortVector b13 = IDX_SB1.selectFrom(a12, a13);
        ShortVector b14 = IDX_SA1.selectFrom(a14, a15);
        ShortVector b15 = IDX_SB1.selectFrom(a14, a15);
        ShortVector c0 = IDX_SA2.selectFrom(b0, b2);
        ShortVector c2 = IDX_SB2.selectFrom(b0, b2);
        ShortVector c1 = IDX_SA2.selectFrom(b1, b3);
        ShortVector c3 = IDX_SB2.selectFrom(b1, b3);
        ShortVector c4 = IDX_SA2.selectFrom(b4, b6);
        ShortVector c6 = IDX_SB2.selectFrom(b4, b6);
        ShortVector c5 = IDX_SA2.selectFrom(b5, b7);
        ShortVector c7 = IDX_SB2.selectFrom(b5, b7);
        ShortVector c8 = IDX_SA2.selectFrom(b8, b10);
        ShortVector c10 = IDX_SB2.selectFrom(b8, b10);
        ShortVector c9 = IDX_SA2.selectFrom(b9, b11);
        ShortVector c11 = IDX_SB2.selectFrom(b9, b11);
        ShortVector c12 = IDX_SA2.selectFrom(b12, b14);
        ShortVector c14 = IDX_SB2.selectFrom(b12, b14);
        ShortVector c13 = IDX_SA2.selectFrom(b13, b15);
        ShortVector c15 = IDX_SB2.selectFrom(b13, b15);
        ShortVector d0 = IDX_SA4.selectFrom(c0, c4);
        ShortVector d4 = IDX_SB4.selectFrom(c0, c4);
        ShortVector d1 = IDX_SA4.selectFrom(c1, c5);
        ShortVector d5 = IDX_SB4.selectFrom(c1, c5);
        ShortVector d2 = IDX_SA4.selectFrom(c2, c6);
        ShortVector d6 = IDX_SB4.selectFrom(c2, c6);
        ShortVector d3 = IDX_SA4.selectFrom(c3, c7);
        ShortVector d7 = IDX_SB4.selectFrom(c3, c7);
        ShortVector d8 = IDX_SA4.selectFrom(c8, c12);
        ShortVector d12 = IDX_SB4.selectFrom(c8, c12);
        ShortVector d9 = IDX_SA4.selectFrom(c9, c13);
        ShortVector d13 = IDX_SB4.selectFrom(c9, c13);
        ShortVector d10 = IDX_SA4.selectFrom(c10, c14);
        ShortVector d14 = IDX_SB4.selectFrom(c10, c14);
        ShortVector d11 = IDX_SA4.selectFrom(c11, c15);
        ShortVector d15 = IDX_SB4.selectFrom(c11, c15);
        ShortVector e0 = IDX_SA8.selectFrom(d0, d8);
        ShortVector e8 = IDX_SB8.selectFrom(d0, d8);
        ShortVector e1 = IDX_SA8.selectFrom(d1, d9);
        ShortVector e9 = IDX_SB8.selectFrom(d1, d9);
        ShortVector e2 = IDX_SA8.selectFrom(d2, d10);
        ShortVector e10 = IDX_SB8.selectFrom(d2, d10);
        ShortVector e3 = IDX_SA8.selectFrom(d3, d11);
        ShortVector e11 = IDX_SB8.selectFrom(d3, d11);
        ShortVector e4 = IDX_SA8.selectFrom(d4, d12);
        ShortVector e12 = IDX_SB8.selectFrom(d4, d12);
        ShortVector e5 = IDX_SA8.selectFrom(d5, d13);
        ShortVector e13 = IDX_SB8.selectFrom(d5, d13);
        ShortVector e6 = IDX_SA8.selectFrom(d6, d14);
        ShortVector e14 = IDX_SB8.selectFrom(d6, d14);
        ShortVector e7 = IDX_SA8.selectFrom(d7, d15);
        ShortVector e15 = IDX_SB8.selectFrom(d7, d15);
        e0.intoMemorySegment(dst, db, NATIVE);
        e1.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        e2.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        e3.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        e4.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        e5.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        e6.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        e7.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
        e8.intoMemorySegment(dst, db + 8 * dRow, NATIVE);
        e9.intoMemorySegment(dst, db + 9 * dRow, NATIVE);
        e10.intoMemorySegment(dst, db + 10 * dRow, NATIVE);
        e11.intoMemorySegment(dst, db + 11 * dRow, NATIVE);
        e12.intoMemorySegment(dst, db + 12 * dRow, NATIVE);
        e13.intoMemorySegment(dst, db + 13 * dRow, NATIVE);
        e14.intoMemorySegment(dst, db + 14 * dRow, NATIVE);
        e15.intoMemorySegment(dst, db + 15 * dRow, NATIVE);
    }

}
