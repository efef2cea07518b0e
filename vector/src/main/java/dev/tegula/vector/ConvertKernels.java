package dev.tegula.vector;

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
 * <p>Each {@link LoopNest} (in element units; source elements 4 bytes, destination 2) runs one of
 * three ways: runs contiguous on both sides convert a vector at a time; a transposing nest (the
 * innermost loop contiguous in the destination, another in the source) transposes 16×16 f32 tiles
 * in registers, as {@link TransposeKernels} does, and rounds each destination row as it is stored,
 * two tiles side by side so each destination row is written as a whole 64-byte line (512-bit
 * vectors only; other widths convert element by element there); anything else converts element
 * by element. Stateless and thread-safe.
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


    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;

    /** {@return the bf16 code of the f32 with these bits, rounded to nearest even} */
    static short bf16(int bits) {
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /**
     * Runs a walk's nest restricted to indices {@code [from, to)} of its split loop (in element
     * units: source elements 4 bytes, destination 2).
     */
    static void run(Walk w, MemorySegment src, MemorySegment dst, long from, long to) {
        LoopNest nest = w.nest();
        Kernels.Mode m = Kernels.mode(nest);
        int d = nest.depth();
        int inner = d - 1;
        int skip = m == Kernels.Mode.TRANSPOSE ? nest.sourceContiguousLoop() : -1;
        long[] n = nest.extents();
        long[] s = nest.srcStrides();
        long[] t = nest.dstStrides();
        long[] lo = new long[d];
        long[] hi = n.clone();
        lo[w.split()] = Math.max(0, from);
        hi[w.split()] = Math.min(n[w.split()], to);
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
                case TRANSPOSE -> transpose(src, so + lo[skip], dst, dO + lo[skip] * t[skip], hi[skip] - lo[skip], t[skip],
                        nj, s[inner], w);
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

    /** dst[dO + k·t] = bf16(src[so + k·s]) for k < n. */
    static void line(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n) {
        for (long k = 0; k < n; k++) {
            dst.set(S, (dO + k * t) * 2, bf16(src.get(I, (so + k * s) * 4)));
        }
    }

    /**
     * dst[dO + 2i + j] = bf16(src[so + i + j·sJ]), j in {0, 1}: two f32 rows into interleaved bf16
     * pairs (the {@code (2,1)} sub-tile). Each pair is one 32-bit lane, the first row's code in its
     * low half (little-endian machines only), so no permute is needed.
     */
    private static void zip2(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI) {
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

    /** dst[dO + i·tI + j] = bf16(src[so + i + j·sJ]) for i < nI, j < nJ. */
    static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI, long nJ,
                          long sJ, Walk walk) {
        if (RUN_VECTOR && nJ == 2 && tI == 2 && NATIVE == ByteOrder.LITTLE_ENDIAN) {
            zip2(src, so, sJ, dst, dO, nI);
            return;
        }
        long fullI = 0;
        long fullJ = 0;
        if (walk.tile() == 16 && nI >= 16 && nJ >= 32) {
            fullI = nI - nI % 16;
            fullJ = nJ - nJ % 32;
            long sRow = sJ * 4;
            long dRow = tI * 2;
            MemorySegment w = TransposeKernels.TILE_BUFFER.get();
            long bi = walk.blockI();
            long bj = walk.blockJ();
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
     * One 16x16 f32 tile: transposed by {@link TransposeKernels#tile16Int} into the per-thread
     * buffer {@code w} (in L1), then each row rounded to bf16 and stored (32 bytes). Converting as
     * part of the transposing method is much slower: with sixteen conversions in it, C2 left some
     * of them out of line, and a vector passed out of line is boxed.
     */
    static void tile16F32ToBf16(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow,
                                MemorySegment w) {
        TransposeKernels.tile16Int(src, sb, sRow, w, 0, 64, w);
        for (int r = 0; r < 16; r++) {
            IntVector v = IntVector.fromMemorySegment(I16, w, r * 64L, NATIVE);
            IntVector h = v.lanewise(VectorOperators.LSHR, 16);
            IntVector code = v.add(h.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                    .blend(h.or(0x40), v.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
            ((ShortVector) code.convertShape(VectorOperators.I2S, S16, 0))
                    .intoMemorySegment(dst, db + r * dRow, NATIVE);
        }
    }
}
