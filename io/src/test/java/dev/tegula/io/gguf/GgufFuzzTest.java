package dev.tegula.io.gguf;

import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Fuzz target for the GGUF reader. {@code mvn verify} replays the committed corpus in
 * {@code src/test/resources/dev/tegula/io/gguf/GgufFuzzTestInputs/readGguf/} (written by
 * {@code src/test/python/make_gguf_fuzz_corpus.py}); {@code JAZZER_FUZZ=1} fuzzes. Contract: a file
 * either throws {@link TensorFormatException} (message starting with the file name) or reads; then
 * every tensor Tegula dequantizes does so, the others are refused with
 * {@link UnsupportedOperationException}, and writing the metadata and plain tensors back and reading
 * them again gives the same metadata, names and elements.
 */
class GgufFuzzTest {
    /** Scratch files of the targets, one directory for the class (JUnit removes it). */
    @TempDir
    static Path dir;

    @FuzzTest(maxDuration = "30s")
    void readGguf(byte[] input) {
        try (Arena arena = Arena.ofConfined()) {
            Path in = Files.write(dir.resolve("in.gguf"), input);
            GgufFile f;
            try {
                f = Gguf.open(in, arena);
            } catch (TensorFormatException expected) {
                assertTrue(expected.getMessage().startsWith(in.toString()), expected.getMessage());
                return;
            }
            GgufWriter w = Gguf.writer().version(f.header().version());
            for (Map.Entry<String, GgufValue> e : f.header().metadata().entrySet()) {
                w.put(e.getKey(), e.getValue());
            }
            int plain = 0;
            for (GgufTensor t : f.tensors()) {
                if (t.type().elementType() != null) {
                    w.tensor(t.name(), t.array());
                    plain++;
                } else if (t.type().quantBlock() != null) {
                    Array x = t.read(ArrayShape.of(ElementType.F32, t.dimensions()), arena);
                    assertEquals(t.info().elementCount(), x.shape().elementCount());
                } else {
                    try {
                        t.read(ArrayShape.of(ElementType.F32, t.dimensions()), arena);
                        throw new AssertionError(t.type() + " dequantized");
                    } catch (UnsupportedOperationException expected) {
                        assertTrue(expected.getMessage().contains(t.type().name()), expected.getMessage());
                    }
                }
            }
            Path out = dir.resolve("out.gguf");
            w.write(out);
            GgufFile back = Gguf.open(out, arena);
            assertEquals(f.header().metadata(), back.header().metadata());
            assertEquals(plain, back.tensors().size());
            for (GgufTensor t : back.tensors()) {
                assertTrue(f.tensor(t.name()).array().contentEquals(t.array()), t.name());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
