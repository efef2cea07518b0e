package dev.tegula.io.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/**
 * The kernel hints: taken on Linux, harmless everywhere, never a change to what a mapping reads, and
 * never given to anonymous memory, where don't-need would throw the contents away.
 */
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
                boolean taken = NativeFiles.advise(m.asSlice(100, 9000), advice);   // holds page 1 whole
                assertEquals(NativeFiles.available(), taken, "advice " + advice);
            }
            for (int i = 0; i < bytes.length; i++) {
                assertEquals(bytes[i], m.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
            assertFalse(NativeFiles.advise(MemorySegment.ofArray(new byte[10]), NativeFiles.WILL_NEED), "heap segment");
        }
    }

    @Test
    void anonymousMemoryGetsNoHintAndKeepsItsContents() {
        try (Arena arena = Arena.ofConfined()) {
            // an allocation of several pages and one of a few bytes, as a byte-swapped copy or the C heap would hold
            for (long size : new long[] {5 * NativeFiles.PAGE + 123, 40}) {
                MemorySegment anon = arena.allocate(size);
                anon.fill((byte) 0x5A);
                for (int advice : new int[] {NativeFiles.DONT_NEED, NativeFiles.WILL_NEED, NativeFiles.SEQUENTIAL,
                        NativeFiles.RANDOM}) {
                    assertNull(NativeFiles.pages(anon, advice), "a page range for anonymous memory, advice " + advice);
                    assertFalse(NativeFiles.advise(anon, advice), "advice " + advice + " taken on anonymous memory");
                }
                for (long i = 0; i < size; i++) {
                    assertEquals((byte) 0x5A, anon.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of " + size);
                }
            }
        }
    }

    @Test
    void dontNeedCoversOnlyWholePagesInsideTheRangeAndOtherHintsEveryPageItTouches() throws IOException {
        Path f = dir.resolve("p.bin");
        Files.write(f, new byte[6 * 4096]);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, 6 * 4096, arena);
            long base = m.address();
            assertEquals(0, base % NativeFiles.PAGE, "a mapping starts on a page");
            MemorySegment range = m.asSlice(100, 3 * 4096);   // [100, 12388): pages 0..3 touched, 1..2 whole
            assertArrayEquals(new long[] {base + 4096, base + 3 * 4096}, NativeFiles.pages(range, NativeFiles.DONT_NEED));
            assertArrayEquals(new long[] {base, base + 4 * 4096}, NativeFiles.pages(range, NativeFiles.WILL_NEED));
            assertNull(NativeFiles.pages(m.asSlice(100, 4000), NativeFiles.DONT_NEED), "no whole page inside");
            assertNull(NativeFiles.pages(m.asSlice(100, 0), NativeFiles.WILL_NEED), "an empty range");
            assertArrayEquals(new long[] {base, base + 6 * 4096}, NativeFiles.pages(m, NativeFiles.DONT_NEED));
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
