package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link DLPack#exportLegacy}: the unversioned {@code DLManagedTensor} read the way a consumer reads
 * it. Every offset and code below is written from {@code dlpack.h} (64-bit ABI), not from
 * {@link DLPackStructs}: {@code DLTensor} is {@code data} at 0, {@code device} at 8 (type, id),
 * {@code ndim} at 16, {@code dtype} at 20 ({@code code}, {@code bits}, {@code lanes} as u8, u8, u16),
 * {@code shape} at 24, {@code strides} at 32, {@code byte_offset} at 40, 48 bytes; the legacy
 * {@code DLManagedTensor} is that tensor, then {@code manager_ctx} at 48 and {@code deleter} at 56.
 * {@link #numpyReads} applies NumPy's acceptance rules for a {@code "dltensor"} capsule
 * ({@code from_dlpack}: CPU-like device, one lane, a dtype it has, byte strides of
 * {@code stride * itemsize} from {@code data + byte_offset}).
 */
class DLPackLegacyExportTest {
    private static final MethodHandle CALL_DELETER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));

    /** The consumer's half of the contract: call the deleter in the struct, with the struct's address. */
    private static void callDeleter(MemorySegment managed) throws Throwable {
        MemorySegment m = managed.reinterpret(64);
        CALL_DELETER.invokeExact(m.get(ADDRESS, 56), MemorySegment.ofAddress(m.address()));
    }

    /**
     * Element {@code index} of the tensor at {@code managed} as a double, read as NumPy's
     * {@code from_dlpack} lays a legacy tensor out; throws where NumPy refuses the tensor.
     */
    static double numpyReads(MemorySegment managed, long... index) {
        MemorySegment m = managed.reinterpret(64);
        int device = m.get(JAVA_INT, 8);
        if (device != 1 && device != 3 && device != 11 && device != 13) {   // kDLCPU, kDLCUDAHost, kDLROCMHost, kDLCUDAManaged
            throw new IllegalStateException("device " + device);
        }
        int ndim = m.get(JAVA_INT, 16);
        int code = Byte.toUnsignedInt(m.get(JAVA_BYTE, 20));
        int bits = Byte.toUnsignedInt(m.get(JAVA_BYTE, 21));
        int lanes = Short.toUnsignedInt(m.get(JAVA_SHORT, 22));
        if (lanes != 1) {
            throw new IllegalStateException("lanes " + lanes);
        }
        boolean known = switch (code) {
            case 0, 1 -> bits == 8 || bits == 16 || bits == 32 || bits == 64;   // kDLInt, kDLUInt
            case 2 -> bits == 16 || bits == 32 || bits == 64;                    // kDLFloat
            case 6 -> bits == 8;                                                 // kDLBool
            default -> false;
        };
        if (!known) {
            throw new IllegalStateException("unsupported dtype code " + code + " bits " + bits);
        }
        long item = bits / 8;
        MemorySegment shape = m.get(ADDRESS, 24).reinterpret(8L * ndim);
        MemorySegment strides = m.get(ADDRESS, 32);
        long at = m.get(JAVA_LONG, 40);
        long stride = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            long s = strides.address() == 0 ? stride : strides.reinterpret(8L * ndim).getAtIndex(JAVA_LONG, d);
            at += index[d] * s * item;
            stride *= shape.getAtIndex(JAVA_LONG, d);
        }
        MemorySegment data = m.get(ADDRESS, 0).reinterpret(at + item);
        return switch (code * 100 + bits) {
            case 8, 108, 608 -> code == 1 ? Byte.toUnsignedInt(data.get(JAVA_BYTE, at)) : data.get(JAVA_BYTE, at);
            case 16 -> data.get(JAVA_SHORT, at);
            case 116 -> Short.toUnsignedInt(data.get(JAVA_SHORT, at));
            case 32 -> data.get(JAVA_INT, at);
            case 64 -> data.get(JAVA_LONG, at);
            case 216 -> Float.float16ToFloat(data.get(JAVA_SHORT, at));
            case 232 -> data.get(java.lang.foreign.ValueLayout.JAVA_FLOAT, at);
            case 264 -> data.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE, at);
            default -> throw new AssertionError(code + "/" + bits);
        };
    }

    @Test
    void theStructIsDLPacksLegacyLayoutWithEveryFieldSet() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4, 6));
            a.copyFrom(java.util.stream.IntStream.range(0, 24).mapToDouble(i -> i).toArray());
            Array view = a.slice(0, 1, 4).permute(1, 0);   // f32[6,3], strides {1, 6}, offset 6 elements
            MemorySegment m = DLPack.exportLegacy(view, arena).reinterpret(64);
            assertEquals(64, DLPackStructs.DL_MANAGED_TENSOR.byteSize());
            assertEquals(a.segment().address(), m.get(ADDRESS, 0).address(), "data: the array's own memory");
            assertEquals(1, m.get(JAVA_INT, 8), "device_type kDLCPU");
            assertEquals(0, m.get(JAVA_INT, 12), "device_id");
            assertEquals(2, m.get(JAVA_INT, 16), "ndim");
            assertEquals(2, m.get(JAVA_BYTE, 20), "code kDLFloat");
            assertEquals(32, m.get(JAVA_BYTE, 21), "bits");
            assertEquals(1, m.get(JAVA_SHORT, 22), "lanes");
            MemorySegment shape = m.get(ADDRESS, 24).reinterpret(16);
            MemorySegment strides = m.get(ADDRESS, 32).reinterpret(16);
            assertEquals(6, shape.getAtIndex(JAVA_LONG, 0));
            assertEquals(3, shape.getAtIndex(JAVA_LONG, 1));
            assertEquals(1, strides.getAtIndex(JAVA_LONG, 0), "strides in elements");
            assertEquals(6, strides.getAtIndex(JAVA_LONG, 1));
            assertEquals(24, m.get(JAVA_LONG, 40), "byte_offset of the view");
            assertEquals(0, m.get(ADDRESS, 48).address(), "manager_ctx NULL");
            assertNotEquals(0, m.get(ADDRESS, 56).address(), "deleter set");
            for (long i = 0; i < 6; i++) {
                for (long j = 0; j < 3; j++) {
                    assertEquals(view.getFloat(i, j), numpyReads(m, i, j), "element " + i + "," + j);
                }
            }
        }
    }

    @Test
    void dtypesAreDLPacksCodes() {
        Object[][] cases = {   // type, code, bits: dlpack.h's DLDataTypeCode
            {"s8[3]", 0, 8}, {"s64[3]", 0, 64}, {"u16[3]", 1, 16}, {"f16[3]", 2, 16}, {"f64[3]", 2, 64},
            {"bf16[3]", 4, 16}, {"c64[3]", 5, 64}, {"pred[3]", 6, 8}, {"s4[4]{0:E(4)}", 0, 4},
        };
        try (Arena arena = Arena.ofConfined()) {
            for (Object[] c : cases) {
                Array a = Array.allocate(arena, ArrayShape.parse((String) c[0]));
                MemorySegment m = DLPack.exportLegacy(a, arena).reinterpret(64);
                assertEquals((int) c[1], Byte.toUnsignedInt(m.get(JAVA_BYTE, 20)), (String) c[0]);
                assertEquals((int) c[2], Byte.toUnsignedInt(m.get(JAVA_BYTE, 21)), (String) c[0]);
            }
            Array b = Array.allocate(arena, ArrayShape.of(ElementType.PRED, 2));
            b.setBoolean(new long[] {1}, true);
            MemorySegment m = DLPack.exportLegacy(b, arena);
            assertEquals(0.0, numpyReads(m, 0));
            assertEquals(1.0, numpyReads(m, 1));
        }
    }

    @Test
    void theDeleterReleasesOnceHoweverOftenTheConsumerCallsIt() throws Throwable {
        AtomicInteger released = new AtomicInteger();
        try (Arena arena = Arena.ofConfined()) {
            int live = DLPack.liveExports();
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.S32, 5));
            MemorySegment m = DLPack.exportLegacy(a, arena, false, released::incrementAndGet);
            assertEquals(live + 1, DLPack.liveExports());
            callDeleter(m);
            assertEquals(1, released.get());
            assertEquals(live, DLPack.liveExports());
            callDeleter(m);
            assertEquals(1, released.get(), "a second call is ignored");
        }
    }

    @Test
    void aDeleterCalledFromAnotherThreadReleasesToo() throws Throwable {
        AtomicInteger released = new AtomicInteger();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment m = DLPack.exportLegacy(Array.allocate(arena, ArrayShape.of(ElementType.F32, 2)), arena, false,
                    released::incrementAndGet);
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    callDeleter(m);
                } catch (Throwable e) {
                    throw new AssertionError(e);
                }
            });
            t.join();
            assertEquals(1, released.get());
        }
    }

    /**
     * What JAX does when its array is freed: a thread of its own, which the JVM never started, reads
     * the deleter from the struct and calls it. Here that thread is made with {@code pthread_create},
     * whose start routine is the deleter itself and whose argument is the struct (the deleter's
     * {@code void} return leaves the thread's result undefined, which {@code pthread_join} is told
     * to ignore).
     */
    @Test
    void theLegacyDeleterCalledFromANativeThreadReleasesTheExport() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle create = linker.downcallHandle(linker.defaultLookup().find("pthread_create").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        MethodHandle join = linker.downcallHandle(linker.defaultLookup().find("pthread_join").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        AtomicInteger released = new AtomicInteger();
        Thread[] releasedOn = new Thread[1];
        try (Arena arena = Arena.ofShared()) {
            int live = DLPack.liveExports();
            MemorySegment m = DLPack.exportLegacy(Array.allocate(arena, ArrayShape.of(ElementType.F32, 4, 4)), arena, false,
                    () -> {
                        releasedOn[0] = Thread.currentThread();
                        released.incrementAndGet();
                    });
            assertEquals(live + 1, DLPack.liveExports());
            MemorySegment deleter = m.reinterpret(64).get(ADDRESS, 56);
            MemorySegment thread = arena.allocate(JAVA_LONG);
            assertEquals(0, (int) create.invokeExact(thread, MemorySegment.NULL, deleter, MemorySegment.ofAddress(m.address())));
            assertEquals(0, (int) join.invokeExact(thread.get(JAVA_LONG, 0), MemorySegment.NULL));
            assertEquals(1, released.get(), "onRelease ran once");
            assertEquals(live, DLPack.liveExports(), "the export is no longer live");
            assertNotEquals(Thread.currentThread(), releasedOn[0]);
        }
    }

    @Test
    void anExportWhoseDeleterIsNeverCalledIsForgottenWhenItsArenaCloses() {
        AtomicInteger released = new AtomicInteger();
        int live = DLPack.liveExports();
        try (Arena arena = Arena.ofConfined()) {
            DLPack.exportLegacy(Array.allocate(arena, ArrayShape.of(ElementType.F32, 2)), arena, false,
                    released::incrementAndGet);
            assertEquals(live + 1, DLPack.liveExports());
        }
        assertEquals(live, DLPack.liveExports());
        assertEquals(0, released.get(), "onRelease runs only when the consumer calls the deleter");
    }

    @Test
    void aReadOnlyArrayIsRefusedOrCopiedWritable() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.S16, 5, 4));
            a.copyFrom(java.util.stream.IntStream.range(0, 20).toArray());
            Array ro = a.asReadOnly().select(0, 2);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DLPack.exportLegacy(ro, arena));
            assertTrue(e.getMessage().contains("read-only") && e.getMessage().contains("export (DLPack 1.x)"), e.getMessage());
            MemorySegment m = DLPack.exportLegacy(ro, arena, true, null).reinterpret(64);
            assertNotEquals(a.segment().address(), m.get(ADDRESS, 0).address(), "a copy");
            assertEquals(0, m.get(JAVA_LONG, 40));
            for (int i = 0; i < 4; i++) {
                assertEquals(ro.getInt(i), numpyReads(m, i));
            }
        }
    }

    @Test
    void layoutsItCannotSayAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            Array tiled = Array.allocate(arena, ArrayShape.parse("f32[16,256]{1,0:T(8,128)}"));
            tiled.setFloat(9, 200, 3f);
            assertThrows(IllegalArgumentException.class, () -> DLPack.exportLegacy(tiled, arena));
            MemorySegment m = DLPack.exportLegacy(tiled, arena, true, null);
            assertEquals(3.0, numpyReads(m, 9, 200), "the row-major copy");
            for (String s : new String[] {"s4[3]", "u2[3]", "f6e2m3fn[3]"}) {
                Array a = Array.allocate(arena, ArrayShape.parse(s));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> DLPack.exportLegacy(a, arena, true, null), s);
                assertTrue(e.getMessage().contains("a byte of its own"), e.getMessage());
            }
        }
    }

    @Test
    void tegulaImportsItsOwnLegacyExportAndTheDeleterRunsOnce() {
        AtomicInteger released = new AtomicInteger();
        try (Arena owner = Arena.ofConfined()) {
            Array a = Array.allocate(owner, ArrayShape.parse("bf16[4,8]{0,1}"));
            a.fill(1.5);
            MemorySegment m = DLPack.exportLegacy(a, owner, false, released::incrementAndGet);
            try (Arena consumer = Arena.ofConfined()) {
                Array b = DLPack.importLegacy(MemorySegment.ofAddress(m.address()), consumer);
                assertEquals(a.segment().address(), b.segment().address());
                assertEquals(a.shape(), b.shape());
                b.setFloat(3, 7, -2f);
                assertEquals(-2f, a.getFloat(3, 7));
                assertFalse(b.isReadOnly());
            }
            assertEquals(1, released.get());
        }
    }
}
