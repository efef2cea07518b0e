package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The blocked transpose of the relayout engine for 2- and 4-byte elements:
 * {@code dst[dO + i·tI + j] = src[so + i + j·sJ]} (loop I contiguous in the source, loop J in the
 * destination).
 *
 * <p>Two levels of blocking, both parameters of the walk that calls it (chosen by the
 * planner: by rule or by timing candidates). The outer level cuts the problem into blocks of
 * {@code blockJ} source rows by {@code blockI} elements of each row, walked a band of source rows
 * (or of destination rows) at a time, so a block's rows stay in L2 and in the TLB. The inner level
 * walks a block strip by strip ({@code T} source rows at a time, or {@code T} destination rows at a
 * time) in square tiles of {@code T×T} elements transposed in registers: 16×16 with 512-bit vectors
 * (AVX-512: 16 int lanes, the 16 shorts of a 256-bit vector), 8×8 with 256-bit vectors or where
 * the walk asks for it, and for 2-byte elements with 512-bit vectors 32×32 ({@link #tile32Short}). A 16×16 tile is four rounds of two-source permutes ({@code selectFrom} of
 * two vectors, one {@code vpermt2d}/{@code vpermt2w} each on AVX-512); each round swaps one bit of
 * the row index with the same bit of the lane index. Tiles are stored straight into the
 * destination, and a step along a strip covers {@code max(T, 64 / b)} destination elements, so
 * that each destination row of a step is written as whole 64-byte lines (two 16×16 tiles side by
 * side for 2-byte elements); or, staged, a block's tiles go into a per-thread staging buffer first
 * and each destination row's piece of the block leaves it in one bulk copy (streamed: all of them in
 * one streaming copy, {@link StreamStores#copy2d}). Remainders (rows and
 * columns beyond the last whole tile) go element by element.
 *
 * <p>Thread-safe; its only state is per-thread scratch (a 2 KiB tile buffer and, once used, the
 * 128 KiB staging buffer). Threads share work by calling it on disjoint ranges of I or J.
 */
public final class TransposeKernels {
    private TransposeKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    private static final VectorSpecies<Short> S32 = ShortVector.SPECIES_512;

    private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
    /*
     * The 8x8 transpose swaps bit k of the row index with bit k of the column index for k = 0, 1, 2:
     * for each pair of rows (a, b = a + 2^k), a' takes b's lanes shifted right by 2^k where bit k of
     * the lane is set, and b' takes a's lanes shifted left where it is clear. Each half is one
     * constant lane permutation and one blend (two-vector selectFrom is emulated on AVX2 and slower);
     * for ints, round 0 (a shift by one lane) is a shift of the 64-bit lanes by 32 bits instead,
     * which stays inside each 64-bit lane, and one blend (ran faster than the permute in L2).
     */
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

    /**
     * Bytes of the per-thread staging buffer of {@link Strips#STAGED} blocks (in L2): where the
     * destination rows lie far apart, the 16 rows of each tile stored straight into the destination
     * fall into one set of the L1 and L2 caches; staged, each destination row piece of a block
     * leaves in one sequential copy.
     */
    public static final long STAGE_BYTES = 128 * 1024;
    private static final ThreadLocal<MemorySegment> STAGE_BUFFER = ThreadLocal.withInitial(
            () -> java.lang.foreign.Arena.ofAuto().allocate(STAGE_BYTES, 64));

    /** Bytes of one 16x16 tile of ints (16 rows of 64 bytes): where the second half of a 32x32 tile starts. */
    private static final long TILE_BYTES = 1024;

    /** Bytes of {@link #TILE_BUFFER}: the rows of two 16x16 tiles of ints. */
    static final long TILE_BUFFER_BYTES = 2 * TILE_BYTES;

    /**
     * The per-thread buffer a tile's rows pass through between permute rounds (in L1): one 16x16
     * tile of ints from 0, the second half of a 32x32 tile of 2-byte elements from {@code TILE_BYTES}.
     */
    static final ThreadLocal<MemorySegment> TILE_BUFFER = ThreadLocal.withInitial(
            () -> java.lang.foreign.Arena.ofAuto().allocate(TILE_BUFFER_BYTES, 64));

    static final IntVector IDX_IA1 = intIndex(1, true);
    static final IntVector IDX_IB1 = intIndex(1, false);
    static final IntVector IDX_IA2 = intIndex(2, true);
    static final IntVector IDX_IB2 = intIndex(2, false);
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
     * Lane indexes into {@code a ++ b} (32 shorts each) that zip lanes 0-15 of a and b
     * ({@code ZIP_LOW}) or lanes 16-31 ({@code ZIP_HIGH}): lane 2c takes a[c], lane 2c + 1 takes b[c].
     */
    private static final ShortVector ZIP_LOW = ShortVector.fromArray(S32, zips(0), 0);
    private static final ShortVector ZIP_HIGH = ShortVector.fromArray(S32, zips(16), 0);

    private static short[] zips(int from) {
        short[] x = new short[32];
        for (int lane = 0; lane < 32; lane++) {
            x[lane] = (short) ((lane & 1) == 0 ? from + lane / 2 : 32 + from + lane / 2);
        }
        return x;
    }

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

    /**
     * The transpose in square tiles of edge {@code t}, in blocks of {@code blockI} by {@code blockJ}
     * elements (multiples of 32), the blocks of a band of source rows first ({@code bands}
     * {@link Bands#SOURCE}) or of a band of destination rows. Inside a block the tiles go in
     * strips of {@code t} source rows across the block ({@link Strips#SOURCE}: each source row
     * of the strip is read as one run) or of {@code t} destination rows
     * ({@link Strips#DESTINATION}: each destination row of the strip is written as one run),
     * stored straight into the destination; or ({@link Strips#STAGED}, {@code blockI · blockJ · b}
     * at most {@link #STAGE_BYTES}) in source strips into the per-thread staging buffer, after which
     * each destination row's piece of the block goes to the destination in one bulk copy; or
     * ({@link Strips#STREAMED}) as staged, the block leaving in one streaming copy.
     */
    public static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI,
                                 long nJ, long sJ, Kernel kernel, long blockI, long blockJ, Strips strips,
                                 Bands bands, boolean touch) {
        KernelTrace.ran(kernel);
        blocks(src, so, dst, dO, b, nI, tI, nJ, sJ, kernel, blockI, blockJ, strips, bands, touch);
    }

    /** The transpose of {@link #transpose}, untraced: for kernels that transpose a buffer of their own. */
    static void blocks(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                       long sJ, Kernel kernel, long blockI, long blockJ, Strips strips, Bands bands) {
        blocks(src, so, dst, dO, b, nI, tI, nJ, sJ, kernel, blockI, blockJ, strips, bands, false);
    }

    private static void blocks(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI,
                               long nJ, long sJ, Kernel kernel, long blockI, long blockJ, Strips strips, Bands bands,
                               boolean touch) {
        int t = kernel.tile();
        MemorySegment w = TILE_BUFFER.get();
        int tj = Math.max(t, 64 / b);             // destination elements per step: whole 64-byte lines
        long fullI = nI - nI % t;
        long fullJ = nJ - nJ % tj;
        long sRow = sJ * b;
        long dRow = tI * b;
        boolean staged = strips.staged() && blockI * blockJ * b <= STAGE_BYTES;
        boolean sourceBands = bands == Bands.SOURCE;
        long outerEnd = sourceBands ? fullJ : fullI;
        long outerStep = sourceBands ? blockJ : blockI;
        long innerEnd = sourceBands ? fullI : fullJ;
        long innerStep = sourceBands ? blockI : blockJ;
        for (long o = 0; o < outerEnd; o += outerStep) {
            for (long n = 0; n < innerEnd; n += innerStep) {
                long jb = sourceBands ? o : n;
                long ib = sourceBands ? n : o;
                long jEnd = Math.min(fullJ, jb + blockJ);
                long iEnd = Math.min(fullI, ib + blockI);
                if (strips == Strips.DESTINATION) {
                    for (long i = ib; i < iEnd; i += t) {
                        long srcCol = (so + i) * b;
                        long dstRows = (dO + i * tI) * b;
                        for (long j = jb; j < jEnd; j += tj) {
                            step(src, srcCol + j * sRow, sRow, dst, dstRows + j * b, dRow, b, t, tj, w);
                        }
                    }
                    continue;
                }
                // the tiles' target: the destination, or (staged) the staging buffer holding the
                // block's iEnd - ib destination row pieces of jEnd - jb elements, one after the other
                MemorySegment out = dst;
                long outRow = dRow;
                long outBase = dO * b;
                if (staged) {
                    out = STAGE_BUFFER.get();
                    outRow = (jEnd - jb) * b;
                    outBase = -(ib * outRow + jb * b);
                }
                int touched = 0;
                for (long j = jb; j < jEnd; j += tj) {
                    long srcStrip = (so + j * sJ) * b;
                    long outCol = outBase + j * b;
                    if (touch && j + tj < jEnd) {
                        touched ^= touchRows(src, srcStrip + tj * sRow + ib * b, sRow, tj);
                    }
                    for (long i = ib; i < iEnd; i += t) {
                        step(src, srcStrip + i * b, sRow, out, outCol + i * outRow, outRow, b, t, tj, w);
                    }
                }
                if (touch) {
                    w.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) touched);   // keeps the touches' loads
                }
                if (staged && strips == Strips.STREAMED) {
                    StreamStores.copy2d(out, 0, outRow, dst, (dO + jb + ib * tI) * b, dRow, iEnd - ib, outRow);
                } else if (staged) {
                    for (long i = ib; i < iEnd; i++) {
                        MemorySegment.copy(out, (i - ib) * outRow, dst, (dO + jb + i * tI) * b, outRow);
                    }
                }
            }
        }
        // remainders: columns i >= fullI for every j (skipped when there are none: a batched
        // transpose of small tiles calls this thousands of times); rows j >= fullJ for i < fullI
        if (fullI < nI) {
            for (long j = 0; j < nJ; j++) {
                CopyKernels.stridedLine(src, so + fullI + j * sJ, 1, dst, dO + fullI * tI + j, tI, nI - fullI, b);
            }
        }
        for (long j = fullJ; j < nJ; j++) {
            CopyKernels.stridedLine(src, so + j * sJ, 1, dst, dO + j, tI, fullI, b);
        }
    }

    /**
     * {@return the XOR of one byte of each of {@code rows} rows from {@code at}, {@code rowBytes} apart}: a
     * touch that starts the reads of the next strip's rows (their first line) before its tiles need
     * them; the caller keeps the result, so the loads are not dropped.
     */
    private static int touchRows(MemorySegment src, long at, long rowBytes, int rows) {
        int x = 0;
        for (int r = 0; r < rows; r++) {
            x ^= src.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + r * rowBytes);
        }
        return x;
    }

    /** One step of a strip: t destination rows by tj destination elements, as tj / t square tiles. */
    public static void step(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow, int b,
                             int t, int tj, MemorySegment w) {
        if (t == 32) {
            tile32Short(src, sb, sRow, dst, db, dRow, w);
            return;
        }
        if (t == 16) {
            if (b == 4) {
                tile16Int(src, sb, sRow, dst, db, dRow, w);
            } else if (Tuning.TILE >= 16) {
                tile16Short(src, sb, sRow, dst, db, dRow, w);
                tile16Short(src, sb + 16 * sRow, sRow, dst, db + 32, dRow, w);
            } else {
                tile16Pairs(src, sb, sRow, dst, db, dRow);
                tile16Pairs(src, sb + 16 * sRow, sRow, dst, db + 32, dRow);
            }
            return;
        }
        for (int k = 0; k < tj; k += 8) {
            if (b == 4) {
                block8x8Int(src, sb + k * sRow, sRow, dst, db + k * 4L, dRow);
            } else {
                block8x8Short(src, sb + k * sRow, sRow, dst, db + k * 2L, dRow);
            }
        }
    }

    /**
     * One 32x32 tile of 2-byte elements, whole 64-byte lines on both sides. Zipping source rows 2k
     * and 2k+1 (interleaving them element by element) makes a row of 32-bit pairs, and the 16 zipped
     * rows of the tile's first 16 columns (and again of its last 16) form a 16x16 tile of pairs;
     * transposing that leaves each pair's halves in order, so each 32-bit row out is a destination
     * row of 32 elements. Each source row is loaded once: {@link #tile32ShortFront} zips four row
     * pairs into both halves and runs the first two rounds on each (a round of two pairs of zipped
     * rows only mixes rows within a group of four), into {@code w} (the first half's 16 rows from 0,
     * the second's from {@code TILE_BYTES}); then the last two rounds of each half
     * ({@link #tile16IntBack}). Eight row pairs into both halves in one method are refused by C1
     * ("out of virtual registers in LIR generator") and then never reach C2. Loading the rows again for each half (eight pairs into
     * one half per call) ran slower, in L1 and on a whole bf16 transpose.
     */
    static void tile32Short(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow,
                            MemorySegment w) {
        tile32ShortFront(src, sb, sRow, w, 0);
        tile32ShortFront(src, sb + 8 * sRow, sRow, w, 256);
        tile32ShortFront(src, sb + 16 * sRow, sRow, w, 512);
        tile32ShortFront(src, sb + 24 * sRow, sRow, w, 768);
        tile16IntBack(w, 0, dst, db, dRow);
        tile16IntBack(w, TILE_BYTES, dst, db + 16 * dRow, dRow);
    }

    /**
     * Zips four pairs of source rows (from {@code sb}) into columns 0-15 and 16-31 of four rows of
     * pairs each, and runs the first two rounds of the 16x16 tiles of pairs on them: into {@code w}
     * from {@code wo} and from {@code wo + TILE_BYTES}. The two halves are written out: a helper for
     * one would take the rows as vectors, and one over 35 bytes of bytecode can be left out of line
     * and box them.
     */
    private static void tile32ShortFront(MemorySegment src, long sb, long sRow, MemorySegment w, long wo) {
        ShortVector r0 = ShortVector.fromMemorySegment(S32, src, sb, NATIVE);
        ShortVector r1 = ShortVector.fromMemorySegment(S32, src, sb + 1 * sRow, NATIVE);
        ShortVector r2 = ShortVector.fromMemorySegment(S32, src, sb + 2 * sRow, NATIVE);
        ShortVector r3 = ShortVector.fromMemorySegment(S32, src, sb + 3 * sRow, NATIVE);
        ShortVector r4 = ShortVector.fromMemorySegment(S32, src, sb + 4 * sRow, NATIVE);
        ShortVector r5 = ShortVector.fromMemorySegment(S32, src, sb + 5 * sRow, NATIVE);
        ShortVector r6 = ShortVector.fromMemorySegment(S32, src, sb + 6 * sRow, NATIVE);
        ShortVector r7 = ShortVector.fromMemorySegment(S32, src, sb + 7 * sRow, NATIVE);
        IntVector l0 = ZIP_LOW.selectFrom(r0, r1).reinterpretAsInts();
        IntVector l1 = ZIP_LOW.selectFrom(r2, r3).reinterpretAsInts();
        IntVector l2 = ZIP_LOW.selectFrom(r4, r5).reinterpretAsInts();
        IntVector l3 = ZIP_LOW.selectFrom(r6, r7).reinterpretAsInts();
        IntVector lb0 = IDX_IA1.selectFrom(l0, l1);
        IntVector lb1 = IDX_IB1.selectFrom(l0, l1);
        IntVector lb2 = IDX_IA1.selectFrom(l2, l3);
        IntVector lb3 = IDX_IB1.selectFrom(l2, l3);
        IDX_IA2.selectFrom(lb0, lb2).intoMemorySegment(w, wo, NATIVE);
        IDX_IB2.selectFrom(lb0, lb2).intoMemorySegment(w, wo + 128, NATIVE);
        IDX_IA2.selectFrom(lb1, lb3).intoMemorySegment(w, wo + 64, NATIVE);
        IDX_IB2.selectFrom(lb1, lb3).intoMemorySegment(w, wo + 192, NATIVE);
        IntVector h0 = ZIP_HIGH.selectFrom(r0, r1).reinterpretAsInts();
        IntVector h1 = ZIP_HIGH.selectFrom(r2, r3).reinterpretAsInts();
        IntVector h2 = ZIP_HIGH.selectFrom(r4, r5).reinterpretAsInts();
        IntVector h3 = ZIP_HIGH.selectFrom(r6, r7).reinterpretAsInts();
        IntVector hb0 = IDX_IA1.selectFrom(h0, h1);
        IntVector hb1 = IDX_IB1.selectFrom(h0, h1);
        IntVector hb2 = IDX_IA1.selectFrom(h2, h3);
        IntVector hb3 = IDX_IB1.selectFrom(h2, h3);
        IDX_IA2.selectFrom(hb0, hb2).intoMemorySegment(w, wo + TILE_BYTES, NATIVE);
        IDX_IB2.selectFrom(hb0, hb2).intoMemorySegment(w, wo + TILE_BYTES + 128, NATIVE);
        IDX_IA2.selectFrom(hb1, hb3).intoMemorySegment(w, wo + TILE_BYTES + 64, NATIVE);
        IDX_IB2.selectFrom(hb1, hb3).intoMemorySegment(w, wo + TILE_BYTES + 192, NATIVE);
    }

    /**
     * One 16x16 tile: four rounds of two-source permutes ({@code selectFrom} of two vectors,
     * {@code vpermt2d}/{@code vpermt2w} on AVX-512), each swapping one bit of the row index with
     * the same bit of the lane index. Two rounds in registers, the rows through the small per-thread
     * buffer {@code w} (in L1), two more rounds: one method doing all four (64 permutes, 32 vector
     * registers' worth) can be refused by C1 ("out of virtual registers in linear scan") and then
     * never reach C2; a loop over the rounds through {@code w} is slower than two straight halves.
     */
    static void tile16Int(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow, MemorySegment w) {
        tile16IntFront(src, sb, sRow, w);
        tile16IntBack(w, 0, dst, db, dRow);
    }

    private static void tile16IntFront(MemorySegment src, long sb, long sRow, MemorySegment w) {
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

    /**
     * The last two rounds of a 16x16 tile of ints: the 16 rows that the first two left in {@code w}
     * from {@code wo} (64 bytes apart) to 16 destination rows from {@code db}, {@code dRow} bytes
     * apart.
     */
    static void tile16IntBack(MemorySegment w, long wo, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I16, w, wo, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I16, w, wo + 64, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I16, w, wo + 128, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I16, w, wo + 192, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I16, w, wo + 256, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I16, w, wo + 320, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I16, w, wo + 384, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I16, w, wo + 448, NATIVE);
        IntVector a8 = IntVector.fromMemorySegment(I16, w, wo + 512, NATIVE);
        IntVector a9 = IntVector.fromMemorySegment(I16, w, wo + 576, NATIVE);
        IntVector a10 = IntVector.fromMemorySegment(I16, w, wo + 640, NATIVE);
        IntVector a11 = IntVector.fromMemorySegment(I16, w, wo + 704, NATIVE);
        IntVector a12 = IntVector.fromMemorySegment(I16, w, wo + 768, NATIVE);
        IntVector a13 = IntVector.fromMemorySegment(I16, w, wo + 832, NATIVE);
        IntVector a14 = IntVector.fromMemorySegment(I16, w, wo + 896, NATIVE);
        IntVector a15 = IntVector.fromMemorySegment(I16, w, wo + 960, NATIVE);
        IntVector b0 = IDX_IA4.selectFrom(a0, a4);
        IntVector b4 = IDX_IB4.selectFrom(a0, a4);
        IntVector b1 = IDX_IA4.selectFrom(a1, a5);
        IntVector b5 = IDX_IB4.selectFrom(a1, a5);
        IntVector b2 = IDX_IA4.selectFrom(a2, a6);
        IntVector b6 = IDX_IB4.selectFrom(a2, a6);
        IntVector b3 = IDX_IA4.selectFrom(a3, a7);
        IntVector b7 = IDX_IB4.selectFrom(a3, a7);
        IntVector b8 = IDX_IA4.selectFrom(a8, a12);
        IntVector b12 = IDX_IB4.selectFrom(a8, a12);
        IntVector b9 = IDX_IA4.selectFrom(a9, a13);
        IntVector b13 = IDX_IB4.selectFrom(a9, a13);
        IntVector b10 = IDX_IA4.selectFrom(a10, a14);
        IntVector b14 = IDX_IB4.selectFrom(a10, a14);
        IntVector b11 = IDX_IA4.selectFrom(a11, a15);
        IntVector b15 = IDX_IB4.selectFrom(a11, a15);
        IntVector c0 = IDX_IA8.selectFrom(b0, b8);
        IntVector c8 = IDX_IB8.selectFrom(b0, b8);
        IntVector c1 = IDX_IA8.selectFrom(b1, b9);
        IntVector c9 = IDX_IB8.selectFrom(b1, b9);
        IntVector c2 = IDX_IA8.selectFrom(b2, b10);
        IntVector c10 = IDX_IB8.selectFrom(b2, b10);
        IntVector c3 = IDX_IA8.selectFrom(b3, b11);
        IntVector c11 = IDX_IB8.selectFrom(b3, b11);
        IntVector c4 = IDX_IA8.selectFrom(b4, b12);
        IntVector c12 = IDX_IB8.selectFrom(b4, b12);
        IntVector c5 = IDX_IA8.selectFrom(b5, b13);
        IntVector c13 = IDX_IB8.selectFrom(b5, b13);
        IntVector c6 = IDX_IA8.selectFrom(b6, b14);
        IntVector c14 = IDX_IB8.selectFrom(b6, b14);
        IntVector c7 = IDX_IA8.selectFrom(b7, b15);
        IntVector c15 = IDX_IB8.selectFrom(b7, b15);
        c0.intoMemorySegment(dst, db, NATIVE);
        c1.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        c2.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        c3.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        c4.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        c5.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        c6.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        c7.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
        c8.intoMemorySegment(dst, db + 8 * dRow, NATIVE);
        c9.intoMemorySegment(dst, db + 9 * dRow, NATIVE);
        c10.intoMemorySegment(dst, db + 10 * dRow, NATIVE);
        c11.intoMemorySegment(dst, db + 11 * dRow, NATIVE);
        c12.intoMemorySegment(dst, db + 12 * dRow, NATIVE);
        c13.intoMemorySegment(dst, db + 13 * dRow, NATIVE);
        c14.intoMemorySegment(dst, db + 14 * dRow, NATIVE);
        c15.intoMemorySegment(dst, db + 15 * dRow, NATIVE);
    }

    /**
     * One 16x16 tile: four rounds of two-source permutes ({@code selectFrom} of two vectors,
     * {@code vpermt2d}/{@code vpermt2w} on AVX-512), each swapping one bit of the row index with
     * the same bit of the lane index. Two rounds in registers, the rows through the small per-thread
     * buffer {@code w} (in L1), two more rounds: one method doing all four (64 permutes, 32 vector
     * registers' worth) can be refused by C1 ("out of virtual registers in linear scan") and then
     * never reach C2; a loop over the rounds through {@code w} is slower than two straight halves.
     */
    static void tile16Short(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow, MemorySegment w) {
        tile16ShortFront(src, sb, sRow, w);
        tile16ShortBack(w, dst, db, dRow);
    }

    private static void tile16ShortFront(MemorySegment src, long sb, long sRow, MemorySegment w) {
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
        c0.intoMemorySegment(w, 0, NATIVE);
        c1.intoMemorySegment(w, 32, NATIVE);
        c2.intoMemorySegment(w, 64, NATIVE);
        c3.intoMemorySegment(w, 96, NATIVE);
        c4.intoMemorySegment(w, 128, NATIVE);
        c5.intoMemorySegment(w, 160, NATIVE);
        c6.intoMemorySegment(w, 192, NATIVE);
        c7.intoMemorySegment(w, 224, NATIVE);
        c8.intoMemorySegment(w, 256, NATIVE);
        c9.intoMemorySegment(w, 288, NATIVE);
        c10.intoMemorySegment(w, 320, NATIVE);
        c11.intoMemorySegment(w, 352, NATIVE);
        c12.intoMemorySegment(w, 384, NATIVE);
        c13.intoMemorySegment(w, 416, NATIVE);
        c14.intoMemorySegment(w, 448, NATIVE);
        c15.intoMemorySegment(w, 480, NATIVE);
    }

    private static void tile16ShortBack(MemorySegment w, MemorySegment dst, long db, long dRow) {
        ShortVector a0 = ShortVector.fromMemorySegment(S16, w, 0, NATIVE);
        ShortVector a1 = ShortVector.fromMemorySegment(S16, w, 32, NATIVE);
        ShortVector a2 = ShortVector.fromMemorySegment(S16, w, 64, NATIVE);
        ShortVector a3 = ShortVector.fromMemorySegment(S16, w, 96, NATIVE);
        ShortVector a4 = ShortVector.fromMemorySegment(S16, w, 128, NATIVE);
        ShortVector a5 = ShortVector.fromMemorySegment(S16, w, 160, NATIVE);
        ShortVector a6 = ShortVector.fromMemorySegment(S16, w, 192, NATIVE);
        ShortVector a7 = ShortVector.fromMemorySegment(S16, w, 224, NATIVE);
        ShortVector a8 = ShortVector.fromMemorySegment(S16, w, 256, NATIVE);
        ShortVector a9 = ShortVector.fromMemorySegment(S16, w, 288, NATIVE);
        ShortVector a10 = ShortVector.fromMemorySegment(S16, w, 320, NATIVE);
        ShortVector a11 = ShortVector.fromMemorySegment(S16, w, 352, NATIVE);
        ShortVector a12 = ShortVector.fromMemorySegment(S16, w, 384, NATIVE);
        ShortVector a13 = ShortVector.fromMemorySegment(S16, w, 416, NATIVE);
        ShortVector a14 = ShortVector.fromMemorySegment(S16, w, 448, NATIVE);
        ShortVector a15 = ShortVector.fromMemorySegment(S16, w, 480, NATIVE);
        ShortVector b0 = IDX_SA4.selectFrom(a0, a4);
        ShortVector b4 = IDX_SB4.selectFrom(a0, a4);
        ShortVector b1 = IDX_SA4.selectFrom(a1, a5);
        ShortVector b5 = IDX_SB4.selectFrom(a1, a5);
        ShortVector b2 = IDX_SA4.selectFrom(a2, a6);
        ShortVector b6 = IDX_SB4.selectFrom(a2, a6);
        ShortVector b3 = IDX_SA4.selectFrom(a3, a7);
        ShortVector b7 = IDX_SB4.selectFrom(a3, a7);
        ShortVector b8 = IDX_SA4.selectFrom(a8, a12);
        ShortVector b12 = IDX_SB4.selectFrom(a8, a12);
        ShortVector b9 = IDX_SA4.selectFrom(a9, a13);
        ShortVector b13 = IDX_SB4.selectFrom(a9, a13);
        ShortVector b10 = IDX_SA4.selectFrom(a10, a14);
        ShortVector b14 = IDX_SB4.selectFrom(a10, a14);
        ShortVector b11 = IDX_SA4.selectFrom(a11, a15);
        ShortVector b15 = IDX_SB4.selectFrom(a11, a15);
        ShortVector c0 = IDX_SA8.selectFrom(b0, b8);
        ShortVector c8 = IDX_SB8.selectFrom(b0, b8);
        ShortVector c1 = IDX_SA8.selectFrom(b1, b9);
        ShortVector c9 = IDX_SB8.selectFrom(b1, b9);
        ShortVector c2 = IDX_SA8.selectFrom(b2, b10);
        ShortVector c10 = IDX_SB8.selectFrom(b2, b10);
        ShortVector c3 = IDX_SA8.selectFrom(b3, b11);
        ShortVector c11 = IDX_SB8.selectFrom(b3, b11);
        ShortVector c4 = IDX_SA8.selectFrom(b4, b12);
        ShortVector c12 = IDX_SB8.selectFrom(b4, b12);
        ShortVector c5 = IDX_SA8.selectFrom(b5, b13);
        ShortVector c13 = IDX_SB8.selectFrom(b5, b13);
        ShortVector c6 = IDX_SA8.selectFrom(b6, b14);
        ShortVector c14 = IDX_SB8.selectFrom(b6, b14);
        ShortVector c7 = IDX_SA8.selectFrom(b7, b15);
        ShortVector c15 = IDX_SB8.selectFrom(b7, b15);
        c0.intoMemorySegment(dst, db, NATIVE);
        c1.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        c2.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        c3.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        c4.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        c5.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        c6.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        c7.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
        c8.intoMemorySegment(dst, db + 8 * dRow, NATIVE);
        c9.intoMemorySegment(dst, db + 9 * dRow, NATIVE);
        c10.intoMemorySegment(dst, db + 10 * dRow, NATIVE);
        c11.intoMemorySegment(dst, db + 11 * dRow, NATIVE);
        c12.intoMemorySegment(dst, db + 12 * dRow, NATIVE);
        c13.intoMemorySegment(dst, db + 13 * dRow, NATIVE);
        c14.intoMemorySegment(dst, db + 14 * dRow, NATIVE);
        c15.intoMemorySegment(dst, db + 15 * dRow, NATIVE);
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

    private static void block8x8Short(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
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

    /**
     * One 16x16 tile of 2-byte elements with 256-bit vectors (little-endian): 16 source rows of 16
     * elements, each loaded as 8 int lanes of two elements. The first round swaps bit 0 of the row
     * index with bit 0 of the element index inside each int lane, in plain bit operations: rows 2k
     * and 2k + 1 give one row of the even elements' pairs (the low halves of both, the second row's
     * shifted up) and one of the odd elements' pairs (the high halves). Each of those two 8x8 tiles of
     * pairs is then transposed as ints ({@link #block8x8Int}'s three rounds), and its row m is
     * destination row 2m (even) or 2m + 1 (odd), all 16 elements in order. No lane permute of shorts:
     * AVX2 has none across 128-bit halves, while those of ints are one instruction each. The two halves
     * are separate methods, each loading the 16 rows (from L1 the second time), so each fits the 16
     * vector registers of AVX2.
     */
    static void tile16Pairs(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        tile16PairsEven(src, sb, sRow, dst, db, dRow);
        tile16PairsOdd(src, sb, sRow, dst, db, dRow);
    }

    /** The even destination rows of {@link #tile16Pairs}. */
    private static void tile16PairsEven(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I8, src, sb + 0 * sRow, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector a8 = IntVector.fromMemorySegment(I8, src, sb + 8 * sRow, NATIVE);
        IntVector a9 = IntVector.fromMemorySegment(I8, src, sb + 9 * sRow, NATIVE);
        IntVector a10 = IntVector.fromMemorySegment(I8, src, sb + 10 * sRow, NATIVE);
        IntVector a11 = IntVector.fromMemorySegment(I8, src, sb + 11 * sRow, NATIVE);
        IntVector a12 = IntVector.fromMemorySegment(I8, src, sb + 12 * sRow, NATIVE);
        IntVector a13 = IntVector.fromMemorySegment(I8, src, sb + 13 * sRow, NATIVE);
        IntVector a14 = IntVector.fromMemorySegment(I8, src, sb + 14 * sRow, NATIVE);
        IntVector a15 = IntVector.fromMemorySegment(I8, src, sb + 15 * sRow, NATIVE);
        IntVector p0 = a0.and(0xFFFF).or(a1.lanewise(VectorOperators.LSHL, 16));
        IntVector p1 = a2.and(0xFFFF).or(a3.lanewise(VectorOperators.LSHL, 16));
        IntVector p2 = a4.and(0xFFFF).or(a5.lanewise(VectorOperators.LSHL, 16));
        IntVector p3 = a6.and(0xFFFF).or(a7.lanewise(VectorOperators.LSHL, 16));
        IntVector p4 = a8.and(0xFFFF).or(a9.lanewise(VectorOperators.LSHL, 16));
        IntVector p5 = a10.and(0xFFFF).or(a11.lanewise(VectorOperators.LSHL, 16));
        IntVector p6 = a12.and(0xFFFF).or(a13.lanewise(VectorOperators.LSHL, 16));
        IntVector p7 = a14.and(0xFFFF).or(a15.lanewise(VectorOperators.LSHL, 16));
        IntVector x10 = p0.blend(p1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x11 = p0.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p1, I_M0);
        IntVector x12 = p2.blend(p3.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x13 = p2.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p3, I_M0);
        IntVector x14 = p4.blend(p5.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x15 = p4.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p5, I_M0);
        IntVector x16 = p6.blend(p7.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x17 = p6.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p7, I_M0);
        IntVector x20 = x10.blend(x12.rearrange(I_R1), I_M1);
        IntVector x22 = x10.rearrange(I_L1).blend(x12, I_M1);
        IntVector x21 = x11.blend(x13.rearrange(I_R1), I_M1);
        IntVector x23 = x11.rearrange(I_L1).blend(x13, I_M1);
        IntVector x24 = x14.blend(x16.rearrange(I_R1), I_M1);
        IntVector x26 = x14.rearrange(I_L1).blend(x16, I_M1);
        IntVector x25 = x15.blend(x17.rearrange(I_R1), I_M1);
        IntVector x27 = x15.rearrange(I_L1).blend(x17, I_M1);
        IntVector x30 = x20.blend(x24.rearrange(I_R2), I_M2);
        IntVector x34 = x20.rearrange(I_L2).blend(x24, I_M2);
        IntVector x31 = x21.blend(x25.rearrange(I_R2), I_M2);
        IntVector x35 = x21.rearrange(I_L2).blend(x25, I_M2);
        IntVector x32 = x22.blend(x26.rearrange(I_R2), I_M2);
        IntVector x36 = x22.rearrange(I_L2).blend(x26, I_M2);
        IntVector x33 = x23.blend(x27.rearrange(I_R2), I_M2);
        IntVector x37 = x23.rearrange(I_L2).blend(x27, I_M2);
        x30.intoMemorySegment(dst, db + 0 + 0 * dRow, NATIVE);
        x31.intoMemorySegment(dst, db + 0 + 2 * dRow, NATIVE);
        x32.intoMemorySegment(dst, db + 0 + 4 * dRow, NATIVE);
        x33.intoMemorySegment(dst, db + 0 + 6 * dRow, NATIVE);
        x34.intoMemorySegment(dst, db + 0 + 8 * dRow, NATIVE);
        x35.intoMemorySegment(dst, db + 0 + 10 * dRow, NATIVE);
        x36.intoMemorySegment(dst, db + 0 + 12 * dRow, NATIVE);
        x37.intoMemorySegment(dst, db + 0 + 14 * dRow, NATIVE);
    }

    /** The odd destination rows of {@link #tile16Pairs}. */
    private static void tile16PairsOdd(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I8, src, sb + 0 * sRow, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector a8 = IntVector.fromMemorySegment(I8, src, sb + 8 * sRow, NATIVE);
        IntVector a9 = IntVector.fromMemorySegment(I8, src, sb + 9 * sRow, NATIVE);
        IntVector a10 = IntVector.fromMemorySegment(I8, src, sb + 10 * sRow, NATIVE);
        IntVector a11 = IntVector.fromMemorySegment(I8, src, sb + 11 * sRow, NATIVE);
        IntVector a12 = IntVector.fromMemorySegment(I8, src, sb + 12 * sRow, NATIVE);
        IntVector a13 = IntVector.fromMemorySegment(I8, src, sb + 13 * sRow, NATIVE);
        IntVector a14 = IntVector.fromMemorySegment(I8, src, sb + 14 * sRow, NATIVE);
        IntVector a15 = IntVector.fromMemorySegment(I8, src, sb + 15 * sRow, NATIVE);
        IntVector p0 = a0.lanewise(VectorOperators.LSHR, 16).or(a1.and(0xFFFF_0000));
        IntVector p1 = a2.lanewise(VectorOperators.LSHR, 16).or(a3.and(0xFFFF_0000));
        IntVector p2 = a4.lanewise(VectorOperators.LSHR, 16).or(a5.and(0xFFFF_0000));
        IntVector p3 = a6.lanewise(VectorOperators.LSHR, 16).or(a7.and(0xFFFF_0000));
        IntVector p4 = a8.lanewise(VectorOperators.LSHR, 16).or(a9.and(0xFFFF_0000));
        IntVector p5 = a10.lanewise(VectorOperators.LSHR, 16).or(a11.and(0xFFFF_0000));
        IntVector p6 = a12.lanewise(VectorOperators.LSHR, 16).or(a13.and(0xFFFF_0000));
        IntVector p7 = a14.lanewise(VectorOperators.LSHR, 16).or(a15.and(0xFFFF_0000));
        IntVector x10 = p0.blend(p1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x11 = p0.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p1, I_M0);
        IntVector x12 = p2.blend(p3.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x13 = p2.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p3, I_M0);
        IntVector x14 = p4.blend(p5.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x15 = p4.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p5, I_M0);
        IntVector x16 = p6.blend(p7.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x17 = p6.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p7, I_M0);
        IntVector x20 = x10.blend(x12.rearrange(I_R1), I_M1);
        IntVector x22 = x10.rearrange(I_L1).blend(x12, I_M1);
        IntVector x21 = x11.blend(x13.rearrange(I_R1), I_M1);
        IntVector x23 = x11.rearrange(I_L1).blend(x13, I_M1);
        IntVector x24 = x14.blend(x16.rearrange(I_R1), I_M1);
        IntVector x26 = x14.rearrange(I_L1).blend(x16, I_M1);
        IntVector x25 = x15.blend(x17.rearrange(I_R1), I_M1);
        IntVector x27 = x15.rearrange(I_L1).blend(x17, I_M1);
        IntVector x30 = x20.blend(x24.rearrange(I_R2), I_M2);
        IntVector x34 = x20.rearrange(I_L2).blend(x24, I_M2);
        IntVector x31 = x21.blend(x25.rearrange(I_R2), I_M2);
        IntVector x35 = x21.rearrange(I_L2).blend(x25, I_M2);
        IntVector x32 = x22.blend(x26.rearrange(I_R2), I_M2);
        IntVector x36 = x22.rearrange(I_L2).blend(x26, I_M2);
        IntVector x33 = x23.blend(x27.rearrange(I_R2), I_M2);
        IntVector x37 = x23.rearrange(I_L2).blend(x27, I_M2);
        x30.intoMemorySegment(dst, db + dRow + 0 * dRow, NATIVE);
        x31.intoMemorySegment(dst, db + dRow + 2 * dRow, NATIVE);
        x32.intoMemorySegment(dst, db + dRow + 4 * dRow, NATIVE);
        x33.intoMemorySegment(dst, db + dRow + 6 * dRow, NATIVE);
        x34.intoMemorySegment(dst, db + dRow + 8 * dRow, NATIVE);
        x35.intoMemorySegment(dst, db + dRow + 10 * dRow, NATIVE);
        x36.intoMemorySegment(dst, db + dRow + 12 * dRow, NATIVE);
        x37.intoMemorySegment(dst, db + dRow + 14 * dRow, NATIVE);
    }

    private static void block8x8Int(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector v0 = IntVector.fromMemorySegment(I8, src, sb + 0 * sRow, NATIVE);
        IntVector v1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector v2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector v3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector v4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector v5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector v6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector v7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector x10 = v0.blend(v1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x11 = v0.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(v1, I_M0);
        IntVector x12 = v2.blend(v3.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x13 = v2.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(v3, I_M0);
        IntVector x14 = v4.blend(v5.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x15 = v4.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(v5, I_M0);
        IntVector x16 = v6.blend(v7.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x17 = v6.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(v7, I_M0);
        IntVector x20 = x10.blend(x12.rearrange(I_R1), I_M1);
        IntVector x22 = x10.rearrange(I_L1).blend(x12, I_M1);
        IntVector x21 = x11.blend(x13.rearrange(I_R1), I_M1);
        IntVector x23 = x11.rearrange(I_L1).blend(x13, I_M1);
        IntVector x24 = x14.blend(x16.rearrange(I_R1), I_M1);
        IntVector x26 = x14.rearrange(I_L1).blend(x16, I_M1);
        IntVector x25 = x15.blend(x17.rearrange(I_R1), I_M1);
        IntVector x27 = x15.rearrange(I_L1).blend(x17, I_M1);
        IntVector x30 = x20.blend(x24.rearrange(I_R2), I_M2);
        IntVector x34 = x20.rearrange(I_L2).blend(x24, I_M2);
        IntVector x31 = x21.blend(x25.rearrange(I_R2), I_M2);
        IntVector x35 = x21.rearrange(I_L2).blend(x25, I_M2);
        IntVector x32 = x22.blend(x26.rearrange(I_R2), I_M2);
        IntVector x36 = x22.rearrange(I_L2).blend(x26, I_M2);
        IntVector x33 = x23.blend(x27.rearrange(I_R2), I_M2);
        IntVector x37 = x23.rearrange(I_L2).blend(x27, I_M2);
        x30.intoMemorySegment(dst, db + 0 * dRow, NATIVE);
        x31.intoMemorySegment(dst, db + 1 * dRow, NATIVE);
        x32.intoMemorySegment(dst, db + 2 * dRow, NATIVE);
        x33.intoMemorySegment(dst, db + 3 * dRow, NATIVE);
        x34.intoMemorySegment(dst, db + 4 * dRow, NATIVE);
        x35.intoMemorySegment(dst, db + 5 * dRow, NATIVE);
        x36.intoMemorySegment(dst, db + 6 * dRow, NATIVE);
        x37.intoMemorySegment(dst, db + 7 * dRow, NATIVE);
    }

}
