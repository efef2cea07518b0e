package dev.tegula.cli.commands;

import static dev.tegula.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.cli.MainTest;
import dev.tegula.opencl.DeviceInfo;
import dev.tegula.opencl.OpenCLDevice;
import dev.tegula.opencl.OpenCLMemory;
import org.junit.jupiter.api.Test;

/** {@code tegula devices}: each OpenCL device with its memory and the memory space it serves, or why there is none. */
class DevicesCommandTest {

    @Test
    void listsEveryDeviceWithItsMemoryAndTheOneThatServesS1() {
        MainTest.Result r = run("devices");
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        if (OpenCLDevice.unavailableReason() != null) {
            assertTrue(out.startsWith("no OpenCL: ") && out.contains("is host memory"), out);
            return;
        }
        OpenCLMemory served = OpenCLMemory.forMemorySpace(1);
        for (DeviceInfo d : OpenCLDevice.devices()) {
            assertTrue(out.contains("platform " + d.platformIndex() + ": " + d.platformName()), out);
            assertTrue(out.contains("  device " + d.deviceIndex() + ": " + d.name() + " (" + d.type()), out);
            assertTrue(out.contains("compute units " + d.computeUnits() + ", global memory "), out);
        }
        if (served != null) {
            String line = "  device " + served.device().info().deviceIndex() + ": " + served.device().info().name();
            int at = out.indexOf(line);
            assertTrue(at >= 0 && out.indexOf("serves S(1)", at) > at, out);
            assertEquals(1, out.split("serves S\\(1\\)", -1).length - 1, out);
        }
    }
}
