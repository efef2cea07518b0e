package dev.tegula.vector.quant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.vector.ReferenceRelayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Q6_K kernels ({@link Q6kKernels}) against the definition of llama.cpp's {@code block_q6_K}
 * written out by hand, and against the scalar reference ({@link ReferenceDequantize}, then
 * {@link ReferenceRelayout} for bf16 tiles) bit for bit, on random blocks whose {@code d} is
 * finite, zero, subnormal, infinite or NaN: at this JVM's vector width and, in child JVMs, at
 * 128 and 256 bits ({@code -XX:MaxVectorSize=16} and {@code =32}).
 */
class Q6kKernelsTest {
    /** f16 codes for {@code d}: NaNs, infinities, zeros, subnormals, the largest values, ordinary ones. */
    private static final short[] SPECIAL_D = {
        0x7E00, (short) 0xFE07, 0x7C01, 0x7C00, (short) 0xFC00, 0, (short) 0x8000, 0x0001, (short) 0x83FF,
        0x7BFF, (short) 0xFBFF, 0x3C00, (short) 0xB800,
    };

    /** {@code count} random Q6_K blocks; {@code d} a random small value, or one of {@link #SPECIAL_D} where {@code special}. */
    static MemorySegment blocks(Arena arena, long count, long seed, boolean special) {
        Random r = new Random(seed);
        MemorySegment s = arena.allocate(count * 210 + 1);
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        for (long b = 0; b < count; b++) {
            short d = special && r.nextInt(3) == 0 ? SPECIAL_D[r.nextInt(SPECIAL_D.length)]
                    : Float.floatToFloat16((float) (r.nextGaussian() * 0.05));
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * 210 + 208, d);
        }
        return s;
    }

    /**
     * One block encoded by hand as llama.cpp lays it out: element {@code i = 128 n + 32 g + l} keeps
     * its low nibble in {@code ql[64 n + 32 (g % 2) + l]} (the high nibble there when {@code g >= 2}),
     * its two high bits at bit {@code 2 g} of {@code qh[32 n + l]}, and takes scale {@code scales[i / 16]}.
     */
    @Test
    void aBlockEncodedByHandIsDTimesScaleTimesQuantMinus32() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(210);
            int[] quant = new int[256];
            for (int i = 0; i < 256; i++) {
                quant[i] = (i * 37 + 11) % 64;   // every 6-bit value, in no pattern the layout follows
                int n = i / 128;
                int g = i % 128 / 32;
                int l = i % 32;
                long lo = 64 * n + 32 * (g % 2) + l;
                long hi = 128 + 32 * n + l;
                b.set(ValueLayout.JAVA_BYTE, lo, (byte) (b.get(ValueLayout.JAVA_BYTE, lo) | (quant[i] & 0xF) << 4 * (g / 2)));
                b.set(ValueLayout.JAVA_BYTE, hi, (byte) (b.get(ValueLayout.JAVA_BYTE, hi) | (quant[i] >> 4) << 2 * g));
            }
            byte[] scales = {1, -1, 127, -128, 2, 3, -7, 0, 64, -64, 5, 9, -33, 100, -100, 17};
            for (int j = 0; j < 16; j++) {
                b.set(ValueLayout.JAVA_BYTE, 192 + j, scales[j]);
            }
            b.set(ValueLayout.JAVA_SHORT_UNALIGNED, 208, Float.floatToFloat16(0.25f));
            MemorySegment out = arena.allocate(1024);
            Dequantize.toFloats(QuantBlock.Q6_K, b, 0, out, 0, 1);
            for (int i = 0; i < 256; i++) {
                float expected = 0.25f * scales[i / 16] * (quant[i] - 32);   // exact: small integers times a power of two
                assertEquals(expected, out.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * i), "element " + i);
            }
            assertEquals(1.25f, out.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * 16), "element 16: quant 27, scale -1");
        }
    }

    @Property(tries = 60)
    void toFloatsEqualsTheReference(@ForAll @IntRange(min = 1, max = 9) int blocks, @ForAll @IntRange(max = 3) int srcOff,
                                    @ForAll @IntRange(max = 3) int dstOff, @ForAll long seed) {
        assertEquals("", toFloatsMismatch(blocks, srcOff, dstOff, seed));
    }

    @Property(tries = 25)
    void bf16TilesEqualTheReferenceThenTheRelayout(@ForAll @IntRange(min = 1, max = 3) int tileRows,
                                                   @ForAll @IntRange(min = 1, max = 3) int blocksPerRow,
                                                   @ForAll long seed) {
        assertEquals("", bf16TilesMismatch(8 * tileRows, 256L * blocksPerRow, seed));
    }

    /** {@return "" if {@link Dequantize#toFloats} of random blocks (some {@code d} special) at the offsets equals the reference bit for bit, else where not} */
    static String toFloatsMismatch(int blocks, int srcOff, int dstOff, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = blocks(arena, blocks + 1, seed, true);
            MemorySegment ref = arena.allocate(blocks * 1024L);
            ReferenceDequantize.toFloats(QuantBlock.Q6_K, src, srcOff, ref, 0, blocks);
            MemorySegment got = arena.allocate(blocks * 1024L + dstOff);
            Dequantize.toFloats(QuantBlock.Q6_K, src, srcOff, got, dstOff, blocks);
            long at = ref.mismatch(got.asSlice(dstOff));
            return at < 0 ? "" : "toFloats, " + blocks + " blocks, seed " + seed + ": first differing byte " + at;
        }
    }

    /** {@return "" if {@code rows x cols} random blocks into bf16 {@code T(8,128)(2,1)} tiles equal the reference then the reference relayout, else where not} */
    static String bf16TilesMismatch(long rows, long cols, long seed) {
        try (Arena arena = Arena.ofConfined()) {
            long blocks = rows * cols / 256;
            MemorySegment src = blocks(arena, blocks, seed, true);
            Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, rows, cols));
            ReferenceDequantize.toFloats(QuantBlock.Q6_K, src, 0, f32.segment(), 0, blocks);
            ArrayShape shape = ArrayShape.parse("bf16[" + rows + "," + cols + "]{1,0:T(8,128)(2,1)}");
            Array expected = Array.allocate(arena, shape);
            ReferenceRelayout.copy(f32.shape(), f32.segment(), shape, expected.segment());
            Array got = Array.allocate(arena, shape);
            Dequantize.copy(QuantBlock.Q6_K, src, got);
            long at = expected.segment().mismatch(got.segment());
            return at < 0 ? "" : "bf16 tiles " + rows + "x" + cols + ", seed " + seed + ": first differing byte " + at;
        }
    }

    /**
     * The child JVM of {@link #everyVectorWidthGivesTheReferenceBits}: prints its lane count, then the
     * mismatches of many random cases (each kernel called often enough to be compiled by C2), then "done".
     */
    public static void main(String[] args) {
        System.out.println("lanes " + Q6kKernels.L);
        List<String> wrong = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            wrong.add(toFloatsMismatch(1 + k % 7, k % 3, k % 4, k));
        }
        for (int k = 0; k < 40; k++) {
            wrong.add(bf16TilesMismatch(8 + 8 * (k % 2), 256 + 256 * (k % 3), k));
        }
        wrong.stream().filter(w -> !w.isEmpty()).forEach(System.out::println);
        System.out.println("done");
    }

    /** 128-bit and 256-bit vectors (4 and 8 lanes) give the reference's bits, in JVMs started with that width. */
    @ParameterizedTest
    @ValueSource(ints = {16, 32})
    void everyVectorWidthGivesTheReferenceBits(int maxVectorBytes) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-XX:MaxVectorSize=" + maxVectorBytes, "-Xshare:off", "-cp", System.getProperty("java.class.path"),
                Q6kKernelsTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertEquals("lanes " + Math.min(maxVectorBytes / 4, Q6kKernels.L), lines.get(0), out);
        assertEquals(List.of("done"), lines.subList(1, lines.size()), out);
    }
}
