package dev.tegula.cli.commands;

import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.TerminalText;
import dev.tegula.cli.VersionProvider;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.opencl.DeviceInfo;
import dev.tegula.opencl.OpenCLDevice;
import dev.tegula.opencl.OpenCLMemory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tegula devices}: the OpenCL platforms and devices, their memory, and the memory space each serves. */
@Command(name = "devices",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"List the OpenCL devices, their memory and the memory space each serves.",
                "For each platform and device: its type, compute units, global memory, the largest buffer, whether"
                        + " it shares memory with the host, and the memory space S(n) it serves.",
                "S(1) is served by the device that -Dtegula.opencl.platform and -Dtegula.opencl.device choose (an"
                        + " index or a part of the name; by default the first GPU, else the first device);"
                        + " -Dtegula.opencl.memorySpace=N serves S(N) instead. Without OpenCL every S(n) is host memory."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success (also when there is no OpenCL: the reason is printed)", "1:internal error"})
public final class DevicesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String missing = OpenCLDevice.unavailableReason();
        long space = Long.getLong(OpenCLMemory.MEMORY_SPACE_PROPERTY, 1);
        if (missing != null) {
            out.println("no OpenCL: " + TerminalText.of(missing));
            out.println("every memory space, S(" + space + ") included, is host memory");
            out.flush();
            return ExitStatus.OK;
        }
        List<DeviceInfo> devices = OpenCLDevice.devices();
        OpenCLMemory served = OpenCLMemory.forMemorySpace(space);
        DeviceInfo chosen = served == null ? null : served.device().info();
        int platform = -1;
        for (DeviceInfo d : devices) {
            if (d.platformIndex() != platform) {
                platform = d.platformIndex();
                out.println("platform " + platform + ": " + TerminalText.of(d.platformName()) + " ("
                        + TerminalText.of(d.platformVersion()) + ")");
            }
            out.println("  device " + d.deviceIndex() + ": " + TerminalText.of(d.name()) + " (" + d.type() + ", "
                    + TerminalText.of(d.version()) + ")");
            out.println("    compute units " + d.computeUnits() + ", global memory " + ByteCounts.whole(d.globalMemorySize())
                    + ", largest buffer " + ByteCounts.whole(d.maxBufferSize())
                    + (d.hostUnifiedMemory() ? ", shares memory with the host" : ", memory of its own"));
            out.println("    serves " + (d.equals(chosen) ? "S(" + space + ")" : "no memory space"));
        }
        if (devices.isEmpty()) {
            out.println("no OpenCL platform or device");
        }
        if (chosen == null) {
            out.println("S(" + space + ") is host memory: " + (devices.isEmpty() ? "no device"
                    : TerminalText.of(String.valueOf(new OpenCLMemory(space, null).unavailableReason()))));
        }
        out.flush();
        return ExitStatus.OK;
    }
}
