package dev.tegula.io.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel hints: taken on Linux, harmless everywhere, and never a change to what a mapping reads. */
class NativeFilesTest {
    @TempDir
    Path dir;

    @Test
    void hintsLeaveTheDataAsItWas() throws IOException {
        Path f = dir.resolve("f.bin");
        byte[] bytes = new byte[3 * 4096 + 100];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Files.write(f, bytes);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes.length, arena);
            for (int advice : new int[] {NativeFiles.SEQUENTIAL, NativeFiles.WILL_NEED, NativeFiles.RANDOM,
                    NativeFiles.DONT_NEED}) {
                boolean taken = NativeFiles.advise(m.asSlice(100, 5000), advice);
                assertEquals(NativeFiles.available(), taken, "advice " + advice);
            }
            for (int i = 0; i < bytes.length; i++) {
                assertEquals(bytes[i], m.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
            assertFalse(NativeFiles.advise(MemorySegment.ofArray(new byte[10]), NativeFiles.WILL_NEED), "heap segment");
        }
    }

    @Test
    void reserveExtendsTheFileAndWritebackCallsAreSafe() throws IOException {
        assumeTrue(NativeFiles.available(), "no native hints on this OS");
        Path f = Files.createFile(dir.resolve("r.bin"));
        try (NativeFiles.Descriptor d = NativeFiles.open(f, true)) {
            assertTrue(d.isOpen());
            assertTrue(NativeFiles.reserve(d, 0, 1 << 20, f.toString()));
            assertEquals(1 << 20, Files.size(f));
            assertTrue(NativeFiles.startWriteback(d, 0, 1 << 20));
            assertTrue(NativeFiles.waitWriteback(d, 0, 1 << 20));
            assertTrue(NativeFiles.dropCache(d, 0, 1 << 20));
        }
        try (NativeFiles.Descriptor none = NativeFiles.open(dir.resolve("missing/x"), false)) {
            assertFalse(none.isOpen());
            assertFalse(NativeFiles.reserve(none, 0, 10, "x"));
        }
    }
}
