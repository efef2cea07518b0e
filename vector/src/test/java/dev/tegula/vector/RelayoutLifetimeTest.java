package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The relayout entry points ({@link RelayoutPlan#execute} on segments and arrays, sequential and
 * with an executor, {@link Relayout#copy}, {@link Relayout#to}) refuse with the documented
 * exception: {@link UnsupportedOperationException} for a read-only destination,
 * {@link IllegalStateException} when either arena is closed, {@link WrongThreadException} from a
 * thread that does not own a confined arena, {@link IllegalArgumentException} for a buffer that
 * is too small. A read-only destination, and a confined destination used from another thread,
 * are left untouched.
 */
@Timeout(60)
class RelayoutLifetimeTest {
    /** One fast (transposing), one tiled, one general-walk (conversion) and one packed pair. */
    private static final List<String[]> PAIRS = List.of(
            new String[] {"f32[64,48]{1,0}", "f32[64,48]{0,1}"},
            new String[] {"bf16[16,256]{1,0}", "bf16[16,256]{1,0:T(8,128)(2,1)}"},
            new String[] {"f32[8,8]{1,0}", "bf16[8,8]{0,1:T(2,2)}"},
            new String[] {"s4[9,37]{0,1:E(4)}", "s4[9,37]{1,0:T(2,128)E(4)}"});

    private static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    @Test
    void readOnlyDestinationIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            for (String[] p : PAIRS) {
                Array src = Array.allocate(arena, shape(p[0]));
                Array dst = Array.allocate(arena, shape(p[1]));
                dst.segment().fill((byte) 0x33);
                RelayoutPlan plan = Relayout.plan(src.shape(), dst.shape());
                MemorySegment ro = dst.segment().asReadOnly();
                assertThrows(UnsupportedOperationException.class, () -> plan.execute(src.segment(), ro), p[1]);
                assertThrows(UnsupportedOperationException.class, () -> plan.execute(src.segment(), ro,
                        ForkJoinPoolHolder.POOL, 2), p[1]);
                assertThrows(UnsupportedOperationException.class, () -> plan.execute(src, dst.asReadOnly()), p[1]);
                assertThrows(UnsupportedOperationException.class, () -> Relayout.copy(src, dst.asReadOnly()), p[1]);
                assertThrows(UnsupportedOperationException.class, () -> Relayout.copy(src, Array.wrap(ro, dst.shape()),
                        ForkJoinPoolHolder.POOL, 2), p[1]);
                assertUntouched(dst.segment(), (byte) 0x33, p[1]);
            }
        }
    }

    @Test
    void closedArenasAreRefused() {
        for (String[] p : PAIRS) {
            for (boolean closeSource : new boolean[] {true, false}) {
                Arena srcArena = Arena.ofConfined();
                Arena dstArena = Arena.ofConfined();
                Array src = Array.allocate(srcArena, shape(p[0]));
                Array dst = Array.allocate(dstArena, shape(p[1]));
                RelayoutPlan plan = Relayout.plan(src.shape(), dst.shape());
                (closeSource ? srcArena : dstArena).close();
                String what = (closeSource ? "source" : "destination") + " closed: " + p[0] + " -> " + p[1];
                assertThrows(IllegalStateException.class, () -> plan.execute(src.segment(), dst.segment()), what);
                assertThrows(IllegalStateException.class, () -> plan.execute(src, dst), what);
                assertThrows(IllegalStateException.class, () -> Relayout.copy(src, dst), what);
                assertThrows(IllegalStateException.class, () -> Relayout.copy(src, dst, ForkJoinPoolHolder.POOL, 2), what);
                if (closeSource) {
                    assertThrows(IllegalStateException.class, () -> Relayout.to(src, Layout.columnMajor(2), dstArena),
                            what);
                    dstArena.close();
                } else {
                    assertThrows(IllegalStateException.class, () -> Relayout.to(src, dst.shape().layout(), dstArena),
                            what);
                    srcArena.close();
                }
            }
        }
    }

    @Test
    void confinedArenasRefuseOtherThreads() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Arena arena = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            for (String[] p : PAIRS) {
                for (boolean confinedSource : new boolean[] {true, false}) {
                    Array src = Array.allocate(confinedSource ? arena : shared, shape(p[0]));
                    Array dst = Array.allocate(confinedSource ? shared : arena, shape(p[1]));
                    dst.segment().fill((byte) 0x44);
                    RelayoutPlan plan = Relayout.plan(src.shape(), dst.shape());
                    String what = (confinedSource ? "confined source" : "confined destination") + ": " + p[0];
                    other.submit(() -> {
                        assertThrows(WrongThreadException.class, () -> plan.execute(src.segment(), dst.segment()), what);
                        assertThrows(WrongThreadException.class, () -> Relayout.copy(src, dst), what);
                        assertThrows(WrongThreadException.class, () -> Relayout.copy(src, dst, ForkJoinPoolHolder.POOL, 2),
                                what);
                    }).get(30, TimeUnit.SECONDS);
                    if (!confinedSource) {
                        assertUntouched(dst.segment(), (byte) 0x44, what);
                    }
                    // the owner, given an executor, runs the copy itself: a confined arena is never shared
                    Relayout.copy(src, dst, ForkJoinPoolHolder.POOL, 2);
                    assertTrue(src.contentEquals(dst) || !src.shape().elementType().equals(dst.shape().elementType()),
                            what);
                }
            }
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void tooSmallBuffersAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape from = shape("f32[64,48]{1,0}");
            ArrayShape to = shape("f32[64,48]{0,1:T(8,8)}");
            RelayoutPlan plan = Relayout.plan(from, to);
            MemorySegment src = arena.allocate(from.bufferSize());
            MemorySegment dst = arena.allocate(to.bufferSize());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> plan.execute(src.asSlice(0, from.bufferSize() - 1), dst));
            assertTrue(e.getMessage().contains(Long.toString(from.bufferSize())), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> plan.execute(src, dst.asSlice(1)));
            Array a = Array.allocate(arena, from);
            Array wrongDims = Array.allocate(arena, ArrayShape.of(ElementType.F32, 48, 64));
            assertThrows(IllegalArgumentException.class, () -> plan.execute(a, wrongDims));
        }
    }

    static void assertUntouched(MemorySegment seg, byte fill, String what) {
        for (long i = 0; i < seg.byteSize(); i++) {
            if (seg.get(ValueLayout.JAVA_BYTE, i) != fill) {
                assertEquals(fill, seg.get(ValueLayout.JAVA_BYTE, i), what + ": byte " + i + " was written");
            }
        }
    }

    /** A shared pool for the executor variants (daemon threads: nothing to shut down). */
    static final class ForkJoinPoolHolder {
        static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "relayout-test");
            t.setDaemon(true);
            return t;
        });
    }
}
