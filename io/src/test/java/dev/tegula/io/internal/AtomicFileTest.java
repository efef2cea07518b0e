package dev.tegula.io.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.internal.AtomicFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void commitReplacesTheTargetWhole() throws IOException {
        Path target = dir.resolve("a.bin");
        Files.write(target, new byte[] {9, 9, 9, 9, 9});
        try (AtomicFile out = AtomicFile.create(target)) {
            out.channel().write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            assertArrayEquals(new byte[] {9, 9, 9, 9, 9}, Files.readAllBytes(target), "target untouched while writing");
            out.commit();
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(target));
        assertEquals(List.of(target), files(), "no temporary left");
    }

    @Test
    void failureBeforeCommitKeepsTheOldFileAndLeavesNoTemporary() throws IOException {
        Path target = dir.resolve("keep.npy");
        Files.write(target, new byte[] {7, 7});
        IOException boom = assertThrows(IOException.class, () -> {
            try (AtomicFile out = AtomicFile.create(target)) {
                out.outputStream().write(new byte[] {1, 2, 3, 4});
                assertTrue(Files.exists(out.temporary()));
                throw new IOException("disk full");
            }
        });
        assertEquals("disk full", boom.getMessage());
        assertArrayEquals(new byte[] {7, 7}, Files.readAllBytes(target));
        assertEquals(List.of(target), files());
    }

    @Test
    void newTargetDoesNotExistUntilCommit() throws IOException {
        Path target = dir.resolve("new.bin");
        try (AtomicFile out = AtomicFile.create(target)) {
            out.channel().write(ByteBuffer.wrap(new byte[] {5}));
            assertFalse(Files.exists(target));
        }
        assertFalse(Files.exists(target), "closed without commit: nothing written");
        assertEquals(List.of(), files());
    }

    @Test
    void directoryTargetIsRefusedByName() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        IOException e = assertThrows(IOException.class, () -> AtomicFile.create(sub));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
        assertTrue(e.getMessage().contains("sub"), e.getMessage());
    }

    @Test
    void missingDirectoryIsRefusedByName() {
        IOException e = assertThrows(IOException.class, () -> AtomicFile.create(dir.resolve("nope/x.bin")));
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }
}
