package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Relayout with conversion in the same pass, f32 to bf16 (round to nearest even; a NaN keeps its
 * sign and top payload bits and becomes quiet, as {@code BFloat16.fromFloat}): the fast path for
 * moving f32 weights into a bf16 layout, transposed or tiled, without a second pass.
 *
 * <p>Each loop nest (in element units; source elements 4 bytes, destination 2) runs one of
 * three ways: runs contiguous on both sides convert a vector at a time; a transposing nest (the
 * innermost loop contiguous in the destination, another in the source) rounds 32 source rows of 16
 * f32 as it loads them, zips them in pairs and transposes the 16×16 tile of 32-bit pairs, as
 * {@link TransposeKernels#tile32Short} does for bf16, so each destination row is written as a
 * whole 64-byte line ({@link #tile32F32ToBf16}; 512-bit vectors and little-endian only, element by
 * element elsewhere); anything else converts element by element. Stateless and thread-safe.
 *
 * <p>The vector rounding is written out in each loop that uses it, not called from a helper that
 * takes or returns a vector. C2 inlines a method of more than 35 bytes of bytecode only at call
 * sites its profile shows hot; a caller recompiled after a deoptimisation with a profile gathered
 * while its loop ran few iterations (as can happen in a JVM that has run many shapes) then calls
 * the helper out of line with every vector boxed, three to four times slower, for the life of the
 * process.
 * The rounding of lanes {@code v} is: {@code h = v >>> 16}, code {@code (v + 0x7FFF + (h & 1)) >>> 16},
 * or {@code h | 0x40} where {@code v} is a NaN ({@code (v & 0x7FFFFFFF) > 0x7F800000}).
 */
public final class ConvertKernels {
    private ConvertKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S32 = ShortVector.SPECIES_512;
    /** The species of the run kernel: the widest int vectors, and shorts of the same lane count. */
    private static final VectorSpecies<Integer> IR = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SR = VectorSpecies.of(short.class,
            VectorShape.forBitSize(Math.max(64, IR.vectorBitSize() / 2)));
    static final boolean RUN_VECTOR = Tuning.VECTOR && SR.length() == IR.length();


    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;

    /** {@return the bf16 code of the f32 with these bits, rounded to nearest even} */
    public static short bf16(int bits) {
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /** {@code dst[dO + k] = bf16(src[so + k])} for {@code k < n} ({@link Kernel#CONVERT_RUNS}). */
    public static void run(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        KernelTrace.ran(Kernel.CONVERT_RUNS);
        long k = 0;
        if (RUN_VECTOR) {
            int lanes = IR.length();
            for (; k + lanes <= n; k += lanes) {
                IntVector v = IntVector.fromMemorySegment(IR, src, (so + k) * 4, NATIVE);
                IntVector h = v.lanewise(VectorOperators.LSHR, 16);
                IntVector code = v.add(h.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                        .blend(h.or(0x40), v.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
                ((ShortVector) code.convertShape(VectorOperators.I2S, SR, 0))
                        .intoMemorySegment(dst, (dO + k) * 2, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(S, (dO + k) * 2, bf16(src.get(I, (so + k) * 4)));
        }
    }

    /** {@code dst[dO + k·t] = bf16(src[so + k·s])} for {@code k < n} ({@link Kernel#CONVERT_ELEMENTS}). */
    public static void line(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n) {
        KernelTrace.ran(Kernel.CONVERT_ELEMENTS);
        stridedLine(src, so, s, dst, dO, t, n);
    }

    /** dst[dO + k·t] = bf16(src[so + k·s]) for k < n: the element loop of the remainders. */
    private static void stridedLine(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n) {
        for (long k = 0; k < n; k++) {
            dst.set(S, (dO + k * t) * 2, bf16(src.get(I, (so + k * s) * 4)));
        }
    }

    /**
     * dst[dO + 2i + j] = bf16(src[so + i + j·sJ]), j in {0, 1}: two f32 rows into interleaved bf16
     * pairs (the {@code (2,1)} sub-tile). Each pair is one 32-bit lane, the first row's code in its
     * low half (little-endian machines only), so no permute is needed.
     */
    public static void zip2(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI) {
        KernelTrace.ran(Kernel.CONVERT_ZIP_2);
        int lanes = IR.length();
        long i = 0;
        for (; i + lanes <= nI; i += lanes) {
            IntVector a = IntVector.fromMemorySegment(IR, src, (so + i) * 4, NATIVE);
            IntVector b = IntVector.fromMemorySegment(IR, src, (so + i + sJ) * 4, NATIVE);
            IntVector ha = a.lanewise(VectorOperators.LSHR, 16);
            IntVector hb = b.lanewise(VectorOperators.LSHR, 16);
            IntVector low = a.add(ha.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                    .blend(ha.or(0x40), a.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
            IntVector high = b.add(hb.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                    .blend(hb.or(0x40), b.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
            low.or(high.lanewise(VectorOperators.LSHL, 16)).intoMemorySegment(dst, (dO + 2 * i) * 2, NATIVE);
        }
        for (; i < nI; i++) {
            dst.set(S, (dO + 2 * i) * 2, bf16(src.get(I, (so + i) * 4)));
            dst.set(S, (dO + 2 * i + 1) * 2, bf16(src.get(I, (so + i + sJ) * 4)));
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = bf16(src[so + i + j·sJ])} for {@code i < nI}, {@code j < nJ}, in 16x16 tiles of pairs
     * ({@link #tile32F32ToBf16}) in blocks of {@code blockI} by {@code blockJ} (multiples of 32), the
     * remainders element by element ({@link Kernel#CONVERT_TILES_16}: 512-bit vectors, little endian).
     */
    public static void tiles(MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI, long nJ, long sJ,
                             long bi, long bj) {
        KernelTrace.ran(Kernel.CONVERT_TILES_16);
        long fullI = nI - nI % 16;
        long fullJ = nJ - nJ % 32;
        long sRow = sJ * 4;
        long dRow = tI * 2;
        MemorySegment w = TransposeKernels.TILE_BUFFER.get();
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
                        tile32F32ToBf16(src, sb, sRow, dst, db, dRow, w);
                    }
                }
            }
        }
        remainders(src, so, dst, dO, nI, tI, nJ, sJ, fullI, fullJ);
    }

    /**
     * {@code dst[dO + i·tI + j] = bf16(src[so + i + j·sJ])} for {@code i < nI}, {@code j < nJ}, element by
     * element ({@link Kernel#CONVERT_TRANSPOSE_ELEMENTS}).
     */
    public static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI, long nJ,
                                 long sJ) {
        KernelTrace.ran(Kernel.CONVERT_TRANSPOSE_ELEMENTS);
        remainders(src, so, dst, dO, nI, tI, nJ, sJ, 0, 0);
    }

    /** The elements outside the whole tiles: columns i >= fullI; rows j >= fullJ for i < fullI. */
    private static void remainders(MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI, long nJ,
                                   long sJ, long fullI, long fullJ) {
        for (long j = 0; j < nJ; j++) {
            stridedLine(src, so + fullI + j * sJ, 1, dst, dO + fullI * tI + j, tI, nI - fullI);
        }
        for (long j = fullJ; j < nJ; j++) {
            stridedLine(src, so + j * sJ, 1, dst, dO + j, tI, fullI);
        }
    }

    /**
     * Lane indexes into {@code a ++ b} (32 shorts each, 16 ints seen as shorts) that zip the high
     * halves of a's and b's ints: lane 2c takes a[2c + 1], lane 2c + 1 takes b[2c + 1] (little endian).
     */
    private static final ShortVector HIGH_ZIP = highZip();

    private static ShortVector highZip() {
        short[] x = new short[32];
        for (int c = 0; c < 32; c++) {
            x[c] = (short) ((c & 1) == 0 ? c + 1 : 32 + c);
        }
        return ShortVector.fromArray(S32, x, 0);
    }

    /**
     * 32 f32 source rows (from {@code sb}, {@code sRow} bytes apart) of 16 lanes each to 16 bf16
     * destination rows of 32 elements, each a whole 64-byte line. Rounding is elementwise, so it is
     * done first, on the rows as loaded; zipping the rounded codes of rows 2k and 2k+1 makes a row
     * of 32-bit pairs, and the 16 zipped rows are a 16x16 tile of pairs, transposed as
     * {@link TransposeKernels#tile32Short} transposes its pairs: each row out is a destination row.
     * Four pairs of rows at a time go through the zip and the first two rounds into {@code w}
     * ({@link #tile32F32ToBf16Front}), then the last two rounds store the lines. Little endian only.
     */
    static void tile32F32ToBf16(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow,
                                MemorySegment w) {
        tile32F32ToBf16Front(src, sb, sRow, w, 0);
        tile32F32ToBf16Front(src, sb + 8 * sRow, sRow, w, 256);
        tile32F32ToBf16Front(src, sb + 16 * sRow, sRow, w, 512);
        tile32F32ToBf16Front(src, sb + 24 * sRow, sRow, w, 768);
        TransposeKernels.tile16IntBack(w, 0, dst, db, dRow);
    }

    /**
     * Rounds eight f32 source rows, zips them in pairs into four rows of bf16 pairs and runs the
     * first two rounds of the 16x16 tile of pairs on them, into {@code w} from {@code wo}.
     */
    private static void tile32F32ToBf16Front(MemorySegment src, long sb, long sRow, MemorySegment w, long wo) {
        IntVector v0 = IntVector.fromMemorySegment(I16, src, sb, NATIVE);
        IntVector v1 = IntVector.fromMemorySegment(I16, src, sb + sRow, NATIVE);
        IntVector v2 = IntVector.fromMemorySegment(I16, src, sb + 2 * sRow, NATIVE);
        IntVector v3 = IntVector.fromMemorySegment(I16, src, sb + 3 * sRow, NATIVE);
        IntVector v4 = IntVector.fromMemorySegment(I16, src, sb + 4 * sRow, NATIVE);
        IntVector v5 = IntVector.fromMemorySegment(I16, src, sb + 5 * sRow, NATIVE);
        IntVector v6 = IntVector.fromMemorySegment(I16, src, sb + 6 * sRow, NATIVE);
        IntVector v7 = IntVector.fromMemorySegment(I16, src, sb + 7 * sRow, NATIVE);
        // each lane rounded in its high half: v + 0x7FFF + (h & 1), or v | 0x0040_0000 for a NaN
        IntVector h0 = v0.lanewise(VectorOperators.LSHR, 16);
        IntVector h1 = v1.lanewise(VectorOperators.LSHR, 16);
        IntVector h2 = v2.lanewise(VectorOperators.LSHR, 16);
        IntVector h3 = v3.lanewise(VectorOperators.LSHR, 16);
        IntVector h4 = v4.lanewise(VectorOperators.LSHR, 16);
        IntVector h5 = v5.lanewise(VectorOperators.LSHR, 16);
        IntVector h6 = v6.lanewise(VectorOperators.LSHR, 16);
        IntVector h7 = v7.lanewise(VectorOperators.LSHR, 16);
        IntVector q0 = v0.add(h0.and(1)).add(0x7FFF)
                .blend(v0.or(0x0040_0000), v0.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q1 = v1.add(h1.and(1)).add(0x7FFF)
                .blend(v1.or(0x0040_0000), v1.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q2 = v2.add(h2.and(1)).add(0x7FFF)
                .blend(v2.or(0x0040_0000), v2.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q3 = v3.add(h3.and(1)).add(0x7FFF)
                .blend(v3.or(0x0040_0000), v3.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q4 = v4.add(h4.and(1)).add(0x7FFF)
                .blend(v4.or(0x0040_0000), v4.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q5 = v5.add(h5.and(1)).add(0x7FFF)
                .blend(v5.or(0x0040_0000), v5.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q6 = v6.add(h6.and(1)).add(0x7FFF)
                .blend(v6.or(0x0040_0000), v6.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector q7 = v7.add(h7.and(1)).add(0x7FFF)
                .blend(v7.or(0x0040_0000), v7.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
        IntVector a0 = HIGH_ZIP.selectFrom(q0.reinterpretAsShorts(), q1.reinterpretAsShorts()).reinterpretAsInts();
        IntVector a1 = HIGH_ZIP.selectFrom(q2.reinterpretAsShorts(), q3.reinterpretAsShorts()).reinterpretAsInts();
        IntVector a2 = HIGH_ZIP.selectFrom(q4.reinterpretAsShorts(), q5.reinterpretAsShorts()).reinterpretAsInts();
        IntVector a3 = HIGH_ZIP.selectFrom(q6.reinterpretAsShorts(), q7.reinterpretAsShorts()).reinterpretAsInts();
        IntVector b0 = TransposeKernels.IDX_IA1.selectFrom(a0, a1);
        IntVector b1 = TransposeKernels.IDX_IB1.selectFrom(a0, a1);
        IntVector b2 = TransposeKernels.IDX_IA1.selectFrom(a2, a3);
        IntVector b3 = TransposeKernels.IDX_IB1.selectFrom(a2, a3);
        TransposeKernels.IDX_IA2.selectFrom(b0, b2).intoMemorySegment(w, wo, NATIVE);
        TransposeKernels.IDX_IA2.selectFrom(b1, b3).intoMemorySegment(w, wo + 64, NATIVE);
        TransposeKernels.IDX_IB2.selectFrom(b0, b2).intoMemorySegment(w, wo + 128, NATIVE);
        TransposeKernels.IDX_IB2.selectFrom(b1, b3).intoMemorySegment(w, wo + 192, NATIVE);
    }
}
