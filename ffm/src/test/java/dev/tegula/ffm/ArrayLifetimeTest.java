package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Lifetime, threads, read-only, bounds, creation errors and alignment. */
class ArrayLifetimeTest {

    @Test
    void closedArenaThrowsIllegalStateException() {
        Arena arena = Arena.ofConfined();
        Array a = Array.allocate(arena, shape("f32[3,5]{1,0:T(2,2)}"));
        Array b = Array.allocate(arena, shape("f32[3,5]"));
        arena.close();
        assertThrows(IllegalStateException.class, () -> a.getFloat(1, 1));
        assertThrows(IllegalStateException.class, () -> b.getFloat(1, 1));
        assertThrows(IllegalStateException.class, () -> b.setFloat(1, 1, 2f));
        assertThrows(IllegalStateException.class, () -> b.fill(1.0));
        assertTrue(b.toString().contains("<inaccessible"), b.toString());
    }

    @Test
    void otherThreadOnConfinedArenaThrowsWrongThreadException() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("f32[3,5]"));
            ExecutorService ex = Executors.newSingleThreadExecutor();
            try {
                Future<?> f = ex.submit(() -> assertThrows(WrongThreadException.class, () -> a.getFloat(0, 0)));
                f.get();
                Future<?> g = ex.submit(() -> assertThrows(WrongThreadException.class, () -> a.setLong(0, 0, 1)));
                g.get();
            } finally {
                ex.shutdown();
            }
        }
    }

    @Test
    void readOnlyArraysRefuseWrites() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("f32[3,5]"));
            a.setFloat(1, 2, 4f);
            Array ro = Array.wrap(a.segment().asReadOnly(), a.shape());
            assertTrue(ro.isReadOnly());
            assertEquals(4f, ro.getFloat(1, 2));
            assertThrows(UnsupportedOperationException.class, () -> ro.setFloat(1, 2, 1f));
            assertThrows(UnsupportedOperationException.class, () -> ro.setFloat(new long[] {1, 2}, 1f));
            assertThrows(UnsupportedOperationException.class, () -> ro.fill(0.0));
            assertThrows(UnsupportedOperationException.class, () -> ro.copyFrom(new float[15]));
            assertThrows(UnsupportedOperationException.class, () -> a.copyTo(ro));
            Array view = a.asReadOnly().slice(0, 1, 3);
            assertTrue(view.isReadOnly());
            assertThrows(UnsupportedOperationException.class, () -> view.setInt(0, 0, 1));
            assertEquals(4f, view.getFloat(0, 2));
        }
    }

    @Test
    void outOfBoundsNamesIndexAndShape() {
        try (Arena arena = Arena.ofConfined()) {
            for (String text : List.of("f32[3,5]", "f32[3,5]{1,0:T(2,2)}", "f32[3,5]{0,1}")) {
                Array a = Array.allocate(arena, shape(text));
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.getFloat(3, 0));
                assertTrue(e.getMessage().contains("[3, 0]") && e.getMessage().contains("f32[3,5]"), e.getMessage());
                e = assertThrows(IndexOutOfBoundsException.class, () -> a.setFloat(new long[] {0, -1}, 1f));
                assertTrue(e.getMessage().contains("[0, -1]") && e.getMessage().contains("f32[3,5]"), e.getMessage());
                e = assertThrows(IndexOutOfBoundsException.class, () -> a.getFloat(1));
                assertTrue(e.getMessage().contains("rank 2"), e.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> a.getDouble(0, 0, 0));
                assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(0, 0, 0, 0));
                assertThrows(IndexOutOfBoundsException.class, () -> a.getInt());
            }
        }
    }

    @Test
    void sharedArenaArraysAreReadableFromManyThreads() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            Array a = Array.allocate(arena, shape("bf16[64,256]{1,0:T(8,128)(2,1)}"));
            float[] v = new float[64 * 256];
            for (int i = 0; i < v.length; i++) {
                v[i] = i % 251;
            }
            a.copyFrom(v);
            ExecutorService ex = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    results.add(ex.submit(() -> {
                        for (int i = 0; i < 64; i++) {
                            for (int j = 0; j < 256; j++) {
                                if (a.getFloat(i, j) != v[i * 256 + j]) {
                                    return false;
                                }
                            }
                        }
                        return true;
                    }));
                }
                for (Future<Boolean> r : results) {
                    assertTrue(r.get());
                }
            } finally {
                ex.shutdown();
            }
        }
    }

    @Test
    void wrapRefusesTooSmallSegmentsNamingBothSizes() {
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape s = shape("f32[3,5]{1,0:T(2,2)}");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Array.wrap(arena.allocate(95), s));
            assertTrue(e.getMessage().contains("95") && e.getMessage().contains("96"), e.getMessage());
        }
    }

    @Test
    void unsupportedElementSizesAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Array.allocate(arena, shape("f32[4]{0:E(64)}")));
            assertTrue(e.getMessage().contains("64"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Array.allocate(arena, shape("s8[4]{0:E(4)}")));
            assertThrows(IllegalArgumentException.class, () -> Array.allocate(arena, shape("f32[?]")));
        }
    }

    @Test
    void wrapAddressBindsRawMemoryToAnArenaAndRunsTheCleanup() {
        try (Arena owner = Arena.ofConfined()) {
            MemorySegment native_ = owner.allocate(60, 64);
            AtomicBoolean cleaned = new AtomicBoolean();
            Arena arena = Arena.ofConfined();
            Array a = Array.wrapAddress(native_.address(), shape("f32[3,5]"), arena, () -> cleaned.set(true));
            a.setFloat(2, 4, 9f);
            assertEquals(9f, native_.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 14));
            assertEquals(60, a.segment().byteSize());
            arena.close();
            assertTrue(cleaned.get());
            assertThrows(IllegalStateException.class, () -> a.getFloat(0, 0));
            assertThrows(IllegalArgumentException.class, () -> Array.wrapAddress(0, shape("f32[3]"), owner, null));
        }
    }

    @Test
    void allocationIsAlignedToTheTile() {
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 4; i++) {
                arena.allocate(3);   // disturb the allocator's alignment
                assertEquals(0, Array.allocate(arena, shape("f32[16,256]{1,0:T(8,128)}")).segment().address() % 4096);
                assertEquals(0, Array.allocate(arena, shape("bf16[16,256]{1,0:T(8,128)(2,1)}")).segment().address() % 2048);
                assertEquals(0, Array.allocate(arena, shape("f32[3,5]")).segment().address() % 64);
            }
            assertEquals(4096, ArrayFactory.alignment(shape("f64[16,256]{1,0:T(8,128)}")));
            assertEquals(64, ArrayFactory.alignment(shape("f32[3,5]{1,0:T(2,2)}")));
            assertEquals(128, ArrayFactory.alignment(shape("f32[30,30]{1,0:T(6,6)}")));   // 144 bytes
        }
    }

    @Test
    void zeroSizeShapesAllocateNothing() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("f32[0,5]{1,0:T(2,2)}"));
            assertEquals(0, a.segment().byteSize());
            assertEquals(0, a.toFloatArray().length);
            a.fill(1.0);
            assertTrue(a.contentEquals(Array.allocate(arena, shape("f32[0,5]"))));
            assertEquals("f32[0,5]{1,0:T(2,2)}\n[]", a.toString());
        }
    }

    @Test
    void typesWithoutElementsStillHaveAccessorErrors() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32));
            a.setFloat(new long[0], 2.5f);
            assertEquals(2.5f, a.getFloat());
            assertEquals("f32[]\n2.5", a.toString());
        }
    }
}
