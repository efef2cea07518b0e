package dev.tegula.vector.quant;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Quantization of f32 values into the two {@link QuantBlock} encodings with a simple, exact
 * definition, {@link QuantBlock#Q8_0} and {@link QuantBlock#Q4_0}, computed in f32 exactly as the
 * reference ({@code gguf.quants} in llama.cpp's {@code gguf-py}) does, so the blocks are byte-identical
 * to the reference's for the same input. Scalar; stateless and thread-safe.
 */
public final class Quantize {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Quantize() {
    }

    /**
     * Quantizes {@code blocks * 32} little-endian f32 values at {@code src[srcOffset]} into blocks of
     * {@code q} at {@code dst[dstOffset]}.
     *
     * <p>Q8_0: {@code d = max|x| / 127}, {@code q = round(x / d)} (halves away from zero, through
     * {@code x * (1 / d)}). Q4_0: {@code d = x[argmax |x|] / -8}, {@code q = min(15, trunc(x * (1 / d) + 8.5))}.
     *
     * @throws IllegalArgumentException  if {@code q} is neither Q8_0 nor Q4_0
     * @throws IndexOutOfBoundsException if either range is outside its segment
     */
    public static void fromFloats(QuantBlock q, MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
                                  long blocks) {
        Objects.requireNonNull(q, "q");
        if (q != QuantBlock.Q8_0 && q != QuantBlock.Q4_0) {
            throw new IllegalArgumentException("q: Tegula quantizes to Q8_0 and Q4_0, not " + q);
        }
        Objects.checkFromIndexSize(srcOffset, Math.multiplyExact(blocks, 128L), src.byteSize());
        Objects.checkFromIndexSize(dstOffset, Math.multiplyExact(blocks, (long) q.blockBytes()), dst.byteSize());
        float[] x = new float[32];
        for (long b = 0; b < blocks; b++) {
            MemorySegment.copy(src, F32, srcOffset + b * 128, x, 0, 32);
            long o = dstOffset + b * q.blockBytes();
            if (q == QuantBlock.Q8_0) {
                q8_0(x, dst, o);
            } else {
                q4_0(x, dst, o);
            }
        }
    }

    private static void q8_0(float[] x, MemorySegment dst, long o) {
        float amax = 0;
        for (float v : x) {
            amax = Math.max(amax, Math.abs(v));
        }
        float d = amax / 127f;
        float id = d == 0 ? 0f : 1f / d;
        dst.set(U16, o, Float.floatToFloat16(d));
        for (int i = 0; i < 32; i++) {
            dst.set(ValueLayout.JAVA_BYTE, o + 2 + i, (byte) roundHalfAway(x[i] * id));
        }
    }

    /** Rounds halves away from zero, as {@code floor(a) + floor(2 (a - floor(a)))} with the sign of {@code n}. */
    private static float roundHalfAway(float n) {
        float a = Math.abs(n);
        float fl = (float) Math.floor(a);
        float b = fl + (float) Math.floor(2f * (a - fl));
        return Math.signum(n) * b;
    }

    private static void q4_0(float[] x, MemorySegment dst, long o) {
        int imax = 0;
        float best = -1f;
        for (int i = 0; i < 32; i++) {
            float a = Math.abs(x[i]);
            if (a > best) {
                best = a;
                imax = i;
            }
        }
        float d = x[imax] / -8f;
        float id = d == 0 ? 0f : 1f / d;
        dst.set(U16, o, Float.floatToFloat16(d));
        for (int j = 0; j < 16; j++) {
            int lo = clip15(x[j] * id + 8.5f);
            int hi = clip15(x[j + 16] * id + 8.5f);
            dst.set(ValueLayout.JAVA_BYTE, o + 2 + j, (byte) (lo | (hi << 4)));
        }
    }

    private static int clip15(float v) {
        int t = (int) v;   // truncation; v >= 0 for finite input
        return Math.max(0, Math.min(15, t));
    }
}
