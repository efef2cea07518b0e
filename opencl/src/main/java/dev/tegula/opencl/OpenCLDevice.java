package dev.tegula.opencl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One OpenCL device opened for Tegula: its context and one in-order command queue, on which every
 * copy, map, unmap and kernel of {@link OpenCLMemory} is enqueued, and the programs built for it
 * (cached by source text: a program is built once per device).
 *
 * <p><b>Choosing a device.</b> {@link #open(String, String)} takes a platform and a device selector:
 * a number is an index (platforms in {@code clGetPlatformIDs} order, devices in their platform's
 * order), anything else a case-insensitive part of the name; null means "any". Without a device
 * selector the first GPU is chosen, else the first device. {@link #PLATFORM_PROPERTY} and
 * {@link #DEVICE_PROPERTY} are the system properties {@link OpenCLMemory} reads.
 *
 * <p>Thread-safe: the OpenCL API allows enqueueing on one queue from many threads. A device is open
 * until {@link #close()}; the one of {@link OpenCLMemory} lives as long as the JVM.
 */
public final class OpenCLDevice implements AutoCloseable {
    /** The system property that chooses the platform: an index or a part of its name. */
    public static final String PLATFORM_PROPERTY = "tegula.opencl.platform";
    /** The system property that chooses the device: an index or a part of its name. */
    public static final String DEVICE_PROPERTY = "tegula.opencl.device";

    final long platform;
    final long device;
    final long context;
    final long queue;
    private final DeviceInfo info;
    private final Map<String, Long> programs = new ConcurrentHashMap<>();
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private OpenCLDevice(long platform, long device, DeviceInfo info) {
        this.platform = platform;
        this.device = device;
        this.info = info;
        this.context = CL.createContext(device);
        long q;
        try {
            q = CL.createQueue(context, device);
        } catch (RuntimeException e) {
            CL.releaseContext(context);
            throw e;
        }
        this.queue = q;
    }

    /** {@return null if the OpenCL library ({@code libOpenCL.so.1}) loads with every function Tegula uses, else why not} */
    public static String unavailableReason() {
        return CL.unavailableReason();
    }

    /**
     * {@return every device of every platform, in platform and device order}
     *
     * @throws IllegalStateException if the OpenCL library is not available
     * @throws OpenCLException       if a query fails
     */
    public static List<DeviceInfo> devices() {
        List<DeviceInfo> all = new ArrayList<>();
        long[] platforms = CL.platformIds();
        for (int p = 0; p < platforms.length; p++) {
            long[] ds = CL.deviceIds(platforms[p], CL.CL_DEVICE_TYPE_ALL);
            for (int d = 0; d < ds.length; d++) {
                all.add(DeviceInfo.of(p, platforms[p], d, ds[d]));
            }
        }
        return all;
    }

    /**
     * {@return the device the two selectors choose, opened: a context and a queue}
     *
     * @param platformSelector an index, a part of the platform's name, or null for any platform
     * @param deviceSelector   an index, a part of the device's name, or null for the first GPU, else the first device
     * @throws IllegalStateException if OpenCL is not available or no device matches (the message lists the devices)
     * @throws OpenCLException       if the context or the queue cannot be made
     */
    public static OpenCLDevice open(String platformSelector, String deviceSelector) {
        long[] platforms = CL.platformIds();
        List<long[]> candidates = new ArrayList<>();     // {platformIndex, platform, deviceIndex, device, isGpu}
        for (int p = 0; p < platforms.length; p++) {
            if (!matches(platformSelector, p, CL.platformInfo(platforms[p], CL.CL_PLATFORM_NAME))) {
                continue;
            }
            long[] ds = CL.deviceIds(platforms[p], CL.CL_DEVICE_TYPE_ALL);
            for (int d = 0; d < ds.length; d++) {
                if (matches(deviceSelector, d, CL.deviceString(ds[d], CL.CL_DEVICE_NAME))) {
                    long gpu = (CL.deviceLong(ds[d], CL.CL_DEVICE_TYPE) & CL.CL_DEVICE_TYPE_GPU) != 0 ? 1 : 0;
                    candidates.add(new long[] {p, platforms[p], d, ds[d], gpu});
                }
            }
        }
        long[] chosen = null;
        for (long[] c : candidates) {
            if (c[4] == 1 && deviceSelector == null) {
                chosen = c;
                break;
            }
        }
        if (chosen == null && !candidates.isEmpty()) {
            chosen = candidates.getFirst();
        }
        if (chosen == null) {
            throw new IllegalStateException("no OpenCL device matches platform " + describe(platformSelector)
                    + " and device " + describe(deviceSelector) + "; the devices: "
                    + (platforms.length == 0 ? "none (no platform)" : devices().stream().map(DeviceInfo::label).toList()));
        }
        DeviceInfo info = DeviceInfo.of((int) chosen[0], chosen[1], (int) chosen[2], chosen[3]);
        return new OpenCLDevice(chosen[1], chosen[3], info);
    }

    /** {@return the device that {@link #PLATFORM_PROPERTY} and {@link #DEVICE_PROPERTY} choose, opened} As {@link #open(String, String)}. */
    public static OpenCLDevice openConfigured() {
        return open(blankToNull(System.getProperty(PLATFORM_PROPERTY)), blankToNull(System.getProperty(DEVICE_PROPERTY)));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String describe(String selector) {
        return selector == null ? "(any)" : "\"" + selector + "\"";
    }

    private static boolean matches(String selector, int index, String name) {
        if (selector == null) {
            return true;
        }
        try {
            return Integer.parseInt(selector) == index;
        } catch (NumberFormatException e) {
            return name.toLowerCase(Locale.ROOT).contains(selector.toLowerCase(Locale.ROOT));
        }
    }

    /** {@return what the device says about itself} */
    public DeviceInfo info() {
        return info;
    }

    /**
     * {@return the kernel {@code name} of the program {@code source}, built for this device with
     * {@code -cl-std=CL1.2} once per source text and kept until the device closes}
     *
     * @throws OpenCLException if the build fails (the message holds the build log and the source) or
     *                         the program has no such kernel
     */
    public Kernel kernel(String source, String name) {
        checkOpen();
        return kernels.computeIfAbsent(name + "\u0000" + source, k -> {
            long program = programs.computeIfAbsent(source, s -> CL.buildProgram(context, device, s, "-cl-std=CL1.2"));
            return new Kernel(this, CL.createKernel(program, name), name);
        });
    }

    /** {@return how many programs have been built for this device} */
    public int programCount() {
        return programs.size();
    }

    /** Waits until every command enqueued so far has completed ({@code clFinish}). */
    public void finish() {
        checkOpen();
        CL.finish(queue);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the OpenCL device " + info.label() + " is closed");
        }
    }

    /** Finishes the queue and releases the kernels, programs, queue and context. Buffers must be released first. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        CL.finish(queue);
        kernels.values().forEach(k -> CL.releaseKernel(k.handle()));
        programs.values().forEach(CL::releaseProgram);
        CL.releaseQueue(queue);
        CL.releaseContext(context);
    }

    @Override
    public String toString() {
        return info.label();
    }
}
