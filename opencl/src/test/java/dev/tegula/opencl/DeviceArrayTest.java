package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Arrays in S(1): OpenCL buffers owned by arenas, copied by enqueued commands, read through maps. */
@ExtendWith(RequiresOpenCL.class)
class DeviceArrayTest {
    private final OpenCLMemory cl = RequiresOpenCL.provider();

    @Test
    void anArrayInS1IsAnOpenCLBufferReleasedOnceWhenItsArenaCloses() {
        long mem;
        Array dev;
        long live = cl.liveBuffers();
        try (Arena a = Arena.ofConfined()) {
            dev = Array.allocate(a, ArrayShape.parse("f32[16,32]{1,0:S(1)}"));
            assertInstanceOf(OpenCLMemory.class, dev.memorySpaceProvider());
            assertFalse(dev.isHostAccessible());
            mem = dev.deviceBuffer().handle();
            assertEquals(16 * 32 * 4, CL.memLong(mem, CL.CL_MEM_SIZE));
            assertEquals(1, CL.referenceCount(mem));
            CL.retainMem(mem);                       // the test's own reference keeps the object readable
            assertEquals(2, CL.referenceCount(mem));
            assertEquals(live + 1, cl.liveBuffers());
        }
        try {
            assertEquals(1, CL.referenceCount(mem), "closing the arena released the buffer once");
            assertEquals(live, cl.liveBuffers());
        } finally {
            CL.releaseMem(mem);
        }
    }

    @Test
    void mappingsStillOpenWhenTheArenaClosesAreUnmappedBeforeTheBufferIsReleased() {
        long mem;
        MappedArray whole;
        MappedArray part;
        try (Arena a = Arena.ofConfined()) {
            Array dev = Array.allocate(a, ArrayShape.parse("f32[16,32]{1,0:S(1)}"));
            mem = dev.deviceBuffer().handle();
            CL.retainMem(mem);                       // the test's own reference keeps the object readable
            whole = dev.map(MapMode.READ_WRITE);
            part = dev.slice(0, 8, 16).map(MapMode.READ);
            whole.array().setFloat(0, 0, 1.5f);
            assertEquals(2, CL.memLong(mem, CL.CL_MEM_MAP_COUNT), "two mappings open");
            try (MappedArray closedByItsOwner = dev.map(MapMode.READ)) {
                assertEquals(1.5f, closedByItsOwner.array().getFloat(0, 0));
            }
        }
        try {
            assertEquals(0, CL.memLong(mem, CL.CL_MEM_MAP_COUNT), "closing the arena unmapped both");
            assertEquals(1, CL.referenceCount(mem), "and then released the buffer");
            assertThrows(IllegalStateException.class, () -> whole.array().getFloat(0, 0));
            assertThrows(IllegalStateException.class, () -> part.array().getFloat(0, 0));
            whole.close();                           // nothing left to unmap: no error, nothing enqueued
            part.close();
        } finally {
            CL.releaseMem(mem);
        }
    }

    @Test
    void useAfterTheArenaClosedFailsAsForAHostArray() {
        Array dev;
        Array host;
        try (Arena a = Arena.ofConfined()) {
            dev = Array.allocate(a, ArrayShape.parse("bf16[8,128]{1,0:T(8,128)(2,1)S(1)}"));
            host = Array.allocate(a, ArrayShape.parse("bf16[8,128]{1,0:T(8,128)(2,1)}"));
        }
        String hostMessage = assertThrows(IllegalStateException.class, () -> host.getFloat(0, 0)).getMessage();
        try (Arena b = Arena.ofConfined()) {
            Array target = Array.allocate(b, host.shape());
            IllegalStateException copy = assertThrows(IllegalStateException.class, () -> dev.copyTo(target));
            IllegalStateException map = assertThrows(IllegalStateException.class, () -> dev.map(MapMode.READ));
            for (String m : new String[] {hostMessage, copy.getMessage(), map.getMessage()}) {
                assertTrue(m.startsWith("Already closed"), m);
            }
        }
    }

    @Test
    void elementAccessOnAnUnmappedDeviceArrayPointsToMapAndRelayout() {
        try (Arena a = Arena.ofConfined()) {
            Array dev = Array.allocate(a, ArrayShape.parse("f32[4,4]{1,0:S(1)}"));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> dev.getFloat(1, 1));
            assertTrue(e.getMessage().contains("Array.map") && e.getMessage().contains("Relayout.copy")
                    && e.getMessage().contains("S(1)"), e.getMessage());
            assertThrows(IllegalStateException.class, dev::toFloatArray);
        }
    }

    @Test
    void aShapeTooBigForTheDeviceIsRefusedNamingTheShapeAndTheLimitWithNothingAllocated() {
        long limit = cl.device().info().maxBufferSize();
        long live = cl.liveBuffers();
        try (Arena a = Arena.ofConfined()) {
            long rows = limit / 4096 + 1;
            ArrayShape huge = ArrayShape.parse("f32[" + rows + ",1024]{1,0:S(1)}");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Array.allocate(a, huge));
            assertTrue(e.getMessage().contains(huge.toString()) && e.getMessage().contains(Long.toString(limit))
                    && e.getMessage().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), e.getMessage());
            assertEquals(live, cl.liveBuffers());
        }
    }

    @Test
    void copiesBetweenHostAndDeviceAreOneEnqueuedTransferOfTheBufferEach() {
        try (Arena a = Arena.ofConfined()) {
            Array host = Array.allocate(a, ArrayShape.parse("f32[3,5]{0,1:T(2,2)}"));
            float[] v = new float[15];
            for (int i = 0; i < v.length; i++) {
                v[i] = i * 1.5f - 4;
            }
            host.copyFrom(v);
            Array dev = Array.allocate(a, ArrayShape.parse("f32[3,5]{0,1:T(2,2)S(1)}"));
            OpenCLMemory.Transfers before = cl.transfers();
            host.copyTo(dev);
            Array back = Array.allocate(a, host.shape());
            dev.copyTo(back);
            OpenCLMemory.Transfers t = cl.transfers().since(before);
            assertEquals(1, t.writes());
            assertEquals(1, t.reads());
            assertEquals(2 * host.shape().bufferSize(), t.bytes());
            assertEquals(0, t.maps());
            assertTrue(back.contentEquals(host));
            Array dev2 = Array.allocate(a, dev.shape());
            dev.copyTo(dev2);
            try (MappedArray m = dev2.map(MapMode.READ)) {
                assertTrue(m.array().contentEquals(host));
                assertEquals(dev.shape(), m.array().shape());
            }
        }
    }

    @Test
    void aMappedDeviceArrayIsWrittenInPlaceAndTheWritesAreTheDevicesAfterClose() {
        try (Arena a = Arena.ofConfined()) {
            Array dev = Array.allocate(a, ArrayShape.parse("s32[6,7]{1,0:S(1)}"));
            try (MappedArray m = dev.map(MapMode.READ_WRITE)) {
                assertEquals(0, m.array().getInt(5, 6), "allocation zeroes the buffer");
                m.array().setInt(5, 6, 42);
                m.array().setInt(0, 1, -7);
            }
            Array host = Array.allocate(a, ArrayShape.parse("s32[6,7]"));
            dev.copyTo(host);
            assertEquals(42, host.getInt(5, 6));
            assertEquals(-7, host.getInt(0, 1));
            Array view;
            try (MappedArray m = dev.map(MapMode.READ)) {
                view = m.array();
                assertSame(dev, m.source());
            }
            assertThrows(IllegalStateException.class, () -> view.getInt(0, 0), "the host view closes with the mapping");
        }
    }
}
