package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.F16Overflow;
import dev.tegula.io.F16OverflowException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GgufWriter} narrowing to f16: a float array written as F16, and the f16 block scale of
 * Q8_0/Q4_0. A finite value that f16 cannot hold is refused by default (tensor, element, value; no
 * file written), saturated or written as infinity when asked; an infinity in the array is kept.
 */
class GgufWriterF16OverflowTest {
    @TempDir
    Path dir;

    private static short[] codes(Path file, String tensor, Arena arena) throws IOException {
        GgufTensor t = Gguf.open(file, arena).tensor(tensor);
        return t.data().toArray(ValueLayout.JAVA_SHORT_UNALIGNED);
    }

    @Test
    void aFloatArrayWrittenAsF16FollowsTheRuleAtEveryPosition() throws IOException {
        for (ElementType from : new ElementType[] {ElementType.F32, ElementType.F64, ElementType.BF16}) {
            // values that fit (65519.99609375 rounds down to 65504; bf16 holds neither it nor 65504, but 65280)
            double[] row = from == ElementType.BF16
                    ? new double[] {65280, -65280, 1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, -2}
                    : new double[] {65504, 65519.99609375, -65504, 1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -2};
            short[] rowCodes = from == ElementType.BF16
                    ? new short[] {0x7BF8, (short) 0xFBF8, 0x3E00, 0x7C00, (short) 0xFC00, 0, (short) 0xC000}
                    : new short[] {0x7BFF, 0x7BFF, (short) 0xFBFF, 0x3E00, 0x7C00, (short) 0xFC00, (short) 0xC000};
            for (int at = 0; at < row.length; at++) {
                if (Double.isInfinite(row[at])) {
                    continue;
                }
                try (Arena arena = Arena.ofConfined()) {
                    Array a = Array.allocate(arena, ArrayShape.of(from, 2, row.length));
                    a.copyFrom(java.util.stream.DoubleStream.concat(java.util.Arrays.stream(row), java.util.Arrays.stream(row))
                            .toArray());
                    double big = at % 2 == 0 ? 70000 : -1e9;
                    a.setDouble(new long[] {1, at}, big);
                    double stored = a.getDouble(1, at);   // as the source type holds it (bf16 rounds)
                    Path out = dir.resolve("f16.gguf");
                    Files.deleteIfExists(out);
                    F16OverflowException e = assertThrows(F16OverflowException.class,
                            () -> Gguf.writer().tensor("w", a, GgufType.F16).write(out), from + " at " + at);
                    assertEquals("w", e.tensor());
                    assertArrayEquals(new long[] {1, at}, e.index());
                    assertEquals(stored, e.value());
                    assertFalse(Files.exists(out), "nothing written");
                    for (F16Overflow rule : new F16Overflow[] {F16Overflow.SATURATE, F16Overflow.INFINITY}) {
                        Gguf.writer().f16Overflow(rule).tensor("w", a, GgufType.F16).write(out);
                        short[] got = codes(out, "w", arena);
                        short[] expect = new short[2 * row.length];
                        System.arraycopy(rowCodes, 0, expect, 0, row.length);
                        System.arraycopy(rowCodes, 0, expect, row.length, row.length);
                        expect[row.length + at] = (short) ((big < 0 ? 0x8000 : 0) | (rule == F16Overflow.SATURATE ? 0x7BFF : 0x7C00));
                        assertArrayEquals(expect, got, from + " " + rule + " at " + at);
                    }
                }
            }
        }
    }

    @Test
    void anF16ArrayIsWrittenAsItIsAndIntegersAreNotConverted() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F16, 2));
            a.segment().set(ValueLayout.JAVA_SHORT, 0, (short) 0x7C00);
            a.segment().set(ValueLayout.JAVA_SHORT, 2, (short) 0x7BFF);
            Path out = dir.resolve("same.gguf");
            Gguf.writer().tensor("h", a, GgufType.F16).write(out);
            assertArrayEquals(new short[] {0x7C00, 0x7BFF}, codes(out, "h", arena));
            Array ints = Array.allocate(arena, ArrayShape.of(ElementType.S32, 2));
            assertThrows(IllegalArgumentException.class, () -> Gguf.writer().tensor("i", ints, GgufType.F16));
        }
    }

    /**
     * Q8_0's scale is max|x| / 127 and Q4_0's x[argmax|x|] / -8, each stored as f16: a block whose
     * values pass 127 x 65520 or 8 x 65520 needs an infinite scale. Refused by default; saturated, the
     * block's values are clamped so that the scale is 65504; under IEEE the scale is infinity (as
     * gguf.quants writes); an infinity in the block gives an infinite scale under every rule.
     */
    @Test
    void aQuantizedBlockWhoseScaleOverflowsFollowsTheRule() throws IOException {
        for (GgufType type : new GgufType[] {GgufType.Q8_0, GgufType.Q4_0}) {
            float big = type == GgufType.Q8_0 ? 127 * 65536f : 8 * 65536f;
            try (Arena arena = Arena.ofConfined()) {
                Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 64));
                a.fill(3.0);
                a.setFloat(1, 37, -big);                 // the fourth block (row 1, columns 32..63)
                Path out = dir.resolve("q.gguf");
                Files.deleteIfExists(out);
                F16OverflowException e = assertThrows(F16OverflowException.class,
                        () -> Gguf.writer().tensor("q", a, type).write(out));
                assertArrayEquals(new long[] {1, 37}, e.index(), type.toString());
                assertEquals(-big, e.value());
                assertTrue(e.getMessage().contains("scale of its " + type + " block"), e.getMessage());
                assertFalse(Files.exists(out));

                Gguf.writer().f16Overflow(F16Overflow.SATURATE).tensor("q", a, type).write(out);
                GgufTensor t = Gguf.open(out, arena).tensor("q");
                short scale = t.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, 3L * type.blockBytes());
                assertEquals(0x7BFF, scale & 0x7FFF, type + " scale saturated");
                Array back = t.read(ArrayShape.of(ElementType.F32, 2, 64), arena);
                assertEquals(-65504.0 * (type == GgufType.Q8_0 ? 127 : 8), back.getDouble(1, 37), type.toString());
                assertEquals(3.0, back.getDouble(0, 5), 0.5, "other blocks as before");

                Gguf.writer().f16Overflow(F16Overflow.INFINITY).tensor("q", a, type).write(out);
                t = Gguf.open(out, arena).tensor("q");
                assertEquals(0x7C00, t.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, 3L * type.blockBytes()) & 0x7FFF);

                a.setFloat(1, 37, Float.NEGATIVE_INFINITY);   // an infinity of the data: no refusal
                Gguf.writer().tensor("q", a, type).write(out);
                t = Gguf.open(out, arena).tensor("q");
                assertEquals(0x7C00, t.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, 3L * type.blockBytes()) & 0x7FFF);
            }
        }
    }

    @Test
    void aBlockJustUnderTheScaleLimitIsWrittenUnderEveryRule() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 1, 32));
            a.fill(1.0);
            a.setFloat(0, 0, 127 * 65504f);   // Q8_0 scale exactly 65504
            Path out = dir.resolve("edge.gguf");
            Gguf.writer().tensor("q", a, GgufType.Q8_0).write(out);
            GgufTensor t = Gguf.open(out, arena).tensor("q");
            assertEquals(0x7BFF, t.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0));
        }
    }
}
