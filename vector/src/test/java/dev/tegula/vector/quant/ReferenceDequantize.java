package dev.tegula.vector.quant;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The scalar reference of {@link Dequantize} (test code: the oracle is not shipped): one element at a time, written from the format's
 * definition (element {@code i} of a block: where its bits are, which scale and minimum it takes),
 * sharing no code with the Vector API kernels. It is the oracle the kernels are tested against.
 * Every element whose value is NaN is the quiet NaN {@code 0x7FC00000} (the dequantization's NaN
 * rule, {@code docs/interop.md}), whichever operands were NaN.
 */
final class ReferenceDequantize {
    private ReferenceDequantize() {
    }

    private static int u8(MemorySegment s, long off) {
        return Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, off));
    }

    private static float f16(MemorySegment s, long off) {
        return Float.float16ToFloat(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
    }

    /** Dequantizes {@code blocks} blocks of {@code q} at {@code src[srcOffset]} into little-endian f32 at {@code dst[dstOffset]}. */
    static void toFloats(QuantBlock q, MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long blocks) {
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long b = 0; b < blocks; b++) {
            for (int i = 0; i < q.blockSize(); i++) {
                float v = element(q, src, srcOffset + b * q.blockBytes(), i);
                dst.set(i32, dstOffset + 4 * (b * q.blockSize() + i), Float.isNaN(v) ? 0x7FC0_0000 : Float.floatToRawIntBits(v));
            }
        }
    }

    /** {@return element {@code i} of the block of {@code q} at {@code src[base]}, any NaN as IEEE arithmetic leaves it} */
    static float element(QuantBlock q, MemorySegment s, long base, int i) {
        switch (q) {
            case Q4_0 -> {
                float d = f16(s, base);
                int v = (u8(s, base + 2 + (i % 16)) >> (4 * (i / 16))) & 0xF;
                return d * (float) (v - 8);
            }
            case Q4_1 -> {
                float d = f16(s, base);
                float m = f16(s, base + 2);
                int v = (u8(s, base + 4 + (i % 16)) >> (4 * (i / 16))) & 0xF;
                return d * (float) v + m;
            }
            case Q5_0 -> {
                float d = f16(s, base);
                int qh = s.get(ValueLayout.JAVA_INT_UNALIGNED, base + 2);
                int lo = (u8(s, base + 6 + (i % 16)) >> (4 * (i / 16))) & 0xF;
                int v = lo | (((qh >>> i) & 1) << 4);
                return d * (float) (v - 16);
            }
            case Q5_1 -> {
                float d = f16(s, base);
                float m = f16(s, base + 2);
                int qh = s.get(ValueLayout.JAVA_INT_UNALIGNED, base + 4);
                int lo = (u8(s, base + 8 + (i % 16)) >> (4 * (i / 16))) & 0xF;
                int v = lo | (((qh >>> i) & 1) << 4);
                return d * (float) v + m;
            }
            case Q8_0 -> {
                float d = f16(s, base);
                return (float) s.get(ValueLayout.JAVA_BYTE, base + 2 + i) * d;
            }
            case Q2_K -> {
                // scales[16] qs[64] d dmin
                int sc = u8(s, base + i / 16);
                float d = f16(s, base + 80);
                float dmin = f16(s, base + 82);
                float dl = d * (float) (sc & 0xF);
                float ml = dmin * (float) (sc >> 4);
                int v = (u8(s, base + 16 + (i / 128) * 32 + (i % 32)) >> (2 * ((i % 128) / 32))) & 3;
                return dl * (float) v - ml;
            }
            case Q3_K -> {
                // hmask[32] qs[64] scales[12] d
                float d = f16(s, base + 108);
                int k = i / 16;
                int low = k < 8 ? u8(s, base + 96 + k) & 0xF : u8(s, base + 96 + k - 8) >> 4;
                int high = (u8(s, base + 96 + 8 + (k % 4)) >> (2 * (k / 4))) & 3;
                int sc = (low | (high << 4)) - 32;
                float dl = d * (float) sc;
                int lo = (u8(s, base + 32 + (i / 128) * 32 + (i % 32)) >> (2 * ((i % 128) / 32))) & 3;
                int hbit = (u8(s, base + (i % 32)) >> (i / 32)) & 1;
                int v = lo - ((hbit ^ 1) << 2);
                return dl * (float) v;
            }
            case Q4_K, Q5_K -> {
                // d dmin scales[12] (Q5_K: qh[32]) qs[128]
                float d = f16(s, base);
                float dmin = f16(s, base + 2);
                int sub = i / 32;
                float ds = d * (float) scale6(s, base + 4, sub, false);
                float dm = dmin * (float) scale6(s, base + 4, sub, true);
                long qs = base + (q == QuantBlock.Q4_K ? 16 : 48);
                int v = (u8(s, qs + (sub / 2) * 32 + (i % 32)) >> (4 * (sub % 2))) & 0xF;
                if (q == QuantBlock.Q5_K) {
                    v |= ((u8(s, base + 16 + (i % 32)) >> sub) & 1) << 4;
                }
                return ds * (float) v - dm;
            }
            case Q6_K -> {
                // ql[128] qh[64] scales[16] (int8) d
                float d = f16(s, base + 208);
                float ds = d * (float) s.get(ValueLayout.JAVA_BYTE, base + 192 + i / 16);
                int half = i / 128;
                int lo = (u8(s, base + half * 64 + (i % 64)) >> (4 * ((i % 128) / 64))) & 0xF;
                int hi = (u8(s, base + 128 + half * 32 + (i % 32)) >> (2 * ((i % 128) / 32))) & 3;
                return ds * (float) ((lo | (hi << 4)) - 32);
            }
            default -> throw new AssertionError(q);
        }
    }

    /** {@return the 6-bit scale ({@code min == false}) or minimum of sub-block {@code j} of a Q4_K/Q5_K scale array} */
    static int scale6(MemorySegment s, long scales, int j, boolean min) {
        if (j < 4) {
            return u8(s, scales + j + (min ? 4 : 0)) & 0x3F;
        }
        int packed = u8(s, scales + 8 + (j - 4));
        int top = u8(s, scales + (j - 4) + (min ? 4 : 0)) >> 6;
        return (min ? packed >> 4 : packed & 0xF) | (top << 4);
    }
}
