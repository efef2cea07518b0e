package dev.tegula.vector.quant;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Blocks whose f16 scales and minimums are NaN (quiet, signalling, either sign, any payload),
 * infinite, zero, subnormal or the largest f16 dequantize to the same bits on every path, every
 * run, every thread count and every vector width (vector/pom.xml runs this class with 512-bit and
 * 256-bit vectors and with the scalar relayout kernels): the f32 kernels, the f32 and bf16
 * row-major destinations, the fused and the buffered bf16 {@code T(8,128)(2,1)} tile kernels, the
 * chunked relayout into other types and layouts, and the two-pass fallback, on 1, 2, 3 and 8
 * threads, all against the scalar reference then the reference relayout. Every element whose value is NaN is the one quiet NaN
 * {@code 0x7FC00000}, whichever operands were NaN.
 */
class DequantizeNaNBitsTest {
    private static final int CANONICAL_NAN = 0x7FC0_0000;

    /** f16 codes the scale fields take: NaNs of every kind, infinities, zeros, subnormals, extremes, ordinary values. */
    private static final short[] SPECIAL = {
        0x7E00, (short) 0xFE00, 0x7C01, (short) 0xFC01, 0x7E07, (short) 0xFFFF, 0x7DFF, 0x7FFF, 0x7E55,
        0x7C00, (short) 0xFC00, 0, (short) 0x8000, 0x0001, (short) 0x8001, 0x03FF, 0x7BFF, (short) 0xFBFF,
        0x3C00, (short) 0xC100,
    };

    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(8);
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    /** The byte offsets of the f16 scale fields (scale, minimum) of a block of {@code q}. */
    static int[] scaleFields(QuantBlock q) {
        return switch (q) {
            case Q4_0, Q5_0, Q8_0 -> new int[] {0};
            case Q4_1, Q5_1, Q4_K, Q5_K -> new int[] {0, 2};
            case Q2_K -> new int[] {80, 82};
            case Q3_K -> new int[] {108};
            case Q6_K -> new int[] {208};
        };
    }

