package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** DLPack structs built and read in Java; the native peer is in DLPackNativeTest. */
class DLPackTest {
    static final AtomicInteger DELETES = new AtomicInteger();
    static final MemorySegment COUNTING_DELETER;

    static {
        try {
            COUNTING_DELETER = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(DLPackTest.class,
                    "countingDeleter", MethodType.methodType(void.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void countingDeleter(MemorySegment self) {
        DELETES.incrementAndGet();
    }

    @Test
    void layoutsMatchTheCAbi() {
        assertEquals(8, DLPackStructs.DL_PACK_VERSION.byteSize());
        assertEquals(8, DLPackStructs.DL_DEVICE.byteSize());
        assertEquals(4, DLPackStructs.DL_DATA_TYPE.byteSize());
        assertEquals(48, DLPackStructs.DL_TENSOR.byteSize());
        assertEquals(64, DLPackStructs.DL_MANAGED_TENSOR.byteSize());
        assertEquals(80, DLPackStructs.DL_MANAGED_TENSOR_VERSIONED.byteSize());
        assertEquals(32, DLPackStructs.V_TENSOR);
        assertEquals(40, DLPackStructs.T_BYTE_OFFSET);
        assertEquals(56, DLPackStructs.L_DELETER);
    }

    @Test
    void everyElementTypeHasACodeThatMapsBack() {
        for (ElementType t : ElementType.values()) {
            if (t.isArrayType()) {
                assertEquals(t, DLPackDtype.of(DLPackDtype.code(t), DLPackDtype.bits(t)), t.hloName());
            }
        }
        assertEquals(ElementType.BF16, DLPackDtype.of(4, 16));
        assertEquals(ElementType.F8E4M3FN, DLPackDtype.of(10, 8));
        assertEquals(ElementType.F8E5M2, DLPackDtype.of(12, 8));
        assertEquals(ElementType.F4E2M1FN, DLPackDtype.of(17, 4));
        assertEquals(ElementType.PRED, DLPackDtype.of(6, 8));
        assertEquals(null, DLPackDtype.of(2, 128));
    }

    @Test
    void exportThenImportIsTheSameMemoryAndReleasesOnce() {
        AtomicInteger released = new AtomicInteger();
        try (Arena owner = Arena.ofConfined()) {
            Array a = Array.allocate(owner, ArrayShape.parse("bf16[4,8]{0,1}"));
            a.fill(1.5);
            MemorySegment m = DLPack.export(a, owner, false, released::incrementAndGet);
            assertEquals(1, m.get(JAVA_INT, DLPackStructs.V_MAJOR));
            assertEquals(1, m.get(JAVA_INT, DLPackStructs.V_MINOR));
            try (Arena consumer = Arena.ofConfined()) {
                Array b = DLPack.importTensor(MemorySegment.ofAddress(m.address()), consumer);
                assertEquals(a.segment().address(), b.segment().address());
                assertEquals(Layout.columnMajor(2), b.shape().layout());
                b.setFloat(3, 7, -2f);
                assertEquals(-2f, a.getFloat(3, 7));
                assertEquals(0, released.get());
            }
            assertEquals(1, released.get(), "closing the consumer's arena called Tegula's deleter once");
        }
    }

    @Test
    void readOnlyViewsCarryTheFlagAndTheirOffset() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.S16, 5, 4));
            a.copyFrom(java.util.stream.IntStream.range(0, 20).toArray());
            Array v = a.asReadOnly().select(0, 2);
            MemorySegment m = DLPack.export(v, arena);
            assertEquals(DLPackStructs.FLAG_READ_ONLY, m.get(JAVA_LONG, DLPackStructs.V_FLAGS));
            assertEquals(16, m.get(JAVA_LONG, DLPackStructs.V_TENSOR + DLPackStructs.T_BYTE_OFFSET));
            try (Arena c = Arena.ofConfined()) {
                Array b = DLPack.importTensor(m, c);
                assertTrue(b.isReadOnly());
                assertEquals(11, b.getInt(3));
                assertThrows(UnsupportedOperationException.class, () -> b.setInt(0, 1));
            }
        }
    }

