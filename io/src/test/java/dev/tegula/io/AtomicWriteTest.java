package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write that fails part-way leaves the old file as it was and no partial or temporary file. The
 * failure is real: the data comes from a mapping of a file that was truncated after it was mapped,
 * so the kernel's {@code write} fails ("Bad address") in the middle of the data.
 */
class AtomicWriteTest {
    private static final byte[] OLD = "the old file, which must survive".getBytes();

    @TempDir
    Path dir;

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(Path::getFileName).sorted().toList();
        }
    }

    /** A 4 MiB f32 array whose mapping loses its last pages: reading them fails in the kernel. */
    private Array vanishingArray(Arena arena) throws IOException {
        Path src = dir.resolve("src.npy");
        try (Arena a = Arena.ofConfined()) {
            Array x = Array.allocate(a, ArrayShape.of(ElementType.F32, 1024, 1024));
            Npy.write(x, src);
        }
        Array mapped = Npy.read(src, arena);
        try (RandomAccessFile f = new RandomAccessFile(src.toFile(), "rw")) {
            f.setLength(64 * 1024);
        }
        Files.delete(src);
        return mapped;
    }

    @Test
    void npyWriteThatFailsKeepsTheOldFile() throws IOException {
        Path keep = dir.resolve("keep.npy");
        Files.write(keep, OLD);
        try (Arena arena = Arena.ofConfined()) {
            Array a = vanishingArray(arena);
            assertThrows(IOException.class, () -> Npy.write(a, keep));
        }
        assertArrayEquals(OLD, Files.readAllBytes(keep));
        assertEquals(List.of(Path.of("keep.npy")), files(), "no temporary or partial file left");
    }

    @Test
    void safeTensorsWriteThatFailsKeepsTheOldFile() throws IOException {
        Path keep = dir.resolve("keep.safetensors");
        Files.write(keep, OLD);
        try (Arena arena = Arena.ofConfined()) {
            Array a = vanishingArray(arena);
            assertThrows(IOException.class, () -> SafeTensors.write(Map.of("w", a), keep));
        }
        assertArrayEquals(OLD, Files.readAllBytes(keep));
        assertEquals(List.of(Path.of("keep.safetensors")), files());
    }

    @Test
    void unfinishedStreamingWriterKeepsTheOldFile() throws IOException {
        Path keep = dir.resolve("keep.safetensors");
        Files.write(keep, OLD);
        SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
        shapes.put("a", ArrayShape.of(ElementType.F32, 4));
        shapes.put("b", ArrayShape.of(ElementType.F32, 4));
        try (Arena arena = Arena.ofConfined()) {
            SafeTensorsWriter w = SafeTensors.writer(keep, shapes, Map.of());
            assertArrayEquals(OLD, Files.readAllBytes(keep), "the target is untouched while writing");
            w.write("a", Array.allocate(arena, shapes.get("a")));
            IOException e = assertThrows(IOException.class, w::close);
            assertEquals(true, e.getMessage().contains("[b]"), e.getMessage());
        }
        assertArrayEquals(OLD, Files.readAllBytes(keep));
        assertEquals(List.of(Path.of("keep.safetensors")), files());
    }

    @Test
    void finishedWritesReplaceTheOldFileWhole() throws IOException {
        Path keep = dir.resolve("keep.npy");
        Files.write(keep, OLD);
        try (Arena arena = Arena.ofConfined()) {
            Array x = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3));
            x.setFloat(1, 2.5f);
            Npy.write(x, keep);
            Array back = Npy.read(keep, arena);
            assertEquals(2.5f, back.getFloat(1));
        }
        assertEquals(List.of(Path.of("keep.npy")), files());
    }

    @Test
    void writingOverADirectoryNamesIt() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("out.npy"));
        try (Arena arena = Arena.ofConfined()) {
            Array x = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3));
            IOException e = assertThrows(IOException.class, () -> Npy.write(x, sub));
            assertEquals(true, e.getMessage().contains("is a directory"), e.getMessage());
        }
    }
}