    /** Random blocks; each scale field is one of {@link #SPECIAL} (half the time) or a small finite value. */
    static MemorySegment blocks(Arena arena, QuantBlock q, long count, long seed) {
        Random r = new Random(seed);
        MemorySegment s = arena.allocate(count * q.blockBytes());
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        for (long b = 0; b < count; b++) {
            for (int at : scaleFields(q)) {
                short code = r.nextBoolean() ? SPECIAL[r.nextInt(SPECIAL.length)]
                        : Float.floatToFloat16((float) (r.nextGaussian() * 0.05));
                s.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * q.blockBytes() + at, code);
            }
        }
        return s;
    }

    /** Destinations that take each path of {@link Dequantize#copy} (rows, cols filled in). */
    private static final String[] TARGETS = {
        "f32[%d,%d]{1,0}",                         // the f32 kernels straight into place
        "bf16[%d,%d]{1,0}",                        // f32 row, rounded by the bf16 lanes
        "bf16[%d,%d]{1,0:T(8,128)(2,1)}",          // fused tile kernels (or the buffered zip)
        "bf16[%d,%d]{0,1:T(8,128)(2,1)}",          // chunks relaid by a plan
        "f32[%d,%d]{0,1}", "f16[%d,%d]{1,0:T(4,128)}", "f64[%d,%d]{0,1}", "f16[%d,%d]{1,0}",
        "s4[%d,%d]{1,0:E(4)}",                     // the two-pass fallback
    };

    @ParameterizedTest
    @EnumSource(QuantBlock.class)
    void everyPathWritesTheReferenceBitsWhateverTheScales(QuantBlock q) {
        long rows = 16;
        long cols = q.blockSize() == 256 ? 512 : 384;
        long blocks = rows * cols / q.blockSize();
        try (Arena arena = Arena.ofShared()) {
            for (long k = 0; k < 2; k++) {
                long seed = 1000 * q.ordinal() + k;
                MemorySegment src = blocks(arena, q, blocks, seed);
                Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, rows, cols));
                ReferenceDequantize.toFloats(q, src, 0, f32.segment(), 0, blocks);
                for (String t : TARGETS) {
                    ArrayShape shape = ArrayShape.parse(String.format(t, rows, cols));
                    Array expected = Array.allocate(arena, shape);
                    ReferenceRelayout.copy(f32.shape(), f32.segment(), shape, expected.segment());
                    // 8 threads: more than the tiled destinations' 2 rows of tiles
                    for (int threads : k == 0 ? new int[] {1, 2, 8} : new int[] {1, 3}) {
                        Array got = Array.allocate(arena, shape);
                        Dequantize.copy(q, src, got, pool, threads);
                        long at = expected.segment().mismatch(got.segment());
                        assertEquals(-1, at, () -> q + " -> " + shape + ", " + threads + " threads, seed " + seed
                                + ": first differing byte " + at + " of " + got.segment().byteSize());
                    }
                }
            }
        }
    }

    /**
     * The f32 kernels called again and again on the same blocks (so the interpreter, C1 and C2 code of
     * each runs them) at unaligned offsets give the reference's bits each time.
     */
    @ParameterizedTest
    @EnumSource(QuantBlock.class)
    void theSameBlocksGiveTheSameBitsOnEveryRun(QuantBlock q) {
        try (Arena arena = Arena.ofConfined()) {
            long n = 24;
            MemorySegment src = blocks(arena, q, n + 1, 77 + q.ordinal());
            MemorySegment ref = arena.allocate(n * q.blockSize() * 4);
            ReferenceDequantize.toFloats(q, src, 1, ref, 0, n);
            MemorySegment got = arena.allocate(n * q.blockSize() * 4 + 4);
            for (int run = 0; run < 3000; run++) {
                long blocksThisRun = 1 + run % n;   // runs of every length, so each kernel's loop compiles too
                Dequantize.toFloats(q, src, 1, got, 3, blocksThisRun);
                long bytes = blocksThisRun * q.blockSize() * 4;
                long at = ref.asSlice(0, bytes).mismatch(got.asSlice(3, bytes));
                int r = run;
                assertEquals(-1, at, () -> q + " run " + r + ": first differing byte " + at);
            }
        }
    }

    /** The rule by hand: a NaN result is 0x7FC00000 whatever its operands, infinities and zeros as IEEE gives them. */
    @Test
    void aNaNResultIsTheOneQuietNaN() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(20);
            for (int j = 0; j < 16; j++) {
                b.set(ValueLayout.JAVA_BYTE, 4 + j, (byte) (j | (j << 4)));   // quants 0..15 in both halves
            }
            MemorySegment out = arena.allocate(128);
            short[][] dm = {
                {(short) 0xFE01, 0x7E05},          // both NaN, different signs and payloads
                {0x7C01, (short) 0xFC00},          // signalling NaN scale, -inf minimum
                {0x7C00, (short) 0xFC00},          // inf * q - inf: NaN everywhere (inf * 0 too)
                {0x7C00, 0x3C00},                  // inf * 0 is NaN, inf * q + 1 is inf
                {(short) 0xFC00, (short) 0xFE00},  // -inf scale, NaN minimum
            };
            int[] quants = new int[32];
            for (int i = 0; i < 32; i++) {
                quants[i] = i % 16;
            }
            assertDTimesQPlusM(QuantBlock.Q4_1, b, dm, quants, out);
        }
    }

    /**
     * Dequantizes the one block {@code b} of {@code type} (f16 {@code d} at byte 0, f16 {@code m} at
     * byte 2) with each {@code (d, m)} pair of {@code dm} and checks every element {@code i} against
     * {@code d * quants[i] + m} in IEEE f32: its bits, or the one quiet NaN where that is NaN.
     */
    private static void assertDTimesQPlusM(QuantBlock type, MemorySegment b, short[][] dm, int[] quants,
                                           MemorySegment out) {
        for (short[] c : dm) {
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, c[0]);
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, c[1]);
            Dequantize.toFloats(type, b, 0, out, 0, 1);
            float d = Float.float16ToFloat(c[0]);
            float m = Float.float16ToFloat(c[1]);
            for (int i = 0; i < quants.length; i++) {
                float ieee = d * quants[i] + m;
                int bits = out.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i);
                String where = String.format("%s d %04x m %04x element %d (q %d)", type, c[0], c[1], i, quants[i]);
                if (Float.isNaN(ieee)) {
                    assertEquals(CANONICAL_NAN, bits, where);
                } else {
                    assertEquals(Float.floatToRawIntBits(ieee), bits, where);
                }
            }
        }
    }

    /**
     * The same by hand for Q5_1 (llama.cpp's {@code block_q5_1}: f16 {@code d}, f16 {@code m}, 32 bits
     * {@code qh}, 16 bytes {@code qs}): element {@code j < 16} has quant {@code (qs[j] & 15) | bit j of
     * qh << 4}, element {@code j + 16} has {@code (qs[j] >> 4) | bit j + 16 of qh << 4}, and its value
     * is {@code d * q + m}.
     */
    @Test
    void aQ5_1NaNResultIsTheOneQuietNaNAndEveryOtherValueIsDTimesQPlusM() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(24);
            // qh: bits 0-15 0xAAAA (odd j: high bit), bits 16-31 0x5555 (even j); qs: j in both nibbles
            b.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 4, 0x5555_AAAA);
            for (int j = 0; j < 16; j++) {
                b.set(ValueLayout.JAVA_BYTE, 8 + j, (byte) (j | (j << 4)));
            }
            // the quants that layout gives, element by element: 0, 17, 2, 19, ... then 16, 1, 18, 3, ...
            int[] quants = new int[32];
            for (int j = 0; j < 16; j++) {
                quants[j] = j + (j % 2 == 1 ? 16 : 0);
                quants[j + 16] = j + (j % 2 == 0 ? 16 : 0);
            }
            MemorySegment out = arena.allocate(128);
            short[][] dm = {
                {0x3C00, 0},                       // d 1, m 0: the quants themselves
                {0x3800, (short) 0xC100},          // d 0.5, m -2.5
                {(short) 0xFE01, 0x7E05},          // both NaN, different signs and payloads
                {0x7C01, (short) 0xFC00},          // signalling NaN scale, -inf minimum
                {0x7C00, (short) 0xFC00},          // inf * q - inf: NaN everywhere (inf * 0 too)
                {0x7C00, 0x3C00},                  // inf * 0 is NaN, inf * q + 1 is inf
                {(short) 0xFC00, (short) 0xFE00},  // -inf scale, NaN minimum
                {0x0001, 0x7BFF},                  // subnormal scale, largest f16 minimum
            };
            assertDTimesQPlusM(QuantBlock.Q5_1, b, dm, quants, out);
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) 0x3C00);
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, (short) 0);
            Dequantize.toFloats(QuantBlock.Q5_1, b, 0, out, 0, 1);
            assertEquals(17f, out.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4), "element 1: nibble 1, high bit set");
            assertEquals(16f, out.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 64), "element 16: nibble 0, high bit set");
            assertEquals(31f, out.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * 15), "element 15: nibble 15, high bit set");
        }
    }
}
