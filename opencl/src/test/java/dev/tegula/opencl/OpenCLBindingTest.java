package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The FFM binding of the OpenCL C API, call by call, on the device of S(1). */
@ExtendWith(RequiresOpenCL.class)
class OpenCLBindingTest {
    private final OpenCLDevice device = RequiresOpenCL.provider().device();

    @Test
    void platformsAndDevicesDescribeThemselves() {
        var all = OpenCLDevice.devices();
        assertFalse(all.isEmpty());
        DeviceInfo d = device.info();
        assertTrue(all.contains(d), all + " lists " + d);
        assertFalse(d.name().isEmpty());
        assertTrue(d.maxBufferSize() > 0 && d.maxBufferSize() <= d.globalMemorySize(), d.toString());
        assertTrue(d.version().startsWith("OpenCL "), d.version());
    }

    @Test
    void aDeviceIsChosenByIndexOrByPartOfItsNameAndAnUnknownOneIsRefusedListingTheDevices() {
        DeviceInfo d = device.info();
        try (OpenCLDevice byIndex = OpenCLDevice.open(Integer.toString(d.platformIndex()), Integer.toString(d.deviceIndex()));
             OpenCLDevice byName = OpenCLDevice.open(d.platformName().substring(0, 4).toUpperCase(), d.name().substring(0, 3))) {
            assertEquals(d, byIndex.info());
            assertEquals(d.name(), byName.info().name());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> OpenCLDevice.open(null, "no such device"));
        assertTrue(e.getMessage().contains("\"no such device\"") && e.getMessage().contains(d.name()), e.getMessage());
    }

    @Test
    void writesReadsAndCopiesOfWholeBuffersAndRectanglesRoundTrip() {
        try (Arena a = Arena.ofConfined()) {
            long m1 = CL.createBuffer(device.context, CL.CL_MEM_READ_WRITE, 64, MemorySegment.NULL);
            long m2 = CL.createBuffer(device.context, CL.CL_MEM_READ_WRITE, 64, MemorySegment.NULL);
            try {
                byte[] bytes = new byte[64];
                for (int i = 0; i < 64; i++) {
                    bytes[i] = (byte) (i * 3 + 1);
                }
                MemorySegment src = a.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
                await(CL.enqueueWrite(device.queue, m1, 0, src));
                await(CL.enqueueCopy(device.queue, m1, 8, m2, 0, 56));
                MemorySegment back = a.allocate(56);
                await(CL.enqueueRead(device.queue, m2, 0, back));
                assertEquals(-1, back.mismatch(src.asSlice(8)));

                // a 3 x 2 rectangle of bytes at (1, 2) of an 8-byte-pitch buffer, from a host 4-byte pitch
                MemorySegment rect = a.allocateFrom(ValueLayout.JAVA_BYTE, new byte[] {10, 11, 0, 0, 12, 13, 0, 0, 14, 15});
                await(CL.enqueueWriteRect(device.queue, m1, new long[] {1, 2, 0}, new long[] {0, 0, 0},
                        new long[] {2, 3, 1}, 8, 0, 4, 0, rect));
                MemorySegment whole = a.allocate(64);
                await(CL.enqueueRead(device.queue, m1, 0, whole));
                assertEquals(10, whole.get(ValueLayout.JAVA_BYTE, 2 * 8 + 1));
                assertEquals(13, whole.get(ValueLayout.JAVA_BYTE, 3 * 8 + 2));
                assertEquals(15, whole.get(ValueLayout.JAVA_BYTE, 4 * 8 + 2));
                assertEquals(bytes[4 * 8 + 3], whole.get(ValueLayout.JAVA_BYTE, 4 * 8 + 3));
                await(CL.enqueueCopyRect(device.queue, m1, m2, new long[] {1, 2, 0}, new long[] {0, 0, 0},
                        new long[] {2, 3, 1}, 8, 0, 2, 0));
                MemorySegment packed = a.allocate(6);
                await(CL.enqueueReadRect(device.queue, m2, new long[] {0, 0, 0}, new long[] {0, 0, 0},
                        new long[] {6, 1, 1}, 6, 0, 6, 0, packed));
                assertArrayEquals(new byte[] {10, 11, 12, 13, 14, 15}, packed.toArray(ValueLayout.JAVA_BYTE));
                assertEquals(64, CL.memLong(m1, CL.CL_MEM_SIZE));
                assertEquals(1, CL.referenceCount(m1));
            } finally {
                CL.releaseMem(m1);
                CL.releaseMem(m2);
            }
        }
    }

    @Test
    void aFailedCallNamesTheCallTheCodeAndWhatWasAsked() {
        OpenCLException e = assertThrows(OpenCLException.class,
                () -> CL.createBuffer(device.context, CL.CL_MEM_READ_WRITE, 0, MemorySegment.NULL));
        assertEquals("clCreateBuffer", e.call());
        assertEquals("CL_INVALID_BUFFER_SIZE", e.codeName());
        assertTrue(e.getMessage().startsWith("clCreateBuffer failed with CL_INVALID_BUFFER_SIZE (-61) for 0 bytes"),
                e.getMessage());
    }

    @Test
    void aKernelThatDoesNotBuildThrowsWithTheBuildLog() {
        OpenCLException e = assertThrows(OpenCLException.class,
                () -> device.kernel("__kernel void broken(__global float* x) { x[0] = undeclared_name; }", "broken"));
        assertEquals("clBuildProgram", e.call());
        assertEquals("CL_BUILD_PROGRAM_FAILURE", e.codeName());
        assertTrue(e.getMessage().contains("build log:") && e.getMessage().contains("undeclared_name"), e.getMessage());
    }

    private static void await(long event) {
        new EventCompletion(event, "a test command", null).await();
    }
}
