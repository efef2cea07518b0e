package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Work on a segment may be shared between threads exactly when its arena is not confined. */
class ThreadAccessTest {

    @Test
    void onlyAConfinedArenasSegmentsStayWithTheirThread() {
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            assertFalse(ThreadAccess.fromAnyThread(confined.allocate(8)));
            assertTrue(ThreadAccess.fromAnyThread(shared.allocate(8)));
        }
        assertTrue(ThreadAccess.fromAnyThread(Arena.ofAuto().allocate(8)));
        assertTrue(ThreadAccess.fromAnyThread(Arena.global().allocate(8)));
        assertTrue(ThreadAccess.fromAnyThread(MemorySegment.ofArray(new byte[8])), "heap segments");
    }
}
