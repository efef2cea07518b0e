package dev.tegula.vector.quant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tegula.vector.ReferenceRelayout;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The Vector API dequantization kernels and the fused dequantize-relayout against the scalar
 * reference: random block bytes (scales kept finite), every block type, row-major f32 and several
 * converted and tiled destinations, one and several threads.
 */
class DequantizeTest {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** Random blocks whose f16 scale fields are finite and small (random bytes elsewhere). */
    static MemorySegment blocks(Arena arena, QuantBlock q, long count, long seed) {
        Random r = new Random(seed);
        MemorySegment s = arena.allocate(count * q.blockBytes());
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        int[] scaleAt = switch (q) {
            case Q4_0, Q5_0, Q8_0 -> new int[] {0};
            case Q4_1, Q5_1, Q4_K, Q5_K -> new int[] {0, 2};
            case Q2_K -> new int[] {80, 82};
            case Q3_K -> new int[] {108};
            case Q6_K -> new int[] {208};
        };
        for (long b = 0; b < count; b++) {
            for (int at : scaleAt) {
                float v = (float) (r.nextGaussian() * 0.05);
                s.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * q.blockBytes() + at, Float.floatToFloat16(v));
            }
        }
        return s;
    }

    @ParameterizedTest
    @EnumSource(QuantBlock.class)
    void kernelsEqualTheReferenceBitForBit(QuantBlock q) {
        try (Arena arena = Arena.ofConfined()) {
            long n = 37;
            MemorySegment src = blocks(arena, q, n + 1, q.ordinal());
            MemorySegment fast = arena.allocate(n * q.blockSize() * 4 + 4);
            MemorySegment ref = arena.allocate(n * q.blockSize() * 4 + 4);
            // odd offsets: unaligned source blocks and destination floats
            Dequantize.toFloats(q, src, q.blockBytes() - 1, fast, 4 - 1 + 1, n);
            ReferenceDequantize.toFloats(q, src, q.blockBytes() - 1, ref, 4, n);
            for (long i = 0; i < n * q.blockSize(); i++) {
                assertEquals(Float.floatToIntBits(ref.get(F32, 4 + 4 * i)), Float.floatToIntBits(fast.get(F32, 4 + 4 * i)),
                        q + " element " + i);
            }
        }
    }

    @Test
    void q4_0ByHand() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(18);
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, Float.floatToFloat16(0.5f));
            for (int j = 0; j < 16; j++) {
                b.set(ValueLayout.JAVA_BYTE, 2 + j, (byte) (j | ((15 - j) << 4)));
            }
            MemorySegment out = arena.allocate(128);
            Dequantize.toFloats(QuantBlock.Q4_0, b, 0, out, 0, 1);
            for (int i = 0; i < 16; i++) {
                assertEquals(0.5f * (i - 8), out.get(F32, 4L * i));
                assertEquals(0.5f * (15 - i - 8), out.get(F32, 4L * (16 + i)));
            }
        }
    }

    /** The Q5 kernel works in int-counted chunks of slices: a run split into chunks of 3 blocks, at odd offsets, equals the reference. */
    @ParameterizedTest
    @EnumSource(value = QuantBlock.class, names = {"Q5_0", "Q5_1"})
    void q5ChunksEqualReference(QuantBlock q) {
        try (Arena arena = Arena.ofConfined()) {
            long blocks = 11;
            MemorySegment src = blocks(arena, q, blocks + 1, 31 + q.ordinal());
            MemorySegment expected = arena.allocate(blocks * 128);
            ReferenceDequantize.toFloats(q, src, q.blockBytes(), expected, 0, blocks);
            MemorySegment got = arena.allocate(blocks * 128 + 36);
            DequantizeKernels.q5(src, q.blockBytes(), got, 36, blocks, q == QuantBlock.Q5_1, 3);
            assertEquals(-1, expected.mismatch(got.asSlice(36)), q.toString());
        }
    }

    static final String[] TARGETS = {
        "f32[%d,%d]{1,0}", "f32[%d,%d]{0,1}", "bf16[%d,%d]{1,0:T(8,128)(2,1)}", "bf16[%d,%d]{0,1:T(8,128)(2,1)}",
        "f16[%d,%d]{1,0:T(4,128)}", "f32[%d,%d]{0,1:T(8,128)}", "bf16[%d,%d]{1,0}", "f64[%d,%d]{0,1}",
        "f8e4m3fn[%d,%d]{1,0:T(8,128)(4,1)}", "s4[%d,%d]{1,0:E(4)}",
    };

    /**
     * The fused Q8_0, Q4_0, Q4_1, Q5_0, Q5_1 and Q4_K paths into {@code bf16 T(8,128)(2,1)} round in registers with a shortcut
     * for finite scales: scales that are NaN, infinite, the largest f16, subnormal or zero (products
     * NaN from inf x 0, NaN payloads, overflow to inf) must still give what the reference then the relayout give.
     */
    @Test
    void fusedBf16TilesHandleEveryScale() {
        short[] scales = {Float.floatToFloat16(Float.NaN), (short) 0x7C00, (short) 0xFC00, (short) 0x7BFF, (short) 0xFBFF,
            (short) 0x0001, (short) 0x8001, 0, (short) 0x8000, Float.floatToFloat16(1f), Float.floatToFloat16(-3.5f),
            (short) 0x7E01, (short) 0x7E07, (short) 0xFE07, (short) 0x7C07};   // NaN payloads ending in 111: the
        // finite shortcut's rounding add would carry into the kept bits (0x7FC1 for 0x7E07, where bf16 keeps 0x7FC0)
        try (Arena arena = Arena.ofConfined()) {
            for (QuantBlock q : new QuantBlock[] {QuantBlock.Q8_0, QuantBlock.Q4_0, QuantBlock.Q4_1, QuantBlock.Q5_0,
                QuantBlock.Q5_1, QuantBlock.Q4_K}) {
                long rows = 16;
                long cols = q == QuantBlock.Q4_K ? 768 : 384;
                long blocks = rows * cols / q.blockSize();
                MemorySegment src = blocks(arena, q, blocks, 7 + q.ordinal());
                for (long b = 0; b < blocks; b += 3) {   // every third block, in both rows of a pair
                    src.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * q.blockBytes(), scales[(int) (b / 3 % scales.length)]);
                }
                if (q == QuantBlock.Q4_K || q == QuantBlock.Q4_1 || q == QuantBlock.Q5_1) {   // and dmin or m in every other block (inf - inf: NaN)
                    for (long b = 0; b < blocks; b += 2) {
                        // NaN beside a NaN or infinite d too: a NaN result is 0x7FC00000 whichever operand was NaN
                        src.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * q.blockBytes() + 2, scales[(int) (b / 2 % scales.length)]);
                    }
                }
                Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, rows, cols));
                ReferenceDequantize.toFloats(q, src, 0, f32.segment(), 0, blocks);
                ArrayShape shape = ArrayShape.parse("bf16[16," + cols + "]{1,0:T(8,128)(2,1)}");
                Array expected = Array.allocate(arena, shape);
                ReferenceRelayout.copy(f32.shape(), f32.segment(), shape, expected.segment());
                Array got = Array.allocate(arena, shape);
                Dequantize.copy(q, src, got);
                assertEquals(-1, expected.segment().mismatch(got.segment()), q.toString());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(QuantBlock.class)
    void fusedCopyEqualsReferenceThenRelayout(QuantBlock q) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Arena arena = Arena.ofShared()) {
            for (long[] rc : new long[][] {{3, 2L * q.blockSize()}, {37, 3L * q.blockSize()}, {300, q.blockSize()},
                    {24, 4L * q.blockSize()}, {16, 1024}}) {
                long rows = rc[0];
                long cols = rc[1];
                long blocks = rows * cols / q.blockSize();
                MemorySegment src = blocks(arena, q, blocks, rows + q.ordinal());
                Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, rows, cols));
                ReferenceDequantize.toFloats(q, src, 0, f32.segment(), 0, blocks);
                for (String t : TARGETS) {
                    ArrayShape shape = ArrayShape.parse(String.format(t, rows, cols));
                    Array expected = Array.allocate(arena, shape);
                    ReferenceRelayout.copy(f32.shape(), f32.segment(), shape, expected.segment());
                    for (int threads : new int[] {1, 3}) {
                        Array got = Array.allocate(arena, shape);
                        Dequantize.copy(q, src, got, pool, threads);
                        assertEquals(-1, expected.segment().mismatch(got.segment()), q + " -> " + shape + " threads " + threads);
                    }
                }
            }
            // rank 3, the major-most dimension in the middle
            ArrayShape shape = ArrayShape.parse("bf16[3,20," + q.blockSize() + "]{2,0,1:T(8,128)(2,1)}");
            long blocks = shape.elementCount() / q.blockSize();
            MemorySegment src = blocks(arena, q, blocks, 99);
            Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, shape.dimensions()));
            ReferenceDequantize.toFloats(q, src, 0, f32.segment(), 0, blocks);
            Array expected = Array.allocate(arena, shape);
            ReferenceRelayout.copy(f32.shape(), f32.segment(), shape, expected.segment());
            Array got = Array.allocate(arena, shape);
            Dequantize.copy(q, src, got, pool, 2);
            assertEquals(-1, expected.segment().mismatch(got.segment()), q + " -> " + shape);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aConfinedSourceWithAnExecutorRunsOnTheCallingThread() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            MemorySegment src = blocks(confined, QuantBlock.Q8_0, 64, 3);
            Array dst = Array.allocate(shared, ArrayShape.of(ElementType.F32, 32, 64));
            Dequantize.copy(QuantBlock.Q8_0, src, dst, pool, 2);   // no WrongThreadException
            MemorySegment ref = confined.allocate(32 * 64 * 4);
            ReferenceDequantize.toFloats(QuantBlock.Q8_0, src, 0, ref, 0, 64);
            assertEquals(-1, ref.mismatch(dst.segment()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesARowThatIsNotWholeBlocksAndAShortSource() {
        try (Arena arena = Arena.ofConfined()) {
            Array dst = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 48));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Dequantize.copy(QuantBlock.Q8_0, arena.allocate(1000), dst));
            assertEquals(true, e.getMessage().contains("block size 32"), e.getMessage());
            Array ok = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 64));
            e = assertThrows(IllegalArgumentException.class, () -> Dequantize.copy(QuantBlock.Q8_0, arena.allocate(135), ok));
            assertEquals(true, e.getMessage().contains("need 136"), e.getMessage());
        }
    }

    @Test
    void quantizeRoundTripsWithinHalfAStep() {
        try (Arena arena = Arena.ofConfined()) {
            Random r = new Random(5);
            MemorySegment x = arena.allocate(128 * 4);
            for (int i = 0; i < 128; i++) {
                x.set(F32, 4L * i, (float) r.nextGaussian());
            }
            for (QuantBlock q : new QuantBlock[] {QuantBlock.Q8_0, QuantBlock.Q4_0}) {
                MemorySegment b = arena.allocate(4L * q.blockBytes());
                Quantize.fromFloats(q, x, 0, b, 0, 4);
                MemorySegment y = arena.allocate(128 * 4);
                Dequantize.toFloats(q, b, 0, y, 0, 4);
                for (int blk = 0; blk < 4; blk++) {
                    float d = Math.abs(Float.float16ToFloat(b.get(ValueLayout.JAVA_SHORT_UNALIGNED, (long) blk * q.blockBytes())));
                    for (int i = 32 * blk; i < 32 * blk + 32; i++) {
                        float err = Math.abs(x.get(F32, 4L * i) - y.get(F32, 4L * i));
                        // Q4_0's top quant is clipped at 15 (+7 d): the positive extreme may be off by a whole step
                        float bound = q == QuantBlock.Q8_0 ? 0.51f * d + 1e-3f : 1.01f * d + 1e-3f;
                        assertEquals(true, err <= bound, q + " element " + i + " error " + err + " step " + d);
                    }
                }
            }
            assertThrows(IllegalArgumentException.class,
                    () -> Quantize.fromFloats(QuantBlock.Q4_K, x, 0, arena.allocate(1000), 0, 1));
        }
    }
}
