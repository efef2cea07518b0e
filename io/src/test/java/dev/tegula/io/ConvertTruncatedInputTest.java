package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input truncated while it is converted is reported, before the next window reads a page the file
 * no longer has, as a bad tensor file naming it and both of its sizes, whatever threads write the
 * windows; nothing is written to the target and no temporary is left.
 */
class ConvertTruncatedInputTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} thread(s)")
    @ValueSource(ints = {1, 2})
    void anInputThatShrinksWhileConvertedIsNamedWithBothSizes(int threads) throws IOException {
        Path in = dir.resolve("m.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 1024));   // 8 MiB: 16+ windows
            a.fill(2.5);
            Npy.write(a, in);
        }
        long size = Files.size(in);
        Path out = dir.resolve("out.safetensors");
        boolean[] cut = {false};
        ConvertProgress truncate = (tensor, done, total) -> {
            if (!cut[0] && done > 0) {
                cut[0] = true;
                try (FileChannel ch = FileChannel.open(in, StandardOpenOption.WRITE)) {
                    ch.truncate(1L << 20);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        TensorFormatException e = assertThrows(TensorFormatException.class, () -> TensorFiles.convert(in, out,
                ConvertRules.all().layout("*", "{0,1}"),
                ConvertOptions.defaults().withMemory(1L << 20).withParallelism(threads).withProgress(truncate)));
        assertTrue(cut[0], "the input was truncated part-way");
        String m = e.getMessage();
        assertTrue(m.startsWith(in.toString()) && m.contains("shrank from " + size + " to " + (1L << 20) + " bytes"), m);
        assertTrue(Files.notExists(out), "a target was written");
        IoFixtures.assertNoTemporaries(dir);
    }
}
