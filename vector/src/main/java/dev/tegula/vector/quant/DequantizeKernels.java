package dev.tegula.vector.quant;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.BFloat16;
import dev.tegula.ffm.internal.RawSlots;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API kernels that dequantize a run of {@link QuantBlock} blocks into little-endian f32.
 * Each works on groups of {@code L} elements (8 with 256-bit vectors, 16 with 512-bit ones) that
 * share one scale and one minimum: the group's quants are gathered from their packed bytes with byte
 * shifts and masks, widened to f32 ({@code B2F}) and scaled with the same f32 operations, in the same
 * order, as the definition ({@code d * q}, {@code d * q + m}, {@code dl * q - ml}), so the results
 * are bit-identical to the scalar reference in the tests ({@code ReferenceDequantize}). No fused
 * multiply-add is used (it would round once instead of twice). The kernels into bf16 tiles of
 * Q4_0, Q4_1, Q5_0 and Q5_1 (512-bit vectors) compute each block's 16 or 32 possible values that way,
 * round them once into a table and look the elements up by quant ({@link #nibbleBf16TilesByTable},
 * {@link #q5Bf16Tiles}).
 *
 * <p>NaN: Java leaves open which operand's NaN an f32 operation returns when two are NaN (x86 takes
 * the first operand's, and C2 may swap the operands of a product or a sum), so every element whose
 * value is NaN is written as the one quiet NaN {@code 0x7FC00000} (bf16 {@code 0x7FC0}): the same bits
 * on every path, tier, thread split and vector width. Only a block with a non-finite scale or
 * minimum can give a NaN (finite ones give finite values); its elements are rewritten after the
 * block ({@link #canonicalNaNs}) or rounded with {@link #bf16Dequantized}, a branch per block
 * otherwise. Stateless and thread-safe; bounds and lifetime are checked by the segments.
 *
 * <p>The bf16 rounding of the common paths is written out in each loop, not called from a helper
 * that takes or returns a vector: C2 inlines one of more than 35 bytes of bytecode only at call
 * sites its profile shows hot, and where it does not, every vector crosses the call boxed (see
 * {@code ConvertKernels}). The helpers kept in common paths ({@link #bytes}, {@link #widen},
 * {@link #bits}) are under that size.
 */
final class DequantizeKernels {
    private DequantizeKernels() {
    }

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512
            ? FloatVector.SPECIES_512 : FloatVector.SPECIES_256;
    /** Lanes per group: 8 or 16. */
    static final int L = F.length();
    private static final VectorSpecies<Byte> B = L == 16 ? ByteVector.SPECIES_128 : ByteVector.SPECIES_64;
    private static final long LANE_BITS = (1L << L) - 1;

    private static float f16(MemorySegment s, long off) {
        return Float.float16ToFloat(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
    }

    private static int u8(MemorySegment s, long off) {
        return Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, off));
    }

    private static ByteVector bytes(MemorySegment s, long off) {
        return ByteVector.fromMemorySegment(B, s, off, LE);
    }

    private static FloatVector widen(ByteVector q) {
        return (FloatVector) q.convertShape(VectorOperators.B2F, F, 0);
    }

    /** {@code (v >>> shift) & mask} per byte lane, as unsigned bytes. */
    private static ByteVector bits(ByteVector v, int shift, int mask) {
        return v.lanewise(VectorOperators.LSHR, shift).and((byte) mask);
    }

    private static final VectorSpecies<Integer> I = F.length() == 16 ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
    private static final VectorSpecies<Short> S = F.length() == 16 ? ShortVector.SPECIES_256 : ShortVector.SPECIES_128;

    /**
     * Converts {@code n} f32 values at {@code floats[0]} into elements of {@code type} ({@code slotBits}
     * per slot, a multiple of 8) at slots {@code [slot, slot + n)} of {@code dst}, rounding exactly as the
     * relayout engine does: bf16 with Vector API lanes (nearest even, NaN kept quiet, as
     * {@code BFloat16.fromFloat}), any other type element by element through its conversion.
     */
    static void convert(MemorySegment floats, ElementType type, long slotBits, MemorySegment dst, long slot, long n) {
        if (type == ElementType.BF16) {
            long i = 0;
            for (; i <= n - L; i += L) {
                IntVector v = FloatVector.fromMemorySegment(F, floats, 4 * i, LE).reinterpretAsInts();
                IntVector h = v.lanewise(VectorOperators.LSHR, 16);
                v.add(h.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                        .blend(h.or(0x40), v.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000))
                        .convertShape(VectorOperators.I2S, S, 0).intoMemorySegment(dst, 2 * (slot + i), LE);
            }
            for (; i < n; i++) {
                dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * (slot + i), BFloat16.fromFloat(floats.get(F32, 4 * i)));
            }
            return;
        }
        for (long i = 0; i < n; i++) {
            long raw = Integer.toUnsignedLong(floats.get(ValueLayout.JAVA_INT_UNALIGNED, 4 * i));
            RawSlots.write(dst, slot + i, slotBits, RawSlots.convert(ElementType.F32, type, raw));
        }
    }

    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /**
     * {@return the bf16 codes of dequantized lanes (nearest even), every NaN lane the quiet NaN
     * {@code 0x7FC0}}: for blocks whose scale or minimum is not finite, rare, so a call out of line
     * (its vectors boxed) costs little there; the common paths round in line.
     */
    private static IntVector bf16Dequantized(FloatVector v) {
        IntVector bits = v.reinterpretAsInts();
        VectorMask<Integer> nan = bits.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000);
        IntVector rounded = bits.add(0x7FFF).add(bits.lanewise(VectorOperators.LSHR, 16).and(1))
                .lanewise(VectorOperators.LSHR, 16);
        return rounded.blend(CANONICAL_NAN >>> 16, nan);
    }

    /** The bits of the one NaN a dequantized element can be. */
    static final int CANONICAL_NAN = 0x7FC0_0000;

    /**
     * Rewrites every NaN among the {@code n} f32 values at {@code dst[off]} as {@link #CANONICAL_NAN}:
     * called after a block whose scale or minimum is not finite. Out of line (rare), no vector in its
     * signature.
     */
    private static void canonicalNaNs(MemorySegment dst, long off, int n) {
        for (int i = 0; i < n; i++) {
            int bits = dst.get(ValueLayout.JAVA_INT_UNALIGNED, off + 4L * i);
            if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
                dst.set(ValueLayout.JAVA_INT_UNALIGNED, off + 4L * i, CANONICAL_NAN);
            }
        }
    }

    /** {@return whether both values are finite (a block's scale and minimum; no NaN can come of them then)} */
    private static boolean finite(float a, float b) {
        return Float.isFinite(a) && Float.isFinite(b);
    }

    /**
     * Rounds a tile row of 8 f32 rows ({@code rows}: row {@code r} at byte {@code 4 r cols}) to bf16
     * and writes its {@code T(8,128)(2,1)} tiles into {@code dst} (the tile row's {@code 16 cols}
     * bytes) in memory order: step {@code m} is row pair {@code k = m % 4} of tile {@code m / 4},
     * 256 codes ({@code a0 b0 a1 b1 ...}) at byte {@code 512 m}. {@code cols} is a multiple of 128
     * and at most {@link #MAX_TILE_ROW_COLS}.
     */
    static void zipBf16Tiles(MemorySegment rows, long cols, MemorySegment dst) {
        int steps = (int) (cols / 32);
        for (int m = 0; m < steps; m++) {
            long a = 4 * ((2L * (m & 3)) * cols + (m >>> 2) * 128L);
            long b = a + 4 * cols;
            long o = m * 512L;
            for (int j = 0; j < 128; j += L) {
                IntVector x = FloatVector.fromMemorySegment(F, rows, a + 4L * j, LE).reinterpretAsInts();
                IntVector y = FloatVector.fromMemorySegment(F, rows, b + 4L * j, LE).reinterpretAsInts();
                IntVector hx = x.lanewise(VectorOperators.LSHR, 16);
                IntVector hy = y.lanewise(VectorOperators.LSHR, 16);
                IntVector lo = x.add(hx.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                        .blend(hx.or(0x40), x.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
                IntVector hi = y.add(hy.and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                        .blend(hy.or(0x40), y.and(0x7FFF_FFFF).compare(VectorOperators.GT, 0x7F80_0000));
                lo.or(hi.lanewise(VectorOperators.LSHL, 16)).intoMemorySegment(dst, o + 4L * j, LE);
            }
        }
    }

    /** Dequantizes {@code blocks} blocks of {@code q} at {@code src[srcOff]} to f32 at {@code dst[dstOff]}. */
    static void run(QuantBlock q, MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        switch (q) {
            case Q4_0 -> q4_0(src, srcOff, dst, dstOff, blocks);
            case Q4_1 -> q4_1(src, srcOff, dst, dstOff, blocks);
            case Q5_0 -> q5(src, srcOff, dst, dstOff, blocks, false);
            case Q5_1 -> q5(src, srcOff, dst, dstOff, blocks, true);
            case Q8_0 -> q8_0(src, srcOff, dst, dstOff, blocks);
            case Q2_K -> q2_k(src, srcOff, dst, dstOff, blocks);
            case Q3_K -> q3_k(src, srcOff, dst, dstOff, blocks);
            case Q4_K -> q45_k(src, srcOff, dst, dstOff, blocks, false);
            case Q5_K -> q45_k(src, srcOff, dst, dstOff, blocks, true);
            case Q6_K -> Q6kKernels.toFloats(src, srcOff, dst, dstOff, blocks);
        }
    }

    static void q8_0(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * 34;
            long o = dstOff + b * 128;
            float scale = f16(src, s);
            FloatVector d = FloatVector.broadcast(F, scale);
            for (int j = 0; j < 32; j += L) {
                widen(bytes(src, s + 2 + j)).mul(d).intoMemorySegment(dst, o + 4L * j, LE);
            }
            if (!Float.isFinite(scale)) {
                canonicalNaNs(dst, o, 32);
            }
        }
    }

    static void q4_0(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * 18;
            long o = dstOff + b * 128;
            float scale = f16(src, s);
            FloatVector d = FloatVector.broadcast(F, scale);
            for (int j = 0; j < 16; j += L) {
                ByteVector v = bytes(src, s + 2 + j);
                widen(v.and((byte) 0xF).sub((byte) 8)).mul(d).intoMemorySegment(dst, o + 4L * j, LE);
                widen(bits(v, 4, 0xF).sub((byte) 8)).mul(d).intoMemorySegment(dst, o + 4L * (16 + j), LE);
            }
            if (!Float.isFinite(scale)) {
                canonicalNaNs(dst, o, 32);
            }
        }
    }

    /**
     * {@code L} quants of two rows, bytes at {@code src[qa]} and {@code src[qb]} ({@code (byte >>> shift) & mask}
     * minus {@code bias}, as unsigned bytes then signed: Q4_0's nibbles; {@code mask} -1 and {@code bias} 0
     * for Q8_0's signed bytes), scaled by {@code da} and {@code db}, rounded to bf16 and stored
     * interleaved ({@code a0 b0 a1 b1 ...}) at {@code dst[off]}. No vector crosses a method boundary,
     * so nothing is boxed whether or not C2 inlines it; the kernels call it from one site each, because
     * a second inlined copy passed C2's node budget (NodeCountInliningCutoff) and left the Vector API
     * calls inside out of line (boxed, several times slower).
     */
    private static void zipPair(MemorySegment src, long qa, long qb, int shift, int mask, int bias, float da, float db,
                                MemorySegment dst, long off) {
        if (!Float.isFinite(da) || !Float.isFinite(db)) {
            zipPairNonFinite(src, qa, qb, shift, mask, bias, da, db, dst, off);
            return;
        }
        ByteVector va = bytes(src, qa);
        ByteVector vb = bytes(src, qb);
        if (mask != -1) {
            va = bits(va, shift, mask).sub((byte) bias);
            vb = bits(vb, shift, mask).sub((byte) bias);
        }
        IntVector x = widen(va).mul(da).reinterpretAsInts();
        IntVector y = widen(vb).mul(db).reinterpretAsInts();
        // a finite scale times a quant of at most 128 in size is finite, never NaN, so the plain
        // round-to-nearest-even of the top half (add 0x7FFF plus the lowest kept bit) is exact; the
        // second row's code stays in the high half (masked, not shifted down and up again)
        IntVector lo = x.add(x.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16);
        IntVector hi = y.add(y.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000);
        lo.or(hi).intoMemorySegment(dst, off, LE);
    }

    /** {@link #zipPair} when a scale is infinite or NaN: products may be NaN, rounded by {@link #bf16Dequantized}. */
    private static void zipPairNonFinite(MemorySegment src, long qa, long qb, int shift, int mask, int bias, float da,
                                         float db, MemorySegment dst, long off) {
        ByteVector va = bytes(src, qa);
        ByteVector vb = bytes(src, qb);
        if (mask != -1) {
            va = bits(va, shift, mask).sub((byte) bias);
            vb = bits(vb, shift, mask).sub((byte) bias);
        }
        IntVector lo = bf16Dequantized(widen(va).mul(da));
        IntVector hi = bf16Dequantized(widen(vb).mul(db));
        lo.or(hi.lanewise(VectorOperators.LSHL, 16)).intoMemorySegment(dst, off, LE);
    }

    /**
     * The 32-column group of a row that step {@code m} of a tile row's walk in memory order takes
     * ({@link #q8_0Bf16Tiles}): tile {@code m / 16}, group {@code m % 4} of its 128 columns.
     */
    private static int group(int m) {
        return (m >>> 4) * 4 + (m & 3);
    }

    /** The byte offset, in a tile row's 8 source rows, of the first row of the pair step {@code m} takes ({@code 2 ((m / 4) % 4)}). */
    private static long pairRow(int m, long rowBytes) {
        return ((m >>> 2) & 3) * 2 * rowBytes;
    }

    /**
     * One tile row of a Q8_0 matrix into its bf16 {@code T(8,128)(2,1)} tiles: {@code src} holds the
     * tile row's 8 matrix rows ({@code rowBytes} each, {@code cols / 32} blocks), {@code dst} the tile
     * row's {@code cols * 16} bytes. Step {@code m} takes block {@code (m / 16) * 4 + m % 4} of rows
     * {@code 2k} and {@code 2k + 1} ({@code k = (m / 4) % 4}) and writes its 32 column pairs, rounded and
     * interleaved, at byte {@code 128 m}: the tiles are written whole, in order, one 128-byte run
     * after the other. The same values as {@link #q8_0} then {@link #zipBf16Tiles}, with no f32 buffer.
     * {@code cols} is a multiple of 128 and at most {@link #MAX_TILE_ROW_COLS}.
     */
    static void q8_0Bf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst) {
        int steps = (int) (cols / 8);
        for (int m = 0; m < steps; m++) {
            long sa = pairRow(m, rowBytes) + group(m) * 34L;
            long sb = sa + rowBytes;
            float da = f16(src, sa);
            float db = f16(src, sb);
            long o = m * 128L;
            for (int j = 0; j < 32; j += L) {
                zipPair(src, sa + 2 + j, sb + 2 + j, 0, -1, 0, da, db, dst, o + 4L * j);
            }
        }
    }

    /**
     * {@link #q8_0Bf16Tiles} for Q4_0 (18-byte blocks): the same values as {@link #q4_0} then {@link #zipBf16Tiles}.
     * With 512-bit vectors through a table per block pair ({@link #nibbleBf16TilesByTable}).
     */
    static void q4_0Bf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst) {
        if (L == 16) {
            nibbleBf16TilesByTable(src, rowBytes, cols, dst, false);
            return;
        }
        int steps = (int) (cols / 8);
        for (int m = 0; m < steps; m++) {
            long sa = pairRow(m, rowBytes) + group(m) * 18L;
            long sb = sa + rowBytes;
            float da = f16(src, sa);
            float db = f16(src, sb);
            long o = m * 128L;
            for (int h = 0; h < 32; h += L) {   // low nibbles are columns 0..15, high nibbles 16..31
                int j = h & 15;
                zipPair(src, sa + 2 + j, sb + 2 + j, (h & 16) >>> 2, 0xF, 8, da, db, dst, o + 4L * h);
            }
        }
    }

    /** The 16 values of a nibble, in order (512-bit vectors only). */
    private static final FloatVector NIBBLE = L == 16 ? FloatVector.fromArray(F,
            new float[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 0) : null;

    /**
     * One tile row of a Q4_1 matrix into its bf16 {@code T(8,128)(2,1)} tiles, as {@link #q4_0Bf16Tiles}: the
     * same values as {@link #q4_1} then {@link #zipBf16Tiles}. Only with 512-bit vectors
     * ({@link #fusesBf16Tiles}).
     */
    static void q4_1Bf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst) {
        if (L != 16) {
            throw new IllegalStateException("no fused Q4_1 kernel for " + L + " lanes");
        }
        nibbleBf16TilesByTable(src, rowBytes, cols, dst, true);
    }

    /** {@return whether {@code q} has a kernel into bf16 {@code T(8,128)(2,1)} tiles that needs no f32 buffer} */
    static boolean fusesBf16Tiles(QuantBlock q) {
        return switch (q) {
            case Q8_0, Q4_0, Q4_K, Q6_K -> true;
            case Q4_1, Q5_0, Q5_1 -> L == 16;
            default -> false;
        };
    }

    /** The upper 16 values of a 5-bit quant, 16 to 31 ({@link #NIBBLE} holds the lower 16; 512-bit vectors only). */
    private static final FloatVector FIVE_HIGH = L == 16 ? NIBBLE.add(16f) : null;

    /**
     * One tile row of a Q5_0 ({@code withMin} false: 22-byte blocks, {@code d * (q - 16)}) or Q5_1
     * ({@code withMin} true: 24-byte blocks, {@code d * q + m}) matrix into its bf16 {@code T(8,128)(2,1)}
     * tiles, with 512-bit vectors only ({@link #fusesBf16Tiles}): the same values as {@link #q5} then
     * {@link #zipBf16Tiles}. As {@link #nibbleBf16TilesByTable}, through a table per block pair, here of
     * 2 x 32 values in two registers (a(0) b(0) ... a(15) b(15), then a(16) b(16) ... a(31) b(31)); the
     * outputs are looked up with two-register word permutes ({@code selectFrom(v1, v2)}) by the index
     * {@code 2q} (row a) or {@code 2q + 1} (row b), {@code q}'s fifth bit taken from the block's
     * {@code qh} word through a lane mask.
     */
    static void q5Bf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst, boolean withMin) {
        if (L != 16) {
            throw new IllegalStateException("no fused Q5 kernel for " + L + " lanes");
        }
        long blockBytes = withMin ? 24 : 22;
        int head = withMin ? 4 : 2;
        // Q5_0 as Q5_1: (q - 16) * d + m with m = -0 (which leaves every f32 as it is)
        FloatVector low = NIBBLE.sub(withMin ? 0f : 16f);
        FloatVector high = FIVE_HIGH.sub(withMin ? 0f : 16f);
        int steps = (int) (cols / 8);
        for (int m = 0; m < steps; m++) {
            long sa = pairRow(m, rowBytes) + group(m) * blockBytes;
            long sb = sa + rowBytes;
            float da = f16(src, sa);
            float db = f16(src, sb);
            float ma = withMin ? f16(src, sa + 2) : -0f;
            float mb = withMin ? f16(src, sb + 2) : -0f;
            if (!Float.isFinite(da) || !Float.isFinite(db) || !Float.isFinite(ma) || !Float.isFinite(mb)) {
                q5Bf16StepNonFinite(src, sa, sb, head, withMin, dst, m * 128L);
                continue;
            }
            // finite scales and minimums give finite values: the plain rounding, as zipPair
            IntVector xl = low.mul(da).add(ma).reinterpretAsInts();
            IntVector yl = low.mul(db).add(mb).reinterpretAsInts();
            IntVector xh = high.mul(da).add(ma).reinterpretAsInts();
            IntVector yh = high.mul(db).add(mb).reinterpretAsInts();
            ShortVector t1 = xl.add(xl.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                    .or(yl.add(yl.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000)).reinterpretAsShorts();
            ShortVector t2 = xh.add(xh.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                    .or(yh.add(yh.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000)).reinterpretAsShorts();
            // no helper calls below: this loop is at C2's node budget (NodeCountInliningCutoff), and a helper
            // it then leaves out of line (bytes(), measured) returns its vector boxed, every step
            long qhA = src.get(ValueLayout.JAVA_INT_UNALIGNED, sa + head) & 0xFFFF_FFFFL;
            long qhB = src.get(ValueLayout.JAVA_INT_UNALIGNED, sb + head) & 0xFFFF_FFFFL;
            IntVector qa = (IntVector) ByteVector.fromMemorySegment(B, src, sa + head + 4, LE)
                    .convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
            IntVector qb = (IntVector) ByteVector.fromMemorySegment(B, src, sb + head + 4, LE)
                    .convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
            IntVector both = qa.or(qb.lanewise(VectorOperators.LSHL, 16));
            // columns 0..15: low nibbles, fifth bits 0..15 of qh; columns 16..31: high nibbles, bits 16..31
            IntVector i0 = both.lanewise(VectorOperators.LSHL, 1).and(0x001E_001E).or(0x0001_0000)
                    .lanewise(VectorOperators.OR, 0x20, VectorMask.fromLong(I, qhA & 0xFFFF))
                    .lanewise(VectorOperators.OR, 0x20_0000, VectorMask.fromLong(I, qhB & 0xFFFF));
            IntVector i1 = both.lanewise(VectorOperators.LSHR, 3).and(0x001E_001E).or(0x0001_0000)
                    .lanewise(VectorOperators.OR, 0x20, VectorMask.fromLong(I, qhA >>> 16))
                    .lanewise(VectorOperators.OR, 0x20_0000, VectorMask.fromLong(I, qhB >>> 16));
            long o = m * 128L;
            i0.reinterpretAsShorts().selectFrom(t1, t2).intoMemorySegment(dst, o, LE);
            i1.reinterpretAsShorts().selectFrom(t1, t2).intoMemorySegment(dst, o + 64, LE);
        }
    }

    /**
     * One step of {@link #q5Bf16Tiles} when a scale or minimum is infinite or NaN: element by element,
     * with the reference's operations, rounded as {@code BFloat16.fromFloat} (a NaN as {@code 0x7FC0}) and
     * interleaved. Rare; out of line so that the hot loop stays small.
     */
    private static void q5Bf16StepNonFinite(MemorySegment src, long sa, long sb, int head, boolean withMin,
                                            MemorySegment dst, long off) {
        for (int j = 0; j < 32; j++) {
            int a = bf16Dequantized(q5Value(src, sa, head, withMin, j));
            int b = bf16Dequantized(q5Value(src, sb, head, withMin, j)) << 16;
            dst.set(ValueLayout.JAVA_INT_UNALIGNED, off + 4L * j, a | b);
        }
    }

    /** {@return the bf16 code of a dequantized value: {@code BFloat16.fromFloat}, a NaN as {@code 0x7FC0}} */
    private static int bf16Dequantized(float v) {
        return Float.isNaN(v) ? CANONICAL_NAN >>> 16 : BFloat16.fromFloat(v) & 0xFFFF;
    }

    /** Element {@code j} of the Q5_0 or Q5_1 block at {@code src[s]}, computed as {@link #q5} does. */
    private static float q5Value(MemorySegment src, long s, int head, boolean withMin, int j) {
        float d = f16(src, s);
        int qh = src.get(ValueLayout.JAVA_INT_UNALIGNED, s + head);
        int q = ((u8(src, s + head + 4 + (j % 16)) >> (4 * (j / 16))) & 0xF) | (((qh >>> j) & 1) << 4);
        return withMin ? d * (float) q + f16(src, s + 2) : d * (float) (q - 16);
    }

    /**
     * {@link #q4_0Bf16Tiles} ({@code withMin} false: 18-byte blocks, {@code (q - 8) * d}) or
     * {@link #q4_1Bf16Tiles} ({@code withMin} true: 20-byte blocks, {@code d * q + m}) with 512-bit
     * vectors. Such a block has 16 distinct values, one for each nibble {@code q}; for each pair of
     * blocks (rows {@code 2k} and {@code 2k + 1}, the 32 columns step {@code m} writes) the kernel
     * computes and rounds the 2 x 16 values once into a 32-entry table of bf16 codes, interleaved as
     * they are stored ({@code a(0) b(0) a(1) b(1) ...}), and looks the 64 outputs up with two word
     * permutes ({@code rearrange}): output word {@code 2j} is entry {@code 2 qa(j)} and word
     * {@code 2j + 1} entry {@code 2 qb(j) + 1}. Each entry is computed and rounded as {@link #zipPair}
     * does a quant (the same operations on the same value), so the codes are the same.
     */
    private static void nibbleBf16TilesByTable(MemorySegment src, long rowBytes, long cols, MemorySegment dst,
                                               boolean withMin) {
        long blockBytes = withMin ? 20 : 18;
        long quants = withMin ? 4 : 2;
        // Q4_0's values as Q4_1's: (q - 8) * d + m with m = -0, which leaves every f32 as it is (-0 too);
        // no vector is chosen by withMin (a vector picked by a condition can cost C2 a box per step)
        FloatVector values = NIBBLE.sub(withMin ? 0f : 8f);
        int steps = (int) (cols / 8);
        for (int m = 0; m < steps; m++) {
            long sa = pairRow(m, rowBytes) + group(m) * blockBytes;
            long sb = sa + rowBytes;
            float da = f16(src, sa);
            float db = f16(src, sb);
            float ma = withMin ? f16(src, sa + 2) : -0f;
            float mb = withMin ? f16(src, sb + 2) : -0f;
            FloatVector x = values.mul(da).add(ma);
            FloatVector y = values.mul(db).add(mb);
            IntVector pairs;
            // as zipPair: finite scales (and minimums) give finite values, rounded the plain way
            if (Float.isFinite(da) && Float.isFinite(db) && Float.isFinite(ma) && Float.isFinite(mb)) {
                IntVector xi = x.reinterpretAsInts();
                IntVector yi = y.reinterpretAsInts();
                pairs = xi.add(xi.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                        .or(yi.add(yi.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000));
            } else {
                pairs = bf16Dequantized(x).or(bf16Dequantized(y).lanewise(VectorOperators.LSHL, 16));
            }
            ShortVector table = pairs.reinterpretAsShorts();
            // the 16 bytes of each row widened to int lanes: row a's byte j in the low word, row b's in the high
            IntVector qa = (IntVector) bytes(src, sa + quants).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
            IntVector qb = (IntVector) bytes(src, sb + quants).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
            IntVector both = qa.or(qb.lanewise(VectorOperators.LSHL, 16));
            IntVector low = both.lanewise(VectorOperators.LSHL, 1).and(0x001E_001E).or(0x0001_0000);   // columns 0..15
            IntVector high = both.lanewise(VectorOperators.LSHR, 3).and(0x001E_001E).or(0x0001_0000);  // 16..31
            long o = m * 128L;
            table.rearrange(low.reinterpretAsShorts().toShuffle()).intoMemorySegment(dst, o, LE);
            table.rearrange(high.reinterpretAsShorts().toShuffle()).intoMemorySegment(dst, o + 64, LE);
        }
    }

    /**
     * One tile row of a Q4_K matrix into its bf16 {@code T(8,128)(2,1)} tiles, as {@link #q8_0Bf16Tiles}
     * does for Q8_0: step {@code m} takes 32-column sub-block {@code (m / 16) * 4 + m % 4} of rows
     * {@code 2k} and {@code 2k + 1} ({@code k = (m / 4) % 4}; super-block {@code / 8}, sub-block
     * {@code % 8}) and writes its 32 column pairs at byte {@code 128 m}. The same values as
     * {@link #q45_k} then {@link #zipBf16Tiles}, with no f32 buffer. {@code cols} is a multiple of 256
     * and at most {@link #MAX_TILE_ROW_COLS}.
     */
    static void q4_kBf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst) {
        int steps = (int) (cols / 8);
        for (int m = 0; m < steps; m++) {
            int sub32 = group(m);      // 32-column sub-block of the row
            long ra = pairRow(m, rowBytes) + (sub32 >>> 3) * 144L;
            long rb = ra + rowBytes;
            int sub = sub32 & 7;
            float dsA = f16(src, ra) * (float) k4Scale(src, ra, sub);
            float dmA = f16(src, ra + 2) * (float) k4Min(src, ra, sub);
            float dsB = f16(src, rb) * (float) k4Scale(src, rb, sub);
            float dmB = f16(src, rb + 2) * (float) k4Min(src, rb, sub);
            long q = 16 + (sub >> 1) * 32;
            long o = m * 128L;
            for (int l = 0; l < 32; l += L) {
                zipPairK(src, ra + q + l, rb + q + l, 4 * (sub & 1), dsA, dmA, dsB, dmB, dst, o + 4L * l);
            }
        }
    }

    /** The 6-bit scale of sub-block {@code sub} of the Q4_K/Q5_K super-block at {@code src[s]}. */
    private static int k4Scale(MemorySegment src, long s, int sub) {
        return sub < 4 ? u8(src, s + 4 + sub) & 0x3F
                : (u8(src, s + 8 + sub) & 0xF) | ((u8(src, s + sub) >> 6) << 4);
    }

    /** The 6-bit minimum of sub-block {@code sub} of the Q4_K/Q5_K super-block at {@code src[s]}. */
    private static int k4Min(MemorySegment src, long s, int sub) {
        return sub < 4 ? u8(src, s + 8 + sub) & 0x3F
                : (u8(src, s + 8 + sub) >> 4) | ((u8(src, s + 4 + sub) >> 6) << 4);
    }

    /**
     * {@link #zipPair} for Q4_K: {@code L} nibbles ({@code (byte >>> shift) & 0xF}) of each row, as
     * {@code ds * q - dm} (the reference's two roundings), rounded to bf16 and stored interleaved.
     */
    private static void zipPairK(MemorySegment src, long qa, long qb, int shift, float dsA, float dmA, float dsB,
                                 float dmB, MemorySegment dst, long off) {
        FloatVector x = widen(bits(bytes(src, qa), shift, 0xF)).mul(dsA).sub(dmA);
        FloatVector y = widen(bits(bytes(src, qb), shift, 0xF)).mul(dsB).sub(dmB);
        if (!Float.isFinite(dsA) || !Float.isFinite(dmA) || !Float.isFinite(dsB) || !Float.isFinite(dmB)) {
            bf16Dequantized(x).or(bf16Dequantized(y).lanewise(VectorOperators.LSHL, 16)).intoMemorySegment(dst, off, LE);
            return;
        }
        // finite scales and minimums of at most 65504 * 63 give finite values: the plain rounding (as zipPair)
        IntVector xi = x.reinterpretAsInts();
        IntVector yi = y.reinterpretAsInts();
        IntVector lo = xi.add(xi.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16);
        IntVector hi = yi.add(yi.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000);
        lo.or(hi).intoMemorySegment(dst, off, LE);
    }

    /** The widest matrix {@link #q8_0Bf16Tiles}, {@link #q4_0Bf16Tiles}, {@link #q4_kBf16Tiles}, {@link Q6kKernels#bf16Tiles} and {@link #zipBf16Tiles} take (their step counter is an {@code int}). */
    static final long MAX_TILE_ROW_COLS = 1L << 30;

    static void q4_1(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * 20;
            long o = dstOff + b * 128;
            float scale = f16(src, s);
            float min = f16(src, s + 2);
            FloatVector d = FloatVector.broadcast(F, scale);
            FloatVector m = FloatVector.broadcast(F, min);
            for (int j = 0; j < 16; j += L) {
                ByteVector v = bytes(src, s + 4 + j);
                widen(v.and((byte) 0xF)).mul(d).add(m).intoMemorySegment(dst, o + 4L * j, LE);
                widen(bits(v, 4, 0xF)).mul(d).add(m).intoMemorySegment(dst, o + 4L * (16 + j), LE);
            }
            if (!finite(scale, min)) {
                canonicalNaNs(dst, o, 32);
            }
        }
    }

    /** Q5_0 ({@code d * (q - 16)}) and Q5_1 ({@code d * q + m}). */
    static void q5(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks, boolean withMin) {
        q5(src, srcOff, dst, dstOff, blocks, withMin, CHUNK_BLOCKS);
    }

    /** {@link #q5} in calls of at most {@code chunk} blocks each. */
    static void q5(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks, boolean withMin,
                   int chunk) {
        int bytes = withMin ? 24 : 22;
        for (long done = 0; done < blocks; done += chunk) {
            int n = (int) Math.min(chunk, blocks - done);
            q5(src.asSlice(srcOff + done * bytes, (long) n * bytes), dst.asSlice(dstOff + done * 128, n * 128L), n,
                    withMin);
        }
    }

    /** Blocks per call of the kernels that count their blocks with an {@code int}. */
    private static final int CHUNK_BLOCKS = 1 << 20;

    /**
     * {@code n} blocks from the start of {@code src} to the start of {@code dst}. An {@code int} loop over
     * slices: the {@code long} loop over offsets into the whole buffers was deoptimized again and again
     * ("profile_predicate" traps, recompiled each time) when called a row at a time, and ran in slower
     * code meanwhile (see {@code docs/benchmarks.md}).
     */
    private static void q5(MemorySegment src, MemorySegment dst, int n, boolean withMin) {
        int bytes = withMin ? 24 : 22;
        int head = withMin ? 4 : 2;
        ByteVector zero = ByteVector.zero(B);
        for (int b = 0; b < n; b++) {
            long s = (long) b * bytes;
            long o = b * 128L;
            float scale = f16(src, s);
            float min = withMin ? f16(src, s + 2) : 0f;
            FloatVector d = FloatVector.broadcast(F, scale);
            FloatVector m = FloatVector.broadcast(F, min);
            long qh = Integer.toUnsignedLong(src.get(ValueLayout.JAVA_INT_UNALIGNED, s + head));
            for (int e = 0; e < 32; e += L) {
                ByteVector lo = bits(bytes(src, s + head + 4 + (e % 16)), 4 * (e / 16), 0xF);
                VectorMask<Byte> high = VectorMask.fromLong(B, (qh >>> e) & LANE_BITS);
                ByteVector v = lo.or(zero.blend((byte) 16, high));
                if (withMin) {
                    widen(v).mul(d).add(m).intoMemorySegment(dst, o + 4L * e, LE);
                } else {
                    widen(v.sub((byte) 16)).mul(d).intoMemorySegment(dst, o + 4L * e, LE);
                }
            }
            if (!finite(scale, min)) {
                canonicalNaNs(dst, o, 32);
            }
        }
    }

    static void q2_k(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * 84;
            long o = dstOff + b * 1024;
            float d = f16(src, s + 80);
            float dmin = f16(src, s + 82);
            for (int k = 0; k < 16; k++) {
                int sc = u8(src, s + k);
                FloatVector dl = FloatVector.broadcast(F, d * (float) (sc & 0xF));
                FloatVector ml = FloatVector.broadcast(F, dmin * (float) (sc >> 4));
                for (int e = 16 * k; e < 16 * k + 16; e += L) {
                    ByteVector v = bits(bytes(src, s + 16 + (e / 128) * 32 + (e % 32)), 2 * ((e % 128) / 32), 3);
                    widen(v).mul(dl).sub(ml).intoMemorySegment(dst, o + 4L * e, LE);
                }
            }
            if (!finite(d, dmin)) {
                canonicalNaNs(dst, o, 256);
            }
        }
    }

    static void q3_k(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * 110;
            long o = dstOff + b * 1024;
            float d = f16(src, s + 108);
            for (int k = 0; k < 16; k++) {
                int low = k < 8 ? u8(src, s + 96 + k) & 0xF : u8(src, s + 88 + k) >> 4;
                int high = (u8(src, s + 104 + (k & 3)) >> (2 * (k >> 2))) & 3;
                FloatVector dl = FloatVector.broadcast(F, d * (float) ((low | (high << 4)) - 32));
                for (int e = 16 * k; e < 16 * k + 16; e += L) {
                    ByteVector lo = bits(bytes(src, s + 32 + (e / 128) * 32 + (e % 32)), 2 * ((e % 128) / 32), 3);
                    ByteVector hb = bits(bytes(src, s + (e % 32)), e / 32, 1).lanewise(VectorOperators.XOR, (byte) 1);
                    widen(lo.sub(hb.lanewise(VectorOperators.LSHL, 2))).mul(dl).intoMemorySegment(dst, o + 4L * e, LE);
                }
            }
            if (!Float.isFinite(d)) {
                canonicalNaNs(dst, o, 256);
            }
        }
    }

    /** Q4_K and Q5_K: 8 sub-blocks of 32, {@code (d * sc) * q - dmin * m}. */
    static void q45_k(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks, boolean five) {
        int bytes = five ? 176 : 144;
        long qsAt = five ? 48 : 16;
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * bytes;
            long o = dstOff + b * 1024;
            float d = f16(src, s);
            float dmin = f16(src, s + 2);
            for (int sub = 0; sub < 8; sub++) {
                FloatVector ds = FloatVector.broadcast(F, d * (float) k4Scale(src, s, sub));
                FloatVector dm = FloatVector.broadcast(F, dmin * (float) k4Min(src, s, sub));
                for (int l = 0; l < 32; l += L) {
                    ByteVector v = bits(bytes(src, s + qsAt + (sub >> 1) * 32 + l), 4 * (sub & 1), 0xF);
                    if (five) {
                        v = v.or(bits(bytes(src, s + 16 + l), sub, 1).lanewise(VectorOperators.LSHL, 4));
                    }
                    widen(v).mul(ds).sub(dm).intoMemorySegment(dst, o + 4L * (32 * sub + l), LE);
                }
            }
            if (!finite(d, dmin)) {
                canonicalNaNs(dst, o, 256);
            }
        }
    }
}
