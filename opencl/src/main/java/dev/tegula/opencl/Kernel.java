package dev.tegula.opencl;

import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.DeviceBuffer;

/**
 * A kernel of a program built for an {@link OpenCLDevice} ({@link OpenCLDevice#kernel}): set its
 * arguments and enqueue it over a one-dimensional range in one call, {@link #run}. Thread-safe: runs
 * from many threads are serialised on the kernel (its arguments are the kernel's state). The
 * kernel lives as long as its device.
 */
public final class Kernel {
    private final OpenCLDevice device;
    private final long handle;
    private final String name;

    Kernel(OpenCLDevice device, long handle, String name) {
        this.device = device;
        this.handle = handle;
        this.name = name;
    }

    /** {@return the kernel function's name} */
    public String name() {
        return name;
    }

    long handle() {
        return handle;
    }

    /**
     * Enqueues the kernel over {@code globalSize} work items (ids {@code 0 .. globalSize-1}) with these
     * arguments, in order: an {@link Array} or a {@link DeviceBuffer} of this device (a
     * {@code global} pointer to the start of the buffer; arrays must start at byte 0 of their buffer),
     * an {@link Integer} ({@code int}), a {@link Long} ({@code long}/{@code ulong}) or a {@link Float}.
     *
     * @return the completion of the run: await it before the host reads what the kernel wrote
     * @throws IllegalArgumentException if an argument is of another kind, another device's memory,
     *                                  or an array that starts inside its buffer
     * @throws IllegalStateException    if an array's arena is closed
     * @throws OpenCLException          if OpenCL refuses the arguments or the range
     */
    public Completion run(long globalSize, Object... args) {
        if (globalSize < 0) {
            throw new IllegalArgumentException("globalSize: " + globalSize + " is negative");
        }
        synchronized (this) {
            for (int i = 0; i < args.length; i++) {
                Object a = args[i];
                switch (a) {
                    case Array arr -> CL.setKernelArgMem(handle, i, memOf(arr.deviceBuffer(), i));
                    case DeviceBuffer b -> CL.setKernelArgMem(handle, i, memOf(b, i));
                    case Integer v -> CL.setKernelArgInt(handle, i, v);
                    case Long v -> CL.setKernelArgLong(handle, i, v);
                    case Float v -> CL.setKernelArgFloat(handle, i, v);
                    case null, default -> throw new IllegalArgumentException("args[" + i + "]: " + a
                            + " is not an Array, DeviceBuffer, Integer, Long or Float");
                }
            }
            if (globalSize == 0) {
                return Completion.DONE;
            }
            long ev = CL.enqueueKernel(device.queue, handle, globalSize, name);
            return new EventCompletion(ev, "kernel " + name + " over " + globalSize + " work items", null);
        }
    }

    private long memOf(DeviceBuffer b, int i) {
        b.checkAccess();
        if (!(b.provider() instanceof OpenCLMemory m) || m.deviceIfOpen() != device) {
            throw new IllegalArgumentException("args[" + i + "]: " + b + " is not memory of " + device.info().label());
        }
        if (b.byteOffset() != 0) {
            throw new IllegalArgumentException("args[" + i + "]: " + b + " starts at byte " + b.byteOffset()
                    + " of its buffer; pass the whole buffer and the offset as an argument");
        }
        return b.handle();
    }
}
