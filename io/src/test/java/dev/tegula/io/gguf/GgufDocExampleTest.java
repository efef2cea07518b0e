package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GGUF worked example of {@code docs/interop.md}: the Java blocks there that follow
 * {@code <!-- snippet: gguf-... -->} are the tagged regions below, character for character (the regions
 * of one name joined, so assertions can sit between them).
 */
class GgufDocExampleTest {
    @TempDir
    Path dir;

    @Test
    void workedExample() throws IOException {
        Path file = dir.resolve("model.gguf");
        // tag::gguf-write[]
        try (Arena arena = Arena.ofConfined()) {
            Array embd = Array.allocate(arena, ArrayShape.of(ElementType.F32, 8, 64));   // 8 rows of 64
            for (int i = 0; i < 8; i++) {
                for (int j = 0; j < 64; j++) {
                    embd.setFloat(i, j, (i - j) / 16f);
                }
            }
            Array norm = Array.allocate(arena, ArrayShape.of(ElementType.F32, 64));
            norm.fill(1f);
            Gguf.writer()
                    .put("general.architecture", GgufValue.string("llama"))
                    .put("llama.context_length", GgufValue.uint32(4096))
                    .tensor("token_embd.weight", embd, GgufType.Q8_0)     // quantized as gguf.quants does
                    .tensor("output_norm.weight", norm)                   // f32, as the array is
                    .write(file);                                         // whole or not at all
        }
        // end::gguf-write[]
        // tag::gguf-read[]
        try (Arena arena = Arena.ofConfined()) {
            GgufFile model = Gguf.open(file, arena);                      // mapped, header validated
            String arch = model.header().metadata().get("general.architecture").asString();   // "llama"
            GgufTensor embd = model.tensor("token_embd.weight");
            long[] ne = embd.info().ne();                                 // [64, 8]: GGUF lists ne[0] first
            long[] dims = embd.dimensions();                              // [8, 64]: as gguf-py, NumPy, PyTorch
            Array norm = model.tensor("output_norm.weight").array();      // f32[64]{0}, a view of the mapping
            ArrayShape tpu = ArrayShape.parse("bf16[8,64]{0,1:T(8,128)(2,1)}");
            Array w = embd.read(tpu, arena);                              // Q8_0 -> tiled bf16, one pass
            // end::gguf-read[]
            assertEquals("llama", arch);
            assertArrayEquals(new long[] {64, 8}, ne);
            assertArrayEquals(new long[] {8, 64}, dims);
            assertEquals(ArrayShape.of(ElementType.F32, 64), norm.shape());
            assertTrue(norm.isReadOnly());
            assertEquals(tpu, w.shape());
            for (int i = 0; i < 8; i++) {
                for (int j = 0; j < 64; j++) {
                    assertEquals((i - j) / 16f, w.getFloat(i, j), 0.05f, i + "," + j);
                }
            }
        // tag::gguf-read[]
        }
        // end::gguf-read[]
    }

    @Test
    void theDocumentShowsTheseRegions() throws IOException {
        String source = Files.readString(Path.of("src/test/java/dev/tegula/io/gguf/GgufDocExampleTest.java"));
        String doc = Files.readString(Path.of("../docs/interop.md"));
        Matcher m = Pattern.compile("<!-- snippet: (gguf-[a-z]+) -->\\n```java\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            assertEquals(region(source, m.group(1)), m.group(2), m.group(1));
            seen.add(m.group(1));
        }
        assertEquals(List.of("gguf-write", "gguf-read"), seen);
    }

    private static String region(String source, String name) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : source.split("\n")) {
            if (line.strip().equals("// tag::" + name + "[]")) {
                in = true;
            } else if (line.strip().equals("// end::" + name + "[]")) {
                in = false;
            } else if (in) {
                lines.add(line);
            }
        }
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.length() >= indent ? l.substring(indent) : l.strip()).append('\n');
        }
        return b.toString();
    }
}
