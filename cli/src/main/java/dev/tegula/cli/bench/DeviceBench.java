package dev.tegula.cli.bench;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.TerminalText;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.opencl.OpenCLMemory;
import dev.tegula.vector.DeviceRoute;
import dev.tegula.vector.Relayout;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * {@code tegula bench --device}: relayouts into and within OpenCL device memory against the plain
 * OpenCL copy of the same bytes: host to a tiled device layout ({@code Relayout.copy} on both
 * routes: the engine writing into the mapped buffer, and the bytes staged then relayouted by the
 * device) against {@code clEnqueueWriteBuffer}, the route the measurement chose, and a device
 * relayout kernel into the same tiled layout against {@code clEnqueueCopyBuffer}.
 */
final class DeviceBench {
    /** The tiled device layout of both cases. */
    static final String TILED = "{1,0:T(8,128)(2,1)S(%d)}";
    /** Columns of the bf16 matrices (rows follow from the size). */
    static final long COLUMNS = 4096;

    /** One timed case: what runs against what, and the two samples. */
    record Result(String name, String description, String baseline, long bytes, Timing.Sample device,
                  Timing.Sample copy) {
        double deviceGBs() {
            return bytes / device.median() / 1e9;
        }

        double copyGBs() {
            return bytes / copy.median() / 1e9;
        }

        double ratio() {
            return copy.median() / device.median();
        }
    }

    private DeviceBench() {
    }

    static void run(PrintWriter out, PrintWriter err, long cap, Timing.Plan plan, boolean onTerminal) {
        long space = Long.getLong(OpenCLMemory.MEMORY_SPACE_PROPERTY, 1);
        OpenCLMemory cl = OpenCLMemory.forMemorySpace(space);
        if (cl == null) {
            throw new BadInputException("--device: no OpenCL device serves S(" + space + "): "
                    + TerminalText.of(String.valueOf(new OpenCLMemory(space, null).unavailableReason())));
        }
        long bytes = Math.min(cap, 64L << 20);
        long rows = Math.max(8, bytes / (2 * COLUMNS) / 8 * 8);
        String dims = "bf16[" + rows + "," + COLUMNS + "]";
        ArrayShape hostRowMajor = ArrayShape.parse(dims + "{1,0}");
        ArrayShape deviceRowMajor = ArrayShape.parse(dims + "{1,0:S(" + space + ")}");
        ArrayShape deviceTiled = ArrayShape.parse(dims + TILED.formatted(space));
        long n = hostRowMajor.bufferSize();
        out.println("tegula bench --device: " + cl.device().info().label() + ", " + dims + " ("
                + ByteCounts.whole(n) + "); median of " + plan.repetitions() + " repetitions after "
                + plan.warmupNanos() / 1_000_000 + " ms of warmup");
        out.flush();
        List<Result> results = new ArrayList<>();
        ProgressBar bar = new ProgressBar(err, 3L * (plan.repetitions() + 1), onTerminal);
        String chosen;
        try (Arena arena = Arena.ofShared()) {
            Array host = Array.allocate(arena, hostRowMajor);
            for (long i = 0; i < host.shape().elementCount(); i++) {       // bf16 codes of small finite values
                host.segment().setAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, i, (short) (0x3F80 + i % 127));
            }
            Array devRowMajor = Array.allocate(arena, deviceRowMajor);
            Array devTiled = Array.allocate(arena, deviceTiled);
            Array devCopy = Array.allocate(arena, deviceRowMajor);
            host.copyTo(devRowMajor);

            IntConsumer first = step -> bar.step(step + 1, "host -> device");
            bar.step(0, "host -> device");
            Timing.Sample[] a = Timing.alternate(() -> Relayout.copy(host, devTiled, DeviceRoute.MAPPED),
                    () -> host.copyTo(devCopy), plan, first);
            results.add(new Result("host_to_device_T8x128_mapped", dims + "{1,0} -> " + TILED.formatted(space),
                    "clEnqueueWriteBuffer", n, a[0], a[1]));
            long staged = plan.repetitions() + 1;
            bar.step(staged, "host -> device, staged");
            Timing.Sample[] s = Timing.alternate(() -> Relayout.copy(host, devTiled, DeviceRoute.STAGED),
                    () -> host.copyTo(devCopy), plan, step -> bar.step(staged + step + 1, "host -> device, staged"));
            results.add(new Result("host_to_device_T8x128_staged", dims + "{1,0} -> " + TILED.formatted(space),
                    "clEnqueueWriteBuffer", n, s[0], s[1]));
            Optional<DeviceRoute> route = Optional.empty();
            for (int run = 0; run < 8 && route.isEmpty(); run++) {
                Relayout.copy(host, devTiled, DeviceRoute.MEASURE);
                route = Relayout.measuredDeviceRoute(host, devTiled);
            }
            chosen = route.map(r -> r.name().toLowerCase(Locale.ROOT)).orElse("still measuring")
                    + (n < (1L << 20) ? " (relayouts under 1 MiB are not measured)" : "");
            long base = 2L * (plan.repetitions() + 1);
            bar.step(base, "device -> device");
            Timing.Sample[] b = Timing.alternate(() -> Relayout.copy(devRowMajor, devTiled), () -> devRowMajor.copyTo(devCopy),
                    plan, step -> bar.step(base + step + 1, "device -> device"));
            results.add(new Result("device_to_device_T8x128", dims + "{1,0:S(" + space + ")} -> " + TILED.formatted(space),
                    "clEnqueueCopyBuffer", n, b[0], b[1]));
        } finally {
            bar.finish();
        }
        out.print(table(results));
        out.println();
        out.println("Relayout.copy host -> device chose by measuring its first runs: " + chosen + ".");
        out.println("device GB/s: bytes of the bf16 matrix per second (median); baseline: the OpenCL copy of the same bytes"
                + " in the same run; ratio: device / baseline.");
        out.println("Targets: host -> device tiled >= 0.8 x clEnqueueWriteBuffer; device -> device T(8,128)(2,1) >= 0.5 x"
                + " clEnqueueCopyBuffer. Indicative in-process timings; the relayout kernel's first run builds its program.");
        out.flush();
    }

    static String table(List<Result> results) {
        int nameW = "case".length();
        int descW = "relayout".length();
        for (Result r : results) {
            nameW = Math.max(nameW, r.name().length());
            descW = Math.max(descW, r.description().length());
        }
        String fmt = "%-" + nameW + "s  %-" + descW + "s  %9s  %11s  %-20s  %13s  %6s%n";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, fmt, "case", "relayout", "size", "device GB/s", "baseline", "baseline GB/s",
                "ratio"));
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, fmt, r.name(), r.description(), ByteCounts.whole(r.bytes()),
                    BenchCommand.number(r.deviceGBs()), r.baseline(), BenchCommand.number(r.copyGBs()),
                    BenchCommand.number(r.ratio())));
        }
        return sb.toString();
    }
}
