package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TensorFiles#read} and {@link TensorFiles#readAs} of the safetensors files {@link TensorFiles#convert}
 * writes: a tensor stored as {@code U8} bytes (tiled, packed, of a type without a safetensors dtype)
 * comes back in the shape convert recorded, with its values.
 */
class TensorFilesReadsWhatConvertWritesTest {
    @TempDir
    Path dir;

    private static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    /** Small integers: exact in every type used here (bf16, f16, s4 for the last). */
    private static Array ints(Arena arena, ArrayShape shape, int lo, int hi, long seed) {
        Array a = Array.allocate(arena, shape);
        Random r = new Random(seed);
        double[] v = new double[Math.toIntExact(shape.elementCount())];
        for (int i = 0; i < v.length; i++) {
            v[i] = lo + r.nextInt(hi - lo + 1);
        }
        a.copyFrom(v);
        return a;
    }

    @Test
    void tiledPackedAndConvertedTensorsComeBackInTheShapeConvertWrote() throws IOException {
        Path in = dir.resolve("model.safetensors");
        Path out = dir.resolve("device.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> tensors = new LinkedHashMap<>();
            tensors.put("w", ints(arena, ArrayShape.of(ElementType.F32, 20, 300), -100, 100, 1));
            tensors.put("q", ints(arena, ArrayShape.of(ElementType.S8, 16, 32), -8, 7, 2));
            tensors.put("b", ints(arena, ArrayShape.of(ElementType.F32, 300), -100, 100, 3));
            tensors.put("c", ints(arena, ArrayShape.of(ElementType.F32, 6, 4), -100, 100, 4));
            SafeTensors.write(tensors, in);
            ConvertRules rules = ConvertRules.all()
                    .layout("w", "{1,0:T(8,128)(2,1)}").type("w", ElementType.BF16)   // tiled and converted
                    .shape("q", shape("s4[16,32]{1,0:E(4)}"))                         // packed two to a byte
                    .type("b", ElementType.F16)                                       // converted, row-major
                    .layout("c", "{0,1}");                                            // column-major
            TensorFiles.convert(in, out, rules, ConvertOptions.defaults());
            Map<String, ArrayShape> wrote = Map.of(
                    "w", shape("bf16[20,300]{1,0:T(8,128)(2,1)}"),
                    "q", shape("s4[16,32]{1,0:E(4)}"),
                    "b", shape("f16[300]{0}"),
                    "c", shape("f32[6,4]{0,1}"));
            // the file holds U8 bytes for all but b; read gives the shapes convert wrote, and the values
            assertEquals("U8", SafeTensors.readHeader(out).entry("w").dtype());
            assertEquals("U8", SafeTensors.readHeader(out).entry("q").dtype());
            assertEquals("F16", SafeTensors.readHeader(out).entry("b").dtype());
            for (Map.Entry<String, ArrayShape> e : wrote.entrySet()) {
                Array got = TensorFiles.read(out, e.getKey(), arena);
                assertEquals(e.getValue(), got.shape(), e.getKey());
                assertArrayEquals(tensors.get(e.getKey()).toDoubleArray(), got.toDoubleArray(), e.getKey());
                // readAs relayouts from the recorded layout
                Array plain = TensorFiles.readAs(out, e.getKey(), Layout.rowMajor(e.getValue().rank()), arena);
                assertEquals(e.getValue().withLayout(Layout.rowMajor(e.getValue().rank())), plain.shape());
                assertArrayEquals(tensors.get(e.getKey()).toDoubleArray(), plain.toDoubleArray(), e.getKey());
                Array f32 = TensorFiles.readAs(out, e.getKey(),
                        ArrayShape.of(ElementType.F32, e.getValue().dimensions()), arena);
                assertArrayEquals(tensors.get(e.getKey()).toDoubleArray(), f32.toDoubleArray(), e.getKey());
            }
        }
    }

    @Test
    void aRecordedShapeThatDoesNotFitItsBytesIsRefusedOnRead() throws IOException {
        Path f = dir.resolve("bad.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            SafeTensors.write(Map.of("w", Array.allocate(arena, ArrayShape.of(ElementType.U8, 10))),
                    Map.of("tegula.shape.w", "f32[3,3]{1,0:T(2,2)}"), f);
            TensorFormatException e = assertThrows(TensorFormatException.class, () -> TensorFiles.read(f, "w", arena));
            assertEquals(f + ": __metadata__.tegula.shape.w says f32[3,3]{1,0:T(2,2)} (64 bytes), but tensor 'w' is"
                    + " u8[10]", e.getMessage());
        }
    }
}
