package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.bench.MemoryMaps;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Large arrays on transparent huge pages (Linux with THP in {@code always} or {@code madvise} mode). */
class HostMemoryTest {

    private static boolean thpAvailable() throws IOException {
        Path p = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        if (!Files.isReadable(p)) {
            return false;
        }
        String mode = Files.readString(p);
        return mode.contains("[always]") || mode.contains("[madvise]");
    }

    private static void touch(MemorySegment s) {
        for (long i = 0; i < s.byteSize(); i += 4096) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
        }
    }

    @Test
    void largeArrayIsHugePageAlignedAndBackedByHugePages() throws IOException {
        assumeTrue(thpAvailable() && HostMemory.hugePagesEnabled(), "no transparent huge pages here");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 2048));   // 16 MiB
            MemorySegment s = a.segment();
            assertEquals(16L << 20, s.byteSize());
            assertEquals(0, s.address() % HostMemory.HUGE_PAGE, "2 MiB aligned");
            for (long i = 0; i < s.byteSize(); i += 4096) {
                assertEquals(0, s.get(ValueLayout.JAVA_BYTE, i), "zeroed at " + i);
            }
            touch(s);
            long huge = MemoryMaps.anonHugePageBytes(s);
            assertTrue(huge >= HostMemory.HUGE_PAGE, "AnonHugePages of the mapping: " + huge);
            a.setFloat(2047, 2047, 3.5f);
            assertEquals(3.5f, a.getFloat(2047, 2047));
        }
    }

    @Test
    void propertyFalseTurnsHugePagesOff() throws IOException {
        assumeTrue(thpAvailable() && HostMemory.hugePagesEnabled(), "no transparent huge pages here");
        String old = System.getProperty(HostMemory.PROPERTY);
        System.setProperty(HostMemory.PROPERTY, "false");
        try (Arena arena = Arena.ofConfined()) {
            assertTrue(!HostMemory.hugePagesEnabled());
            MemorySegment s = HostMemory.allocate(arena, 16L << 20, 64);
            touch(s);
            // the JVM's malloc'ed block: not madvised, so THP in madvise mode gives it no huge page
            long huge = MemoryMaps.anonHugePageBytes(s);
            String mode = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            if (mode.contains("[madvise]")) {
                assertEquals(0, huge, "AnonHugePages of a plain allocation");
            }
        } finally {
            if (old == null) {
                System.clearProperty(HostMemory.PROPERTY);
            } else {
                System.setProperty(HostMemory.PROPERTY, old);
            }
        }
    }

    @Test
    void smallBuffersAndAlignmentsAreKept() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = HostMemory.allocate(arena, 1000, 256);
            assertEquals(1000, small.byteSize());
            assertEquals(0, small.address() % 256);
            MemorySegment odd = HostMemory.allocate(arena, (5L << 20) + 3, 4096);
            assertEquals((5L << 20) + 3, odd.byteSize());
            assertEquals(0, odd.address() % 4096);
            odd.set(ValueLayout.JAVA_BYTE, odd.byteSize() - 1, (byte) 7);
            assertEquals(7, odd.get(ValueLayout.JAVA_BYTE, odd.byteSize() - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> odd.get(ValueLayout.JAVA_BYTE, odd.byteSize()));
        }
    }

    @Test
    void closedAndForeignThreadArenasAreRefused() throws Exception {
        Arena closed = Arena.ofConfined();
        closed.close();
        assertThrows(IllegalStateException.class, () -> HostMemory.allocate(closed, 8L << 20, 64));
        try (Arena mine = Arena.ofConfined()) {
            Throwable[] seen = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    HostMemory.allocate(mine, 8L << 20, 64);
                } catch (Throwable e) {
                    seen[0] = e;
                }
            });
            t.start();
            t.join();
            assertTrue(seen[0] instanceof WrongThreadException, String.valueOf(seen[0]));
        }
    }

    @Test
    void memoryIsUsableAfterManyArenasClose() {
        // mapping and unmapping repeatedly must not leak or fail
        for (int k = 0; k < 50; k++) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment s = HostMemory.allocate(arena, 6L << 20, 64);
                s.set(ValueLayout.JAVA_LONG, s.byteSize() - 8, k);
                assertEquals(k, s.get(ValueLayout.JAVA_LONG, s.byteSize() - 8));
            }
        }
    }
}
