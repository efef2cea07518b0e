package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Device relayouts: programs built once and kept, and the pairs without a kernel relayouted through mappings. */
@ExtendWith(RequiresOpenCL.class)
class DeviceRelayoutTest {
    private final OpenCLMemory cl = RequiresOpenCL.provider();

    private static Array filled(Arena a, String shape) {
        Array h = Array.allocate(a, ArrayShape.parse(shape));
        float[] v = new float[(int) h.shape().elementCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 251) * 0.25f - 7;
        }
        h.copyFrom(v);
        return h;
    }

    @Test
    void aSecondRelayoutOfThePairBuildsNothingAndUploadsNothing() {
        try (Arena a = Arena.ofConfined()) {
            Array host = filled(a, "bf16[16,256]{1,0}");
            Array src = Array.allocate(a, ArrayShape.parse("bf16[16,256]{1,0:S(1)}"));
            host.copyTo(src);
            Array dst = Array.allocate(a, ArrayShape.parse("bf16[16,256]{1,0:T(8,128)(2,1)S(1)}"));
            Relayout.copy(src, dst);
            int programs = cl.device().programCount();
            int pairs = cl.relayoutPairs();
            OpenCLMemory.Transfers before = cl.transfers();
            Relayout.copy(src, dst);
            OpenCLMemory.Transfers t = cl.transfers().since(before);
            assertEquals(programs, cl.device().programCount());
            assertEquals(pairs, cl.relayoutPairs());
            assertEquals(1, t.relayoutKernels());
            assertEquals(0, t.bytes() + t.maps(), "a device relayout moves nothing through the host: " + t);
            Array expected = Relayout.to(host, dev.tegula.core.Layout.parse("{1,0:T(8,128)(2,1)}"), a);
            try (MappedArray m = dst.map(MapMode.READ)) {
                assertEquals(-1, expected.byteSpan().mismatch(m.array().byteSpan()));
            }
        }
    }

    @Test
    void aPairWithoutAKernelIsRelayoutedThroughMappings() {
        try (Arena a = Arena.ofConfined()) {
            Array host = filled(a, "f32[5,33]{1,0}");
            Array src = Array.allocate(a, ArrayShape.parse("f32[5,33]{1,0:S(1)}"));
            host.copyTo(src);
            Array dst = Array.allocate(a, ArrayShape.parse("bf16[5,33]{0,1:T(8,128)(2,1)S(1)}"));   // a narrowing
            OpenCLMemory.Transfers before = cl.transfers();
            Relayout.copy(src, dst);
            OpenCLMemory.Transfers t = cl.transfers().since(before);
            assertEquals(0, t.relayoutKernels());
            assertEquals(2, t.maps());
            Array expected = Relayout.to(host, ArrayShape.parse("bf16[5,33]{0,1:T(8,128)(2,1)}"), a);
            try (MappedArray m = dst.map(MapMode.READ)) {
                assertTrue(expected.contentEquals(m.array()));
                assertEquals(-1, expected.byteSpan().mismatch(m.array().byteSpan()));
            }
        }
    }
}
