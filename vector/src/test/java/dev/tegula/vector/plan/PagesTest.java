package dev.tegula.vector.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tegula.ffm.HostMemory;
import dev.tegula.ffm.internal.Cpu;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pages plans and wisdom tell apart ({@link Pages}), and the buffers a plan of shapes times on ({@link Planner#buffer}). */
class PagesTest {
    private static final long BYTES = 16L << 20;

    @Test
    void heapBuffersAreOnSmallPagesAndAPairOfEachIsMixed() {
        MemorySegment heap = MemorySegment.ofArray(new byte[(int) BYTES]);
        assertEquals(Pages.SMALL, Pages.of(heap, heap));
        assumeTrue(Cpu.hugePageMode() == Cpu.HugePageMode.MADVISE && HostMemory.hugePagesEnabled());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment huge = HostMemory.allocate(arena, BYTES, 4096);
            assertEquals(Pages.HUGE, Pages.of(huge, huge));
            assertEquals(Pages.MIXED, Pages.of(huge, heap));
            assertEquals(Pages.MIXED, Pages.of(heap, huge));
        }
    }

    @Test
    void allocationsFollowHostMemorysPropertyAsItIsNow() {
        assumeTrue(Cpu.hugePageMode() == Cpu.HugePageMode.MADVISE && HostMemory.hugePagesEnabled());
        assertEquals(Pages.HUGE, Pages.ofAllocation(BYTES, BYTES));
        assertEquals(Pages.MIXED, Pages.ofAllocation(BYTES, 4096), "small buffers never get huge pages");
        String was = System.getProperty(HostMemory.PROPERTY);
        System.setProperty(HostMemory.PROPERTY, "false");
        try {
            assertEquals(Pages.SMALL, Pages.ofAllocation(BYTES, BYTES));
        } finally {
            if (was == null) {
                System.clearProperty(HostMemory.PROPERTY);
            } else {
                System.setProperty(HostMemory.PROPERTY, was);
            }
        }
    }

    @Test
    void aPlanOfShapesTimesOnBuffersOfTheCallersPages() throws IOException {
        assumeTrue(Cpu.hugePageMode() == Cpu.HugePageMode.MADVISE && HostMemory.hugePagesEnabled());
        try (Arena arena = Arena.ofShared()) {
            MemorySegment small = Planner.buffer(arena, BYTES, false);
            MemorySegment huge = Planner.buffer(arena, BYTES, true);
            small.fill((byte) 1);
            huge.fill((byte) 1);
            assertEquals(Pages.SMALL, Pages.of(small, small));
            assertEquals(Pages.HUGE, Pages.of(huge, huge));
            // the kernel's own word: no huge page under the buffer timed for 4 KiB pages
            assertEquals(0, anonHugeKiB(small), "AnonHugePages under the 4 KiB buffer");
        }
    }

    @Test
    void aRequestForNoKnownPagesIsRefusedNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PlanRequest(dev.tegula.core.ArrayShape.parse("f32[4]{0}"), dev.tegula.core.ArrayShape.parse("f32[4]{0}"),
                        null, null, dev.tegula.vector.Planning.MEASURE, 1, null, null, null, null, null, "64k"));
        assertEquals(true, e.getMessage().contains("pages"), e.getMessage());
    }

    /** {@return the AnonHugePages, in KiB, of the mappings of /proc/self/smaps that overlap {@code s}} */
    private static long anonHugeKiB(MemorySegment s) throws IOException {
        long lo = s.address();
        long hi = lo + s.byteSize();
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        long kib = 0;
        boolean in = false;
        for (String l : lines) {
            int dash = l.indexOf('-');
            int space = l.indexOf(' ');
            if (dash > 0 && space > dash && l.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(l.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(l.substring(dash + 1, space), 16);
                in = start < hi && end > lo;
            } else if (in && l.startsWith("AnonHugePages:")) {
                kib += Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return kib;
    }
}