    @Test
    void tiledLayoutsAreRefusedUnlessACopyIsAsked() {
        try (Arena arena = Arena.ofConfined()) {
            Array t = Array.allocate(arena, ArrayShape.parse("f32[16,256]{1,0:T(8,128)}"));
            t.setFloat(9, 200, 3f);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DLPack.export(t, arena));
            assertTrue(e.getMessage().contains("tiled") && e.getMessage().contains("Relayout.to"), e.getMessage());
            MemorySegment m = DLPack.export(t, arena, true, null);
            assertEquals(DLPackStructs.FLAG_IS_COPIED, m.get(JAVA_LONG, DLPackStructs.V_FLAGS));
            try (Arena c = Arena.ofConfined()) {
                Array b = DLPack.importTensor(m, c);
                assertEquals(Layout.rowMajor(2), b.shape().layout());
                assertTrue(t.contentEquals(b));
                assertFalse(b.segment().address() == t.segment().address());
            }
            Array pred = Array.allocate(arena, ArrayShape.parse("pred[9]{0:E(1)}"));
            assertThrows(IllegalArgumentException.class, () -> DLPack.export(pred, arena));
        }
    }

    @Test
    void unpackedSubByteAndF6AreFlaggedPadded() {
        try (Arena arena = Arena.ofConfined()) {
            for (String s : new String[] {"s4[3]", "f6e2m3fn[3]", "u2[3]"}) {
                Array a = Array.allocate(arena, ArrayShape.parse(s));
                a.fill(1.0);
                MemorySegment m = DLPack.export(a, arena);
                assertEquals(DLPackStructs.FLAG_IS_SUBBYTE_TYPE_PADDED, m.get(JAVA_LONG, DLPackStructs.V_FLAGS), s);
                try (Arena c = Arena.ofConfined()) {
                    Array b = DLPack.importTensor(m, c);
                    assertEquals(a.shape(), b.shape(), s);
                    assertTrue(a.contentEquals(b), s);
                }
            }
        }
    }

    /** A struct as a producer would write it, with a counting deleter. */
    private static MemorySegment struct(Arena arena, int major, int deviceType, int code, int bits, int lanes,
                                        long[] dims, long[] strides, long byteOffset, MemorySegment data) {
        MemorySegment m = arena.allocate(DLPackStructs.DL_MANAGED_TENSOR_VERSIONED);
        MemorySegment shape = arena.allocate(JAVA_LONG, Math.max(1, dims.length));
        MemorySegment.copy(dims, 0, shape, JAVA_LONG, 0, dims.length);
        MemorySegment st = MemorySegment.NULL;
        if (strides != null) {
            st = arena.allocate(JAVA_LONG, Math.max(1, strides.length));
            MemorySegment.copy(strides, 0, st, JAVA_LONG, 0, strides.length);
        }
        long t = DLPackStructs.V_TENSOR;
        m.set(JAVA_INT, DLPackStructs.V_MAJOR, major);
        m.set(ADDRESS, DLPackStructs.V_DELETER, COUNTING_DELETER);
        m.set(ADDRESS, t + DLPackStructs.T_DATA, data);
        m.set(JAVA_INT, t + DLPackStructs.T_DEVICE_TYPE, deviceType);
        m.set(JAVA_INT, t + DLPackStructs.T_NDIM, dims.length);
        m.set(JAVA_BYTE, t + DLPackStructs.T_CODE, (byte) code);
        m.set(JAVA_BYTE, t + DLPackStructs.T_BITS, (byte) bits);
        m.set(JAVA_SHORT, t + DLPackStructs.T_LANES, (short) lanes);
        m.set(ADDRESS, t + DLPackStructs.T_SHAPE, shape);
        m.set(ADDRESS, t + DLPackStructs.T_STRIDES, st);
        m.set(JAVA_LONG, t + DLPackStructs.T_BYTE_OFFSET, byteOffset);
        return m;
    }

    @Test
    void importMapsStridesDevicesAndDtypes() {
        try (Arena producer = Arena.ofConfined()) {
            MemorySegment data = producer.allocate(256);
            int before = DELETES.get();
            try (Arena c = Arena.ofConfined()) {
                Array a = DLPack.importTensor(struct(producer, 1, 1, 4, 16, 1, new long[] {2, 3}, null, 0, data), c);
                assertEquals("bf16[2,3]{1,0}", a.shape().toString());
                Array s = DLPack.importTensor(struct(producer, 1, 1, 2, 32, 1, new long[] {3, 2}, new long[] {8, 2}, 4, data), c);
                assertEquals(1, s.slotOffset());
                assertEquals(8, s.slotStrides()[0]);
                assertFalse(s.isContiguous());
                Array f8 = DLPack.importTensor(struct(producer, 1, 1, 10, 8, 1, new long[] {4}, new long[] {1}, 0, data), c);
                assertEquals(ElementType.F8E4M3FN, f8.shape().elementType());
                Array f4 = DLPack.importTensor(struct(producer, 1, 1, 17, 4, 1, new long[] {5}, null, 0, data), c);
                assertEquals("f4e2m1fn[5]{0:E(4)}", f4.shape().toString());
                Array pinned = DLPack.importTensor(struct(producer, 1, DLPackStructs.KDL_CUDA_HOST, 2, 32, 1,
                        new long[] {2}, null, 0, data), c);
                assertEquals(5, pinned.shape().layout().memorySpace());
                assertTrue(pinned.isHostAccessible());
                Array gpu = DLPack.importTensor(struct(producer, 1, DLPackStructs.KDL_CUDA, 2, 32, 1, new long[] {2}, null, 0,
                        data), c);
                assertFalse(gpu.isHostAccessible());
                assertThrows(IllegalStateException.class, () -> gpu.getFloat(0));
                assertEquals(before, DELETES.get());
            }
            assertEquals(before + 6, DELETES.get(), "each import's deleter ran once when the arena closed");
        }
    }

    @Test
    void unrepresentableTensorsAreRefusedAfterTheirDeleterRan() {
        try (Arena producer = Arena.ofConfined(); Arena c = Arena.ofConfined()) {
            MemorySegment data = producer.allocate(64);
            Object[][] cases = {
                {struct(producer, 2, 1, 2, 32, 1, new long[] {2}, null, 0, data), "major version 2"},
                {struct(producer, 1, 1, 2, 32, 4, new long[] {2}, null, 0, data), "lanes"},
                {struct(producer, 1, 1, 2, 32, 1, new long[] {2}, new long[] {-1}, 4, data), "negative"},
                {struct(producer, 1, 1, 99, 8, 1, new long[] {2}, null, 0, data), "code 99"},
                {struct(producer, 1, 1, 15, 6, 1, new long[] {4}, null, 0, data), "packed 6-bit"},
                {struct(producer, 1, 1, 2, 32, 1, new long[] {-3}, null, 0, data), "shape[0]"},
                {struct(producer, 1, 1, 2, 32, 1, new long[] {2}, null, 3, data), "byte_offset"},
                {struct(producer, 1, 1, 2, 32, 1, new long[] {1L << 62, 8}, null, 0, data), "shape"},
                {struct(producer, 1, 1, 2, 32, 1, new long[] {3, 1L << 62, 4}, null, 0, data), "shape"},   // row-major strides overflow
                {struct(producer, 1, 1, 2, 32, 1, new long[] {2}, null, 0, MemorySegment.NULL), "NULL"},
            };
            for (Object[] k : cases) {
                int before = DELETES.get();
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> DLPack.importTensor((MemorySegment) k[0], c));
                assertTrue(e.getMessage().contains((String) k[1]), e.getMessage());
                assertEquals(before + 1, DELETES.get(), "deleter called for " + k[1]);
            }
            assertThrows(IllegalArgumentException.class, () -> DLPack.importTensor(MemorySegment.NULL, c));
            assertNotNull(c);
        }
    }
}
