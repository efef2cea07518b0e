package dev.tegula.vector.quant;

import dev.tegula.ffm.codec.BFloat16;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API kernels for {@link QuantBlock#Q6_K}, on the machine's preferred vector width (128, 256
 * or 512 bits; wider ones are used as 512). A block is 256 elements in two halves of 128: half
 * {@code n} takes low nibbles from {@code ql[64n, 64n + 64)}, two high bits from
 * {@code qh[32n, 32n + 32)} and the signed 8-bit scales {@code scales[8n, 8n + 8)}, one per 16
 * elements; {@code d} (f16) is the block's scale. Element {@code 128n + 32g + l} ({@code g} 0 to 3,
 * {@code l} 0 to 31) is {@code (d * scale) * (q - 32)} with
 * <pre>{@code
 * q = (ql[64n + 32 (g % 2) + l] >>> 4 (g / 2)) & 0xF  |  ((qh[32n + l] >>> 2g) & 3) << 4
 * }</pre>
 * so one load of {@code ql}'s two runs and of {@code qh} at {@code l} gives the quants of all four
 * groups: each step takes {@code L} consecutive {@code l} (at most 16, within one 16-element scale),
 * widens their bytes to int lanes once and builds the four groups' quants with int shifts and masks
 * (no byte shifts, which x86 has no instruction for). The products are f32 in the reference's
 * order (the scale {@code d * scale} rounded first, then times the quant), so the values equal the
 * scalar definition bit for bit; no fused multiply-add. A block whose {@code d} is not finite has
 * its NaN elements rewritten as the one quiet NaN ({@link DequantizeKernels#CANONICAL_NAN}).
 * Stateless and thread-safe; bounds and lifetime are checked by the segments.
 */
final class Q6kKernels {
    private Q6kKernels() {
    }

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.vectorBitSize() > 512
            ? FloatVector.SPECIES_512 : FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    /** Lanes per step: 4, 8 or 16 (2 with 64-bit vectors). */
    static final int L = F.length();
    /** Byte loads of at least {@code L} lanes (8 bytes when {@code L} is under 8; the conversion takes the first {@code L}). */
    private static final VectorSpecies<Byte> B = VectorSpecies.of(byte.class,
            VectorShape.forBitSize(Math.max(64, 8 * L)));

    static final int BLOCK_BYTES = 210;

    /** {@code L} bytes at {@code src[off]}, zero-extended to int lanes. */
    private static IntVector bytes(MemorySegment src, long off) {
        return (IntVector) ByteVector.fromMemorySegment(B, src, off, LE)
                .convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
    }

    /** Dequantizes {@code blocks} blocks at {@code src[srcOff]} to f32 at {@code dst[dstOff]}. */
    static void toFloats(MemorySegment src, long srcOff, MemorySegment dst, long dstOff, long blocks) {
        for (long b = 0; b < blocks; b++) {
            long s = srcOff + b * BLOCK_BYTES;
            long o = dstOff + b * 1024;
            float d = Float.float16ToFloat(src.get(ValueLayout.JAVA_SHORT_UNALIGNED, s + 208));
            for (int n = 0; n < 2; n++) {
                long ql = s + 64 * n;
                long qh = s + 128 + 32 * n;
                long sc = s + 192 + 8 * n;
                long y = o + 512 * n;
                for (int k = 0; k < 32; k += 16) {   // the 16 elements of each group that share a scale
                    long is = sc + k / 16;
                    FloatVector d0 = FloatVector.broadcast(F, d * (float) src.get(ValueLayout.JAVA_BYTE, is));
                    FloatVector d1 = FloatVector.broadcast(F, d * (float) src.get(ValueLayout.JAVA_BYTE, is + 2));
                    FloatVector d2 = FloatVector.broadcast(F, d * (float) src.get(ValueLayout.JAVA_BYTE, is + 4));
                    FloatVector d3 = FloatVector.broadcast(F, d * (float) src.get(ValueLayout.JAVA_BYTE, is + 6));
                    for (int l = k; l < k + 16; l += L) {
                        IntVector a = bytes(src, ql + l);
                        IntVector c = bytes(src, ql + 32 + l);
                        IntVector h = bytes(src, qh + l);
                        IntVector q0 = a.and(0xF).or(h.lanewise(VectorOperators.LSHL, 4).and(0x30)).sub(32);
                        IntVector q1 = c.and(0xF).or(h.lanewise(VectorOperators.LSHL, 2).and(0x30)).sub(32);
                        IntVector q2 = a.lanewise(VectorOperators.LSHR, 4).or(h.and(0x30)).sub(32);
                        IntVector q3 = c.lanewise(VectorOperators.LSHR, 4)
                                .or(h.lanewise(VectorOperators.LSHR, 2).and(0x30)).sub(32);
                        ((FloatVector) q0.convert(VectorOperators.I2F, 0)).mul(d0).intoMemorySegment(dst, y + 4L * l, LE);
                        ((FloatVector) q1.convert(VectorOperators.I2F, 0)).mul(d1)
                                .intoMemorySegment(dst, y + 4L * (32 + l), LE);
                        ((FloatVector) q2.convert(VectorOperators.I2F, 0)).mul(d2)
                                .intoMemorySegment(dst, y + 4L * (64 + l), LE);
                        ((FloatVector) q3.convert(VectorOperators.I2F, 0)).mul(d3)
                                .intoMemorySegment(dst, y + 4L * (96 + l), LE);
                    }
                }
            }
            if (!Float.isFinite(d)) {
                canonicalNaNs(dst, o);
            }
        }
    }

    /**
     * One tile row of a Q6_K matrix into its bf16 {@code T(8,128)(2,1)} tiles ({@code src}: the tile
     * row's 8 source rows, {@code rowBytes} apart; {@code dst}: its {@code 16 cols} bytes), the same
     * codes as {@link #toFloats} then rounding to nearest even and interleaving, with no f32 buffer.
     * Step {@code m} of the walk in memory order writes 32 column pairs of rows {@code 2k} and
     * {@code 2k + 1} ({@code k = (m / 4) % 4}) at byte {@code 128 m}: columns {@code 32 c} to
     * {@code 32 c + 31} with {@code c = (m / 16) * 4 + m % 4}. Steps {@code 4j} to {@code 4j + 3} so
     * take the four groups of one half of one block of each row, which share their {@code ql} and
     * {@code qh} bytes: they are made together from one load of each. {@code cols} is a multiple of
     * 256 and at most {@link DequantizeKernels#MAX_TILE_ROW_COLS}.
     */
    static void bf16Tiles(MemorySegment src, long rowBytes, long cols, MemorySegment dst) {
        int quads = (int) (cols / 32);
        for (int j = 0; j < quads; j++) {
            int u = j >>> 2;                          // 128-column half u % 2 of block u / 2
            long ra = (j & 3) * 2 * rowBytes + (u >>> 1) * (long) BLOCK_BYTES;
            long rb = ra + rowBytes;
            int n = u & 1;
            float da = Float.float16ToFloat(src.get(ValueLayout.JAVA_SHORT_UNALIGNED, ra + 208));
            float db = Float.float16ToFloat(src.get(ValueLayout.JAVA_SHORT_UNALIGNED, rb + 208));
            long o = j * 512L;
            if (!Float.isFinite(da) || !Float.isFinite(db)) {
                bf16QuadNonFinite(src, ra, rb, n, dst, o);
                continue;
            }
            long ql = 64 * n;
            long qh = 128 + 32 * n;
            for (int k = 0; k < 32; k += 16) {
                long is = 192 + 8 * n + k / 16;
                FloatVector a0 = FloatVector.broadcast(F, da * (float) src.get(ValueLayout.JAVA_BYTE, ra + is));
                FloatVector a1 = FloatVector.broadcast(F, da * (float) src.get(ValueLayout.JAVA_BYTE, ra + is + 2));
                FloatVector a2 = FloatVector.broadcast(F, da * (float) src.get(ValueLayout.JAVA_BYTE, ra + is + 4));
                FloatVector a3 = FloatVector.broadcast(F, da * (float) src.get(ValueLayout.JAVA_BYTE, ra + is + 6));
                FloatVector b0 = FloatVector.broadcast(F, db * (float) src.get(ValueLayout.JAVA_BYTE, rb + is));
                FloatVector b1 = FloatVector.broadcast(F, db * (float) src.get(ValueLayout.JAVA_BYTE, rb + is + 2));
                FloatVector b2 = FloatVector.broadcast(F, db * (float) src.get(ValueLayout.JAVA_BYTE, rb + is + 4));
                FloatVector b3 = FloatVector.broadcast(F, db * (float) src.get(ValueLayout.JAVA_BYTE, rb + is + 6));
                for (int l = k; l < k + 16; l += L) {
                    // row a's bytes in the low half of each int lane, row b's in the high half: the quants of both
                    // rows are made by the same shifts and masks
                    IntVector ql0 = bytes(src, ra + ql + l).or(bytes(src, rb + ql + l).lanewise(VectorOperators.LSHL, 16));
                    IntVector ql1 = bytes(src, ra + ql + 32 + l)
                            .or(bytes(src, rb + ql + 32 + l).lanewise(VectorOperators.LSHL, 16));
                    IntVector qh0 = bytes(src, ra + qh + l).or(bytes(src, rb + qh + l).lanewise(VectorOperators.LSHL, 16));
                    IntVector x;
                    IntVector y;
                    IntVector q = ql0.and(0xF_000F).or(qh0.lanewise(VectorOperators.LSHL, 4).and(0x30_0030));
                    x = ((FloatVector) q.and(0xFFFF).sub(32).convert(VectorOperators.I2F, 0)).mul(a0).reinterpretAsInts();
                    y = ((FloatVector) q.lanewise(VectorOperators.LSHR, 16).sub(32).convert(VectorOperators.I2F, 0))
                            .mul(b0).reinterpretAsInts();
                    x.add(x.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                            .or(y.add(y.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000))
                            .intoMemorySegment(dst, o + 4L * l, LE);
                    q = ql1.and(0xF_000F).or(qh0.lanewise(VectorOperators.LSHL, 2).and(0x30_0030));
                    x = ((FloatVector) q.and(0xFFFF).sub(32).convert(VectorOperators.I2F, 0)).mul(a1).reinterpretAsInts();
                    y = ((FloatVector) q.lanewise(VectorOperators.LSHR, 16).sub(32).convert(VectorOperators.I2F, 0))
                            .mul(b1).reinterpretAsInts();
                    x.add(x.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                            .or(y.add(y.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000))
                            .intoMemorySegment(dst, o + 128 + 4L * l, LE);
                    q = ql0.lanewise(VectorOperators.LSHR, 4).and(0xF_000F).or(qh0.and(0x30_0030));
                    x = ((FloatVector) q.and(0xFFFF).sub(32).convert(VectorOperators.I2F, 0)).mul(a2).reinterpretAsInts();
                    y = ((FloatVector) q.lanewise(VectorOperators.LSHR, 16).sub(32).convert(VectorOperators.I2F, 0))
                            .mul(b2).reinterpretAsInts();
                    x.add(x.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                            .or(y.add(y.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000))
                            .intoMemorySegment(dst, o + 256 + 4L * l, LE);
                    q = ql1.lanewise(VectorOperators.LSHR, 4).and(0xF_000F)
                            .or(qh0.lanewise(VectorOperators.LSHR, 2).and(0x30_0030));
                    x = ((FloatVector) q.and(0xFFFF).sub(32).convert(VectorOperators.I2F, 0)).mul(a3).reinterpretAsInts();
                    y = ((FloatVector) q.lanewise(VectorOperators.LSHR, 16).sub(32).convert(VectorOperators.I2F, 0))
                            .mul(b3).reinterpretAsInts();
                    x.add(x.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).lanewise(VectorOperators.LSHR, 16)
                            .or(y.add(y.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF).and(0xFFFF_0000))
                            .intoMemorySegment(dst, o + 384 + 4L * l, LE);
                }
            }
        }
    }

    /**
     * The four steps of {@link #bf16Tiles} from half {@code n} of the blocks at {@code src[ra]} and
     * {@code src[rb]} when either block's {@code d} is infinite or NaN: element by element, each value
     * as {@link #toFloats} computes it, rounded to nearest even, a NaN as the quiet {@code 0x7FC0}.
     * Rare; out of line so that the hot loop stays small.
     */
    private static void bf16QuadNonFinite(MemorySegment src, long ra, long rb, int n, MemorySegment dst, long off) {
        for (int g = 0; g < 4; g++) {
            for (int l = 0; l < 32; l++) {
                int i = 128 * n + 32 * g + l;
                int a = bf16(value(src, ra, i));
                int b = bf16(value(src, rb, i));
                dst.set(ValueLayout.JAVA_INT_UNALIGNED, off + 128L * g + 4L * l, a | b << 16);
            }
        }
    }

    /** Element {@code i} of the block at {@code src[s]}, computed as {@link #toFloats} does. */
    private static float value(MemorySegment src, long s, int i) {
        float d = Float.float16ToFloat(src.get(ValueLayout.JAVA_SHORT_UNALIGNED, s + 208));
        float ds = d * (float) src.get(ValueLayout.JAVA_BYTE, s + 192 + i / 16);
        int n = i / 128;
        int g = i % 128 / 32;
        int l = i % 32;
        int lo = (Byte.toUnsignedInt(src.get(ValueLayout.JAVA_BYTE, s + 64 * n + 32 * (g % 2) + l)) >>> 4 * (g / 2)) & 0xF;
        int hi = (Byte.toUnsignedInt(src.get(ValueLayout.JAVA_BYTE, s + 128 + 32 * n + l)) >>> 2 * g) & 3;
        return ds * (float) ((lo | hi << 4) - 32);
    }

    /** {@return the bf16 code of {@code v}: nearest even, a NaN as the quiet {@code 0x7FC0}} */
    private static int bf16(float v) {
        return Float.isNaN(v) ? DequantizeKernels.CANONICAL_NAN >>> 16 : BFloat16.fromFloat(v) & 0xFFFF;
    }

    /** Rewrites every NaN among a block's 256 f32 values at {@code dst[off]} as the canonical NaN (rare: out of line). */
    private static void canonicalNaNs(MemorySegment dst, long off) {
        for (int i = 0; i < 256; i++) {
            int bits = dst.get(ValueLayout.JAVA_INT_UNALIGNED, off + 4L * i);
            if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
                dst.set(ValueLayout.JAVA_INT_UNALIGNED, off + 4L * i, DequantizeKernels.CANONICAL_NAN);
            }
        }
    }
}
