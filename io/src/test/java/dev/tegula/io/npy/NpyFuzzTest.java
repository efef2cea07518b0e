package dev.tegula.io.npy;

import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzz target for the .npy reader. In {@code mvn verify} it replays the committed corpus in
 * {@code src/test/resources/dev/tegula/io/npy/NpyFuzzTestInputs/readNpy/}; with {@code JAZZER_FUZZ=1}
 * it fuzzes (see docs/interop.md). Contract: every input either parses and round-trips (write, read
 * back: same dimensions, element type and elements, and the same layout or, for an array dense in
 * both orders, which {@code numpy.save} writes in C order, the same bytes) or throws
 * {@link TensorFormatException}; anything else is a finding.
 */
class NpyFuzzTest {
    /** Scratch files of the targets, one directory for the class (JUnit removes it). */
    @TempDir
    static Path dir;

    @FuzzTest(maxDuration = "30s")
    void readNpy(byte[] input) {
        try (Arena arena = Arena.ofConfined()) {
            Path in = Files.write(dir.resolve("in.npy"), input);
            Array a;
            try {
                a = Npy.read(in, arena);
            } catch (TensorFormatException expected) {
                assertTrue(expected.getMessage().startsWith(in.toString()), expected.getMessage());
                return;
            }
            if (a.shape().elementCount() > 1 << 16) {
                return;                    // a huge shape over a small file cannot happen: the data was checked
            }
            Path out = dir.resolve("out.npy");
            Npy.write(a, out);
            Array b = Npy.read(out, arena);
            assertArrayEquals(a.shape().dimensions(), b.shape().dimensions());
            assertEquals(a.shape().elementType(), b.shape().elementType());
            assertTrue(a.contentEquals(b));
            if (!a.shape().equals(b.shape())) {
                // numpy.save (and Npy.write) writes fortran_order False for an array dense in both orders,
                // e.g. a Fortran-order (1, 2): the layout label changes, the bytes and their order may not
                assertEquals(-1, a.segment().mismatch(b.segment()), a.shape() + " read back as " + b.shape());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
