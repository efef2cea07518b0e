package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula convert} of a GGUF file with a type Tegula does not dequantize (IQ4_NL) names the
 * tensor and its type, and the option that converts the rest: {@code --skip-unsupported}.
 */
class ConvertUnsupportedTensorTest {
    @TempDir
    Path dir;

    @Test
    void anUndequantizedTypeNamesSkipUnsupportedAndWithItTheRestIsConverted() {
        Path out = dir.resolve("o.safetensors");
        MainTest.Result r = MainTest.run("convert", GgufInspectTest.FIXTURE.toString(), "--out=" + out);
        assertEquals(2, r.status(), r.out());
        assertTrue(r.err().contains("tensor 'q.IQ4_NL' is GGUF IQ4_NL, which Tegula does not dequantize"), r.err());
        assertTrue(r.err().contains("--skip-unsupported"), r.err());
        assertFalse(Files.exists(out));

        MainTest.Result skip = MainTest.run("convert", GgufInspectTest.FIXTURE.toString(), "--skip-unsupported",
                "--out=" + out);
        assertEquals(0, skip.status(), skip.err());
        assertTrue(skip.err().contains("skipped: tensor 'q.IQ4_NL' is GGUF IQ4_NL"), skip.err());
        assertTrue(Files.exists(out));
    }
}
