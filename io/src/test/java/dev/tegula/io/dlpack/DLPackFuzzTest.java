package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fuzz target for DLPack import: the fields of a {@code DLManagedTensorVersioned} (or a legacy
 * {@code DLManagedTensor}) come from the fuzzer — version, flags, device, ndim, dtype, every shape and
 * stride value, byte_offset — laid out in native memory as a producer would, with a real data buffer
 * and a counting deleter. Contract: {@link DLPack#importTensor} either throws
 * {@link IllegalArgumentException} or returns an array with exactly the given dimensions whose
 * segment covers exactly the extent the strides reach; elements are read only when that extent lies
 * inside the real buffer (and there are at most 2^16 of them: zero strides may make a huge array of
 * a few bytes); the producer's deleter runs exactly once, whichever way it ends.
 *
 * <p>In {@code mvn verify} it replays {@code src/test/resources/dev/tegula/io/dlpack/DLPackFuzzTestInputs/importTensor/};
 * with {@code JAZZER_FUZZ=1} it fuzzes (see docs/reliability.md).
 */
class DLPackFuzzTest {
    private static final long BUFFER = 4096;
    private static final AtomicInteger DELETED = new AtomicInteger();

    static void deleter(MemorySegment self) {
        DELETED.incrementAndGet();
    }

    @FuzzTest(maxDuration = "30s")
    void importTensor(FuzzedDataProvider in) throws Exception {
        DELETED.set(0);
        boolean versioned = in.consumeBoolean();
        try (Arena producer = Arena.ofConfined()) {
            MemorySegment deleter = Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(DLPackFuzzTest.class, "deleter",
                            MethodType.methodType(void.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(ADDRESS), producer);
            MemorySegment data = producer.allocate(BUFFER, 64);
            int ndim = in.consumeBoolean() ? in.consumeInt(0, 6) : in.consumeInt();
            // the producer's shape and strides arrays hold ndim entries (up to the importer's rank limit,
            // past which it refuses before reading them)
            int stored = Math.max(0, Math.min(ndim, DLPackImport.MAX_RANK));
            long[] shape = new long[stored];
            for (int d = 0; d < stored; d++) {
                shape[d] = in.consumeBoolean() ? in.consumeLong(0, 16) : in.consumeLong();
            }
            boolean hasStrides = in.consumeBoolean();
            long[] strides = new long[stored];
            for (int d = 0; d < stored; d++) {
                strides[d] = in.consumeBoolean() ? in.consumeLong(0, 64) : in.consumeLong();
            }
            MemorySegment shapeSeg = producer.allocate(JAVA_LONG, Math.max(1, stored));
            MemorySegment strideSeg = producer.allocate(JAVA_LONG, Math.max(1, stored));
            MemorySegment.copy(shape, 0, shapeSeg, JAVA_LONG, 0, stored);
            MemorySegment.copy(strides, 0, strideSeg, JAVA_LONG, 0, stored);

            MemorySegment m = producer.allocate(versioned ? DLPackStructs.DL_MANAGED_TENSOR_VERSIONED
                    : DLPackStructs.DL_MANAGED_TENSOR);
            long t = versioned ? DLPackStructs.V_TENSOR : DLPackStructs.L_TENSOR;
            if (versioned) {
                m.set(JAVA_INT, DLPackStructs.V_MAJOR, in.consumeBoolean() ? 1 : in.consumeInt());
                m.set(JAVA_INT, DLPackStructs.V_MINOR, in.consumeInt());
                m.set(JAVA_LONG, DLPackStructs.V_FLAGS, in.consumeLong());
                m.set(ADDRESS, DLPackStructs.V_DELETER, deleter);
            } else {
                m.set(ADDRESS, DLPackStructs.L_DELETER, deleter);
            }
            m.set(ADDRESS, t + DLPackStructs.T_DATA, data);
            m.set(JAVA_INT, t + DLPackStructs.T_DEVICE_TYPE, in.consumeBoolean() ? 1 : in.consumeInt());
            m.set(JAVA_INT, t + DLPackStructs.T_DEVICE_ID, in.consumeInt());
            m.set(JAVA_INT, t + DLPackStructs.T_NDIM, ndim);
            m.set(JAVA_BYTE, t + DLPackStructs.T_CODE, in.consumeByte());
            m.set(JAVA_BYTE, t + DLPackStructs.T_BITS, in.consumeBoolean() ? (byte) 32 : in.consumeByte());
            m.set(JAVA_SHORT, t + DLPackStructs.T_LANES, in.consumeBoolean() ? (short) 1 : in.consumeShort());
            m.set(ADDRESS, t + DLPackStructs.T_SHAPE, shapeSeg);
            m.set(ADDRESS, t + DLPackStructs.T_STRIDES, hasStrides ? strideSeg : MemorySegment.NULL);
            long byteOffset = in.consumeBoolean() ? in.consumeLong(0, 64) : in.consumeLong();
            m.set(JAVA_LONG, t + DLPackStructs.T_BYTE_OFFSET, byteOffset);

            try (Arena consumer = Arena.ofConfined()) {
                Array a;
                try {
                    a = versioned ? DLPack.importTensor(m, consumer) : DLPack.importLegacy(m, consumer);
                } catch (IllegalArgumentException refused) {
                    assertEquals(1, DELETED.get(), "a refused import calls the deleter once: " + refused.getMessage());
                    return;
                }
                assertArrayEquals(shape, a.shape().dimensions());
                assertEquals(0, DELETED.get(), "the deleter waits for the consumer's arena");
                long extent = a.segment().byteSize();
                if (a.shape().elementCount() > 0 && a.shape().elementCount() <= 1 << 16 && a.isHostAccessible()
                        && extent <= BUFFER) {
                    // the array lies inside the producer's buffer: every element can be read, and
                    // its data pointer is the producer's (zero copy)
                    assertEquals(data.address(), a.segment().address());
                    a.shape().forEachIndex(i -> a.getRawBits(i));
                }
            }
            assertEquals(1, DELETED.get(), "closing the consumer's arena calls the deleter exactly once");
        }
    }
}
