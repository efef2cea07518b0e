package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Zero copy, shown by writes: a kernel's writes appear in a host view with no copy call, the host's
 * writes reach a kernel the same way, and the provider's transfer count stays at zero bytes.
 */
@ExtendWith(RequiresOpenCL.class)
class ZeroCopyTest {
    static final String SCALE = """
            __kernel void scale(__global const float* src, __global float* dst, float factor) {
                size_t i = get_global_id(0);
                dst[i] = src[i] * factor + (float) i;
            }
            """;

    private final OpenCLMemory cl = RequiresOpenCL.provider();

    @Test
    void aKernelsWritesIntoAHostArraySharedWithTheDeviceAppearInItWithNoCopy() {
        try (Arena a = Arena.ofConfined()) {
            Array host = Array.allocate(a, ArrayShape.parse("f32[4,16]"));
            Array input = Array.allocate(a, ArrayShape.parse("f32[4,16]"));
            float[] v = new float[64];
            for (int i = 0; i < v.length; i++) {
                v[i] = i - 20;
            }
            input.copyFrom(v);
            Array devOut = host.asDeviceArray(1, a);
            Array devIn = input.asDeviceArray(1, a);
            assertEquals(ArrayShape.parse("f32[4,16]{1,0:S(1)}"), devOut.shape());
            OpenCLMemory.Transfers before = cl.transfers();
            cl.device().kernel(SCALE, "scale").run(64, devIn, devOut, 2f).await();
            try (MappedArray m = devOut.map(MapMode.READ)) {
                if (cl.device().info().hostUnifiedMemory()) {
                    assertEquals(host.segment().address(), m.array().segment().address(), "the mapping is the host memory");
                }
            }
            for (int i = 0; i < 64; i++) {
                assertEquals(v[i] * 2 + i, host.getFloat(i / 16, i % 16), "element " + i + " read from the host array");
            }
            OpenCLMemory.Transfers t = cl.transfers().since(before);
            assertEquals(0, t.bytes(), "no copy moved a byte: " + t);
        }
    }

    @Test
    void theHostsWritesIntoAMappedDeviceBufferReachAKernelWithNoCopy() {
        try (Arena a = Arena.ofConfined()) {
            Array in = Array.allocate(a, ArrayShape.parse("f32[32]{0:S(1)}"));
            Array out = Array.allocate(a, ArrayShape.parse("f32[32]{0:S(1)}"));
            OpenCLMemory.Transfers before = cl.transfers();
            try (MappedArray m = in.map(MapMode.WRITE)) {
                for (int i = 0; i < 32; i++) {
                    m.array().setFloat(i, 0.5f * i);
                }
            }
            cl.device().kernel(SCALE, "scale").run(32, in, out, -4f).await();
            try (MappedArray m = out.map(MapMode.READ)) {
                for (int i = 0; i < 32; i++) {
                    assertEquals(-2f * i + i, m.array().getFloat(i));
                }
            }
            OpenCLMemory.Transfers t = cl.transfers().since(before);
            assertEquals(0, t.bytes(), "no copy moved a byte: " + t);
            assertEquals(2, t.maps());
            assertEquals(0, t.writes() + t.reads() + t.copies());
        }
    }

    @Test
    void aMappedBufferOfADeviceThatSharesHostMemoryIsTheBufferItself() {
        try (Arena a = Arena.ofConfined()) {
            Array dev = Array.allocate(a, ArrayShape.parse("f32[64]{0:S(1)}"));
            long first;
            try (MappedArray m = dev.map(MapMode.READ_WRITE)) {
                first = m.array().segment().address();
                m.array().setFloat(3, 9f);
            }
            try (MappedArray m = dev.map(MapMode.READ)) {
                assertEquals(9f, m.array().getFloat(3));
                if (cl.device().info().hostUnifiedMemory()) {
                    assertEquals(first, m.array().segment().address(), "both maps are the same memory");
                }
                assertTrue(m.array().isHostAccessible());
            }
        }
    }
}
