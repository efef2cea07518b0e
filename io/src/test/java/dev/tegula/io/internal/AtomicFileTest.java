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

    @Test
    void temporariesOfTheTargetWithoutALiveWriterAreRemovedAndReportedOthersKept() throws IOException {
        Path target = dir.resolve("a.bin");
        Path noLock = Files.write(dir.resolve(".a.bin.123.tmp"), new byte[10]);       // written before locks
        Path unlocked = Files.write(dir.resolve(".a.bin.456.tmp"), new byte[3]);      // its writer died
        Path unlockedLock = Files.write(dir.resolve(".a.bin.456.lock"), new byte[0]);
        Path orphanLock = Files.write(dir.resolve(".a.bin.789.lock"), new byte[0]);   // died before its temporary
        Path staleDir = Files.createDirectories(dir.resolve(".a.bin.321.tmp/sub"));  // a directory's, with a file
        Files.write(staleDir.resolve("x"), new byte[5]);
        List<Path> others = List.of(Files.write(dir.resolve(".b.bin.123.tmp"), new byte[1]),   // another target's
                Files.write(dir.resolve(".a.bin.backup.tmp"), new byte[1]),                     // not a temporary name
                Files.write(dir.resolve("a.bin.123.tmp"), new byte[1]));                        // not hidden
        try (AtomicFile out = AtomicFile.create(target)) {
            assertEquals(List.of(new Temporaries.Stale(noLock, 10), new Temporaries.Stale(dir.resolve(".a.bin.321.tmp"), 5),
                    new Temporaries.Stale(unlocked, 3)), out.staleRemoved());
            out.commit();
        }
        for (Path p : List.of(noLock, unlocked, unlockedLock, orphanLock, dir.resolve(".a.bin.321.tmp"))) {
            assertFalse(Files.exists(p), p + " removed");
        }
        for (Path p : others) {
            assertTrue(Files.exists(p), p + " kept");
        }
    }

    @Test
    void aTemporaryThisJvmStillWritesIsNeverRemoved() throws IOException {
        Path target = dir.resolve("same.bin");
        try (AtomicFile first = AtomicFile.create(target)) {
            first.channel().write(ByteBuffer.wrap(new byte[] {1}));
            try (AtomicFile second = AtomicFile.create(target)) {
                assertEquals(List.of(), second.staleRemoved());
                assertTrue(Files.exists(first.temporary()));
                second.commit();
            }
            first.channel().write(ByteBuffer.wrap(new byte[] {2}));
            first.commit();
        }
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(target));
        assertEquals(List.of(target), files(), "no temporary and no lock file left");
    }

    @Test
    void aRenameThatFailsNamesTheTargetNotTheTemporary() throws IOException {
        Path target = dir.resolve("t.bin");
        IOException e = assertThrows(IOException.class, () -> {
            try (AtomicFile out = AtomicFile.create(target)) {
                Files.write(Files.createDirectories(target).resolve("in-the-way"), new byte[1]);   // a non-empty directory
                out.commit();
            }
        });
        assertTrue(e.getMessage().contains(target.toString()), e.getMessage());
        assertFalse(e.getMessage().contains(".tmp") || e.getMessage().contains(".lock"), e.getMessage());
    }

    @Test
    void errorsOnTheTemporaryOrNamingNoFileNameTheFileAsShown() {
        Path target = dir.resolve("d/.ckpt.77.tmp/shard.safetensors").toAbsolutePath();
        Path shown = dir.resolve("d/ckpt/shard.safetensors");
        Path tmp = target.resolveSibling(".shard.safetensors.123.tmp");
        IOException full = Temporaries.named(new IOException("No space left on device"), target, shown);
        assertEquals(shown + ": No space left on device", full.getMessage());
        IOException denied = Temporaries.named(new java.nio.file.AccessDeniedException(tmp.toString()), target, shown);
        assertTrue(denied instanceof java.nio.file.AccessDeniedException, denied.toString());
        assertEquals(shown.toString(), ((java.nio.file.AccessDeniedException) denied).getFile());
        IOException moved = Temporaries.named(new java.nio.file.FileSystemException(tmp.toString(), target.toString(),
                "Is a directory"), target, shown);
        assertEquals(shown + ": Is a directory", moved.getMessage());
        IOException other = new java.nio.file.NoSuchFileException("/elsewhere/x");
        assertTrue(other == Temporaries.named(other, target, shown), "an error about another file is left as it is");
        // the checkpoint's temporary directory, named as the checkpoint
        Path ckpt = dir.resolve("d/ckpt").toAbsolutePath();
        IOException inDir = Temporaries.named(new IOException(target + ": no space left on the device for 8 bytes"),
                ckpt, ckpt);
        assertEquals(ckpt.resolve("shard.safetensors") + ": no space left on the device for 8 bytes", inDir.getMessage());
    }
}
