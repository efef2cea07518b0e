package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The C library binding does what the C functions do, and answers failures as C does. */
class LibcTest {
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    private static void assumeBound() {
        assumeTrue(Libc.hasMemoryCalls(), "no C library binding here (not Linux, or no native access)");
    }

    @Test
    void anAnonymousMappingIsZeroedWritableAndDroppedByDontNeed() {
        assumeBound();
        long address = Libc.mmap(0, 2 * PAGE, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS,
                -1, 0);
        assertNotEquals(Libc.MAP_FAILED, address);
        MemorySegment m = MemorySegment.ofAddress(address).reinterpret(2 * PAGE);
        assertEquals(0, m.get(ValueLayout.JAVA_LONG, PAGE));
        m.set(ValueLayout.JAVA_LONG, PAGE, 42);
        assertEquals(42, m.get(ValueLayout.JAVA_LONG, PAGE));
        // anonymous private pages given back with MADV_DONTNEED read as zero again
        assertEquals(0, Libc.madvise(address + PAGE, PAGE, Libc.MADV_DONTNEED));
        assertEquals(0, m.get(ValueLayout.JAVA_LONG, PAGE));
        assertEquals(0, Libc.madvise(address, 2 * PAGE, Libc.MADV_SEQUENTIAL));
        assertEquals(-1, Libc.madvise(address + 1, PAGE, Libc.MADV_WILLNEED), "an unaligned address is EINVAL");
        assertEquals(0, Libc.munmap(address, 2 * PAGE));
    }

    @Test
    void fileCallsReserveSyncAndCloseADescriptor() throws IOException {
        assumeBound();
        Path file = Files.createFile(dir.resolve("f.bin"));
        int fd = Libc.open(file.toString(), Libc.O_RDWR);
        assertNotEquals(-1, fd);
        assertEquals(0, Libc.fallocate(fd, 0, 0, 3 * PAGE));
        assertEquals(3 * PAGE, Files.size(file), "fallocate with mode 0 extends the file");
        assertEquals(0, Libc.syncFileRange(fd, 0, 3 * PAGE, Libc.SYNC_FILE_RANGE_WRITE));
        assertEquals(0, Libc.posixFadvise(fd, 0, 3 * PAGE, Libc.POSIX_FADV_DONTNEED));
        assertEquals(0, Libc.close(fd));
        assertEquals(-1, Libc.close(fd), "a closed descriptor");
        assertNotEquals(0, Libc.fallocate(fd, 0, 0, PAGE), "an error number for a closed descriptor");
        assertEquals(-1, Libc.open(dir.resolve("missing").toString(), Libc.O_RDONLY));
    }
}
