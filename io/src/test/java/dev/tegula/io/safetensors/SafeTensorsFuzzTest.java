package dev.tegula.io.safetensors;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz targets for the safetensors reader and its JSON parser. {@code mvn verify} replays the
 * committed corpus in {@code src/test/resources/dev/tegula/io/safetensors/SafeTensorsFuzzTestInputs/<method>/};
 * {@code JAZZER_FUZZ=1} fuzzes. Contract: a file either reads and round-trips (write, read back:
 * same names in the same order, same elements, same metadata) or throws {@link TensorFormatException}.
 */
class SafeTensorsFuzzTest {
    /** Scratch files of the targets, one directory for the class (JUnit removes it). */
    @TempDir
    static Path dir;

    @FuzzTest(maxDuration = "30s")
    void readSafeTensors(byte[] input) {
        try (Arena arena = Arena.ofConfined()) {
            Path in = Files.write(dir.resolve("in.safetensors"), input);
            Map<String, Array> tensors;
            try {
                tensors = SafeTensors.read(in, arena);
            } catch (TensorFormatException expected) {
                assertTrue(expected.getMessage().startsWith(in.toString()), expected.getMessage());
                return;
            }
            Path out = dir.resolve("out.safetensors");
            SafeTensors.write(tensors, SafeTensors.readHeader(in).metadata(), out);
            Map<String, Array> back = SafeTensors.read(out, arena);
            assertEquals(List.copyOf(tensors.keySet()), List.copyOf(back.keySet()));
            for (String k : tensors.keySet()) {
                assertTrue(tensors.get(k).contentEquals(back.get(k)), k);
            }
            assertEquals(SafeTensors.readHeader(in).metadata(), SafeTensors.readHeader(out).metadata());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON parser alone: any text either parses or is Malformed; never another exception or a stack overflow. */
    @FuzzTest(maxDuration = "30s")
    void parseJson(byte[] input) {
        String text = new String(input, java.nio.charset.StandardCharsets.UTF_8);
        try {
            Json.parse(text);
        } catch (HeaderText.Malformed expected) {
            assertTrue(expected.getMessage().startsWith("expected "), expected.getMessage());
        }
    }
}
