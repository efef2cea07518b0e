package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MemorySpaces;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/** Without a device (here: a device selector that matches none, or no OpenCL library at all) the memory space is host memory. */
class NoDeviceTest {

    @Test
    void withoutADeviceTheMemorySpaceIsHostMemoryAndTheReasonIsLoggedOnceInOneLine() {
        String old = System.getProperty(OpenCLDevice.DEVICE_PROPERTY);
        System.setProperty(OpenCLDevice.DEVICE_PROPERTY, "no device has this name");
        OpenCLMemory none = new OpenCLMemory(9, null);
        MemorySpaces.register(none);
        try (Arena a = Arena.ofConfined()) {
            assertFalse(none.handles(9));
            assertFalse(none.handles(9));
            Array x = Array.allocate(a, ArrayShape.parse("f32[2,3]{1,0:S(9)}"));
            assertTrue(x.isHostAccessible());
            assertSame(MemorySpaces.host(), x.memorySpaceProvider());
            x.setFloat(1, 2, 4f);
            assertEquals(4f, x.getFloat(1, 2));
            assertEquals(1, none.linesLogged.get(), "logged once");
            String line = none.loggedLine;
            assertFalse(line.contains("\n"), line);
            assertTrue(line.startsWith("S(9) is host memory: no OpenCL device"), line);
            assertNotNull(none.unavailableReason());
            IllegalStateException e = assertThrows(IllegalStateException.class, none::device);
            assertTrue(e.getMessage().contains("S(9)"), e.getMessage());
        } finally {
            MemorySpaces.unregister(none);
            if (old == null) {
                System.clearProperty(OpenCLDevice.DEVICE_PROPERTY);
            } else {
                System.setProperty(OpenCLDevice.DEVICE_PROPERTY, old);
            }
        }
    }
}
