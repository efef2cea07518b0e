package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufType;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TensorFiles#convert} to f16 of values beyond f16's range: refused by default naming the
 * tensor, the element and the value (the target left as it was), saturated to 65504 or written as
 * infinity when asked; values just under the rounding boundary 65520, infinities and NaNs of the
 * input are written as IEEE rounding gives them under every rule. Expected codes are written out by
 * hand from IEEE 754 binary16 (65504 is 0x7BFF, infinity 0x7C00).
 */
class ConvertF16OverflowTest {
    @TempDir
    Path dir;

    private static final short MAX = 0x7BFF;
    private static final short INF = 0x7C00;

    /** Values with the f16 code each gives under IEEE rounding, none of which overflows. */
    private static final double[] KEPT = {65504, -65504, 65519.99609375 /* the f32 just below 65520 */, 65510, 1, 0,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    private static final short[] KEPT_CODES = {MAX, (short) (MAX | 0x8000), MAX, MAX, 0x3C00, 0, INF, (short) 0xFC00};

    private Path npy(String name, Array a) throws IOException {
        Path p = dir.resolve(name);
        Npy.write(a, p);
        return p;
    }

    private static ConvertOptions options(F16Overflow rule) {
        return ConvertOptions.defaults().withParallelism(1).withF16Overflow(rule);
    }

    private static ConvertRules toF16() {
        return ConvertRules.all().floatType(ElementType.F16);
    }

    private static short[] codes(Path npy) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Npy.read(npy, arena);
            assertEquals(ElementType.F16, a.shape().elementType());
            return a.segment().toArray(ValueLayout.JAVA_SHORT);
        }
    }

    @Test
    void valuesUnder65520InfinitiesAndZerosAreWrittenAsIeeeGivesThemUnderEveryRule() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, KEPT.length));
            a.copyFrom(KEPT);
            Path in = npy("kept.npy", a);
            for (F16Overflow rule : F16Overflow.values()) {
                Path out = dir.resolve("kept-" + rule + ".npy");
                TensorFiles.convert(in, out, toF16(), options(rule));
                assertArrayEquals(KEPT_CODES, codes(out), rule.toString());
            }
        }
    }

    @Test
    void aNaNStaysANaN() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2));
            a.setFloat(new long[] {0}, Float.NaN);
            a.setFloat(new long[] {1}, Float.intBitsToFloat(0xFFC0_0001));
            Path out = dir.resolve("nan.npy");
            TensorFiles.convert(npy("nan.npy.in.npy", a), out, toF16(), options(F16Overflow.REFUSE));
            for (short c : codes(out)) {
                assertTrue((c & 0x7FFF) > 0x7C00, "a NaN code: " + Integer.toHexString(c & 0xFFFF));
            }
        }
    }

    /**
     * A value of 65520 (the rounding boundary: IEEE rounds it to infinity) or more, at every position
     * of a matrix written column-major (the element's slot is not its row-major position): refused
     * naming it and its logical index, saturated to 65504, or written as infinity.
     */
    @Test
    void anOverflowAtEveryPositionIsRefusedSaturatedOrInfinite() throws IOException {
        long rows = 3;
        long cols = 7;
        double[] overflowing = {65520, -65520, 1e30, -Float.MAX_VALUE};
        try (Arena arena = Arena.ofConfined()) {
            for (long at = 0; at < rows * cols; at++) {
                double v = overflowing[(int) (at % overflowing.length)];
                Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, rows, cols));
                a.copyFrom(java.util.stream.IntStream.range(0, (int) (rows * cols)).mapToDouble(i -> i - 10).toArray());
                long[] index = {at / cols, at % cols};
                a.setFloat(index, (float) v);
                a.setFloat(new long[] {(at + 1) % rows, 0}, Float.POSITIVE_INFINITY);   // an input infinity elsewhere
                Path in = npy("in.npy", a);
                ConvertRules columnMajor = toF16().layout("*", "{0,1}");
                Path out = dir.resolve("out.npy");
                Files.write(out, new byte[] {1, 2, 3});   // an existing target stays as it was
                F16OverflowException e = assertThrows(F16OverflowException.class,
                        () -> TensorFiles.convert(in, out, columnMajor, options(F16Overflow.REFUSE)));
                assertEquals("in", e.tensor());
                assertArrayEquals(index, e.index(), "element " + at);
                assertEquals((float) v, e.value());
                assertTrue(e.getMessage().contains("tensor 'in' element " + java.util.Arrays.toString(index) + " is "),
                        e.getMessage());
                assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out));
                IoFixtures.assertNoTemporaries(dir);

                for (F16Overflow rule : new F16Overflow[] {F16Overflow.SATURATE, F16Overflow.INFINITY}) {
                    TensorFiles.convert(in, out, columnMajor, options(rule));
                    try (Arena read = Arena.ofConfined()) {
                        Array got = Npy.read(out, read);
                        assertEquals("f16[3,7]{0,1}", got.shape().toString());
                        MemorySegment seg = got.segment();
                        long slot = got.shape().linearIndex(index);
                        short expect = (short) ((v < 0 ? 0x8000 : 0) | (rule == F16Overflow.SATURATE ? MAX : INF));
                        assertEquals(expect, seg.getAtIndex(ValueLayout.JAVA_SHORT, slot), rule + " element " + at);
                        assertEquals(Double.POSITIVE_INFINITY, got.getDouble((at + 1) % rows, 0), "input infinity kept");
                        for (long i = 0; i < rows; i++) {
                            for (long j = 0; j < cols; j++) {
                                if ((i != index[0] || j != index[1]) && !(i == (at + 1) % rows && j == 0)) {
                                    assertEquals(a.getDouble(i, j), got.getDouble(i, j));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** Every source type that can exceed f16 is checked: f64 (rounded once), bf16, s32, u16. */
    @Test
    void everyWiderSourceTypeIsChecked() throws IOException {
        Object[][] cases = {
            {ElementType.F64, 65519.999, 65520.0, MAX},         // just under and at the boundary, from a double
            {ElementType.BF16, 65280.0, 65536.0, (short) 0x7BF8}, // bf16 codes 0x477F (fits) and 0x4780 (does not)
            {ElementType.S32, 65519.0, 70000.0, MAX},
            {ElementType.U16, 65519.0, 65535.0, MAX},
        };
        try (Arena arena = Arena.ofConfined()) {
            for (Object[] c : cases) {
                ElementType t = (ElementType) c[0];
                Array a = Array.allocate(arena, ArrayShape.of(t, 2));
                a.copyFrom(new double[] {(double) c[1], (double) c[2]});
                Path in = dir.resolve(t.hloName() + ".safetensors");
                SafeTensors.write(Map.of("x", a), in);
                ConvertRules rules = ConvertRules.all().type("*", ElementType.F16);
                F16OverflowException e = assertThrows(F16OverflowException.class,
                        () -> TensorFiles.convert(in, dir.resolve("o.npy"), rules, options(F16Overflow.REFUSE)), t.hloName());
                assertArrayEquals(new long[] {1}, e.index(), t.hloName());
                assertEquals((double) c[2], e.value(), t.hloName());
                Path out = dir.resolve(t.hloName() + "-sat.npy");
                TensorFiles.convert(in, out, rules, options(F16Overflow.SATURATE));
                assertArrayEquals(new short[] {(short) c[3], MAX}, codes(out), t.hloName());
            }
        }
    }

    /** A tensor written in many windows, several threads, the overflow in the last window; a tiled output (padding skipped). */
    @Test
    void anOverflowInTheLastWindowOfALargeTensorIsFound() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 1024, 1000));   // 4 MB in 1 MiB windows
            a.fill(1.5);
            a.setFloat(1023, 998, 1e6f);
            Path in = npy("big.npy", a);
            ConvertOptions budget = ConvertOptions.defaults().withMemory(1L << 20).withParallelism(2);
            F16OverflowException e = assertThrows(F16OverflowException.class,
                    () -> TensorFiles.convert(in, dir.resolve("big.bin"), toF16(), budget));
            assertArrayEquals(new long[] {1023, 998}, e.index());
            assertEquals(1e6, e.value());
            IoFixtures.assertNoTemporaries(dir);

            Path raw = dir.resolve("big.bin");
            ConvertReport r = TensorFiles.convert(in, raw, toF16().layout("*", "{1,0:T(8,128)}"),
                    budget.withF16Overflow(F16Overflow.SATURATE));
            assertTrue(r.tensors().getFirst().windows() > 1, "windows: " + r.tensors().getFirst().windows());
            try (Arena read = Arena.ofConfined()) {
                Array got = Array.wrap(MemorySegment.ofArray(Files.readAllBytes(raw)), r.tensors().getFirst().to());
                assertEquals(65504.0, got.getDouble(1023, 998));
                assertEquals(1.5, got.getDouble(1023, 999));
                assertEquals(1.5, got.getDouble(0, 0));
            }
        }
    }

    /** A GGUF block-quantized tensor dequantized into f16: a block whose values pass 65504 is refused by its element. */
    @Test
    void aDequantizedValueBeyondF16IsRefusedToo() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 64));
            a.fill(0.25);
            a.setFloat(1, 40, -200000f);
            Path gguf = dir.resolve("q.gguf");
            Gguf.writer().tensor("blk.0.w", a, GgufType.Q8_0).write(gguf);
            F16OverflowException e = assertThrows(F16OverflowException.class,
                    () -> TensorFiles.convert(gguf, dir.resolve("q.safetensors"), toF16(), options(F16Overflow.REFUSE)));
            assertEquals("blk.0.w", e.tensor());
            assertArrayEquals(new long[] {1, 40}, e.index());
            assertTrue(e.value() < -65520, "the dequantized value: " + e.value());
            Path out = dir.resolve("q.safetensors");
            TensorFiles.convert(gguf, out, toF16(), options(F16Overflow.SATURATE));
            try (Arena read = Arena.ofConfined()) {
                Map<String, Array> t = SafeTensors.read(out, read);
                assertEquals(-65504.0, t.get("blk.0.w").getDouble(1, 40));
                assertFalse(Double.isInfinite(t.get("blk.0.w").getDouble(1, 41)));
            }
        }
    }

    @Test
    void anF16SourceIsWrittenAsItIs() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F16, 3));
            a.segment().copyFrom(MemorySegment.ofArray(new short[] {INF, MAX, (short) 0xFC00}));
            Path out = dir.resolve("same.npy");
            TensorFiles.convert(npy("f16.npy", a), out, toF16().layout("*", "{0}"), options(F16Overflow.REFUSE));
            assertArrayEquals(new short[] {INF, MAX, (short) 0xFC00}, codes(out));
        }
    }
}
