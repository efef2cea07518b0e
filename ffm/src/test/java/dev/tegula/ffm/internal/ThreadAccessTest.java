package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    @Test
    void aSegmentAnyThreadMayUseIsItsOwnViewForACall() {
        try (Arena shared = Arena.ofShared()) {
            MemorySegment s = shared.allocate(64);
            assertSame(s, ThreadAccess.forThisCall(s));
        }
        MemorySegment heap = MemorySegment.ofArray(new int[4]);
        assertSame(heap, ThreadAccess.forThisCall(heap));
        MemorySegment global = Arena.global().allocate(8);
        assertSame(global, ThreadAccess.forThisCall(global));
    }

    @Test
    void aConfinedSegmentsViewIsTheSameMemoryForAnyThread() {
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment s = confined.allocate(64);
            MemorySegment view = ThreadAccess.forThisCall(s);
            assertTrue(ThreadAccess.fromAnyThread(view), "the view checks no owner thread");
            assertEquals(s.address(), view.address());
            assertEquals(64, view.byteSize());
            view.set(ValueLayout.JAVA_INT, 12, 0x12345678);
            assertEquals(0x12345678, s.get(ValueLayout.JAVA_INT, 12));
            assertThrows(IndexOutOfBoundsException.class, () -> view.get(ValueLayout.JAVA_BYTE, 64));
            assertTrue(ThreadAccess.forThisCall(s.asReadOnly()).isReadOnly());
        }
    }

    @Test
    void aClosedOrForeignConfinedSegmentIsRefusedAsAnAccessWould() throws Exception {
        Arena confined = Arena.ofConfined();
        MemorySegment s = confined.allocate(8);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> other.submit(() -> ThreadAccess.forThisCall(s)).get());
            assertTrue(e.getCause() instanceof WrongThreadException, e.getCause().toString());
        } finally {
            other.shutdownNow();
        }
        confined.close();
        assertThrows(IllegalStateException.class, () -> ThreadAccess.forThisCall(s));
    }

    @Test
    void aViewKeptPastItsCallFailsWhereViewsEndWithTheirCall() {
        ThreadAccess.endViewsWithTheirCall(true);
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment s = confined.allocate(64);
            MemorySegment kept;
            try (ThreadAccess.CallViews views = ThreadAccess.openCall()) {
                kept = views.view(s);
                kept.set(ValueLayout.JAVA_INT, 0, 7);
                assertTrue(ThreadAccess.fromAnyThread(kept), "the view checks no owner thread");
                assertTrue(views.view(s.asReadOnly()).isReadOnly());
            }
            assertEquals(7, s.get(ValueLayout.JAVA_INT, 0));
            assertThrows(IllegalStateException.class, () -> kept.get(ValueLayout.JAVA_INT, 0));
        } finally {
            ThreadAccess.endViewsWithTheirCall(false);
        }
        // normally a call's views stay valid as long as their memory: nothing to close
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment s = confined.allocate(8);
            MemorySegment view;
            try (ThreadAccess.CallViews views = ThreadAccess.openCall()) {
                view = views.view(s);
            }
            view.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            assertEquals(1, s.get(ValueLayout.JAVA_BYTE, 0));
        }
    }
}
