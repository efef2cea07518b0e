package dev.tegula.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The OpenCL C API calls Tegula uses, bound by hand through the FFM API to {@code libOpenCL.so.1}
 * (the ICD loader). Handles ({@code cl_platform_id}, {@code cl_mem}, {@code cl_event}, ...) are
 * passed as {@code long}s; {@code size_t} is 64 bits (the only ABIs the FFM linker here serves).
 * Every call checks its error code and throws {@link OpenCLException} naming the call, the code's
 * name and the arguments asked for. Thread-safe as the OpenCL API is (every call but
 * {@code clSetKernelArg} on one kernel from many threads).
 */
final class CL {
    /** The system property naming the OpenCL library to load instead of {@code libOpenCL.so.1} (a path or a name). */
    static final String LIBRARY_PROPERTY = "tegula.opencl.library";
    /** The library (the ICD loader): {@code libOpenCL.so.1} as Debian's {@code ocl-icd-libopencl1} installs it, or the property's. */
    static final String LIBRARY = System.getProperty(LIBRARY_PROPERTY, "libOpenCL.so.1");

    static final long CL_DEVICE_TYPE_CPU = 1 << 1;
    static final long CL_DEVICE_TYPE_GPU = 1 << 2;
    static final long CL_DEVICE_TYPE_ACCELERATOR = 1 << 3;
    static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;

    static final int CL_PLATFORM_VERSION = 0x0901;
    static final int CL_PLATFORM_NAME = 0x0902;
    static final int CL_PLATFORM_VENDOR = 0x0903;

    static final int CL_DEVICE_TYPE = 0x1000;
    static final int CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    static final int CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
    static final int CL_DEVICE_MEM_BASE_ADDR_ALIGN = 0x1019;
    static final int CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    static final int CL_DEVICE_NAME = 0x102B;
    static final int CL_DEVICE_VENDOR = 0x102C;
    static final int CL_DRIVER_VERSION = 0x102D;
    static final int CL_DEVICE_VERSION = 0x102F;
    static final int CL_DEVICE_HOST_UNIFIED_MEMORY = 0x1035;

    static final long CL_MEM_READ_WRITE = 1;
    static final long CL_MEM_READ_ONLY = 1 << 2;
    static final long CL_MEM_USE_HOST_PTR = 1 << 3;
    static final long CL_MEM_COPY_HOST_PTR = 1 << 5;
    static final long CL_MEM_ALLOC_HOST_PTR = 1 << 4;

    static final long CL_MAP_READ = 1;
    static final long CL_MAP_WRITE = 1 << 1;
    static final long CL_MAP_WRITE_INVALIDATE_REGION = 1 << 2;

    static final int CL_MEM_SIZE = 0x1102;
    static final int CL_MEM_HOST_PTR = 0x1103;
    static final int CL_MEM_MAP_COUNT = 0x1104;
    static final int CL_MEM_REFERENCE_COUNT = 0x1105;

    static final int CL_PROGRAM_BUILD_LOG = 0x1183;

    static final int CL_SUCCESS = 0;
    static final int CL_BUILD_PROGRAM_FAILURE = -11;

    private CL() {
    }

    /** The bound functions, looked up when first used; {@link #FAILURE} says why they are not there. */
    private static final class Lib {
        static final Throwable FAILURE;
        static final MethodHandle clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo,
                clCreateContext, clCreateCommandQueueWithProperties, clCreateBuffer,
                clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer,
                clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect,
                clEnqueueMapBuffer, clEnqueueUnmapMemObject,
                clCreateProgramWithSource, clBuildProgram, clGetProgramBuildInfo,
                clCreateKernel, clSetKernelArg, clEnqueueNDRangeKernel,
                clWaitForEvents, clReleaseEvent, clGetMemObjectInfo,
                clRetainMemObject, clReleaseMemObject, clReleaseKernel, clReleaseProgram, clReleaseCommandQueue, clReleaseContext,
                clFinish;

        static {
            MethodHandle[] h = new MethodHandle[31];
            Throwable failure = null;
            try {
                SymbolLookup lib = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
                Binder b = new Binder(lib);
                MemoryLayout P = ADDRESS, I = JAVA_INT, L = JAVA_LONG;
                int k = 0;
                h[k++] = b.bind("clGetPlatformIDs", I, I, P, P);
                h[k++] = b.bind("clGetPlatformInfo", I, P, I, L, P, P);
                h[k++] = b.bind("clGetDeviceIDs", I, P, L, I, P, P);
                h[k++] = b.bind("clGetDeviceInfo", I, P, I, L, P, P);
                h[k++] = b.bind("clCreateContext", P, P, I, P, P, P, P);
                h[k++] = b.bind("clCreateCommandQueueWithProperties", P, P, P, P, P);
                h[k++] = b.bind("clCreateBuffer", P, P, L, L, P, P);
                h[k++] = b.bind("clEnqueueReadBuffer", I, P, P, I, L, L, P, I, P, P);
                h[k++] = b.bind("clEnqueueWriteBuffer", I, P, P, I, L, L, P, I, P, P);
                h[k++] = b.bind("clEnqueueCopyBuffer", I, P, P, P, L, L, L, I, P, P);
                h[k++] = b.bind("clEnqueueReadBufferRect", I, P, P, I, P, P, P, L, L, L, L, P, I, P, P);
                h[k++] = b.bind("clEnqueueWriteBufferRect", I, P, P, I, P, P, P, L, L, L, L, P, I, P, P);
                h[k++] = b.bind("clEnqueueCopyBufferRect", I, P, P, P, P, P, P, L, L, L, L, I, P, P);
                h[k++] = b.bind("clEnqueueMapBuffer", P, P, P, I, L, L, L, I, P, P, P);
                h[k++] = b.bind("clEnqueueUnmapMemObject", I, P, P, P, I, P, P);
                h[k++] = b.bind("clCreateProgramWithSource", P, P, I, P, P, P);
                h[k++] = b.bind("clBuildProgram", I, P, I, P, P, P, P);
                h[k++] = b.bind("clGetProgramBuildInfo", I, P, P, I, L, P, P);
                h[k++] = b.bind("clCreateKernel", P, P, P, P);
                h[k++] = b.bind("clSetKernelArg", I, P, I, L, P);
                h[k++] = b.bind("clEnqueueNDRangeKernel", I, P, P, I, P, P, P, I, P, P);
                h[k++] = b.bind("clWaitForEvents", I, I, P);
                h[k++] = b.bind("clReleaseEvent", I, P);
                h[k++] = b.bind("clGetMemObjectInfo", I, P, I, L, P, P);
                h[k++] = b.bind("clRetainMemObject", I, P);
                h[k++] = b.bind("clReleaseMemObject", I, P);
                h[k++] = b.bind("clReleaseKernel", I, P);
                h[k++] = b.bind("clReleaseProgram", I, P);
                h[k++] = b.bind("clReleaseCommandQueue", I, P);
                h[k++] = b.bind("clReleaseContext", I, P);
                h[k++] = b.bind("clFinish", I, P);
            } catch (IllegalArgumentException | IllegalCallerException | UnsatisfiedLinkError e) {
                failure = e;
                Arrays.fill(h, null);
            }
            FAILURE = failure;
            int k = 0;
            clGetPlatformIDs = h[k++]; clGetPlatformInfo = h[k++]; clGetDeviceIDs = h[k++]; clGetDeviceInfo = h[k++];
            clCreateContext = h[k++]; clCreateCommandQueueWithProperties = h[k++]; clCreateBuffer = h[k++];
            clEnqueueReadBuffer = h[k++]; clEnqueueWriteBuffer = h[k++]; clEnqueueCopyBuffer = h[k++];
            clEnqueueReadBufferRect = h[k++]; clEnqueueWriteBufferRect = h[k++]; clEnqueueCopyBufferRect = h[k++];
            clEnqueueMapBuffer = h[k++]; clEnqueueUnmapMemObject = h[k++];
            clCreateProgramWithSource = h[k++]; clBuildProgram = h[k++]; clGetProgramBuildInfo = h[k++];
            clCreateKernel = h[k++]; clSetKernelArg = h[k++]; clEnqueueNDRangeKernel = h[k++];
            clWaitForEvents = h[k++]; clReleaseEvent = h[k++]; clGetMemObjectInfo = h[k++];
            clRetainMemObject = h[k++]; clReleaseMemObject = h[k++]; clReleaseKernel = h[k++]; clReleaseProgram = h[k++];
            clReleaseCommandQueue = h[k++]; clReleaseContext = h[k++]; clFinish = h[k];
        }
    }

    private record Binder(SymbolLookup lib) {
        MethodHandle bind(String name, MemoryLayout ret, MemoryLayout... args) {
            MemorySegment symbol = lib.find(name).orElseThrow(
                    () -> new IllegalArgumentException(LIBRARY + " has no function " + name));
            return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(ret, args));
        }
    }

    /** {@return null if the library is loaded and has every function, else why not (one line)} */
    static String unavailableReason() {
        Throwable f = Lib.FAILURE;
        return f == null ? null : f.getClass().getSimpleName() + ": " + f.getMessage();
    }

    private static void check(String call, int code, String asked) {
        if (code != CL_SUCCESS) {
            throw new OpenCLException(call, code, asked);
        }
    }

    private static MemorySegment p(long handle) {
        return MemorySegment.ofAddress(handle);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    private static MethodHandle fn(MethodHandle h) {
        if (h == null) {
            throw new IllegalStateException("OpenCL is not available: " + unavailableReason());
        }
        return h;
    }

    // ---- platforms and devices -----------------------------------------------------------------

    static long[] platformIds() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            int rc = (int) fn(Lib.clGetPlatformIDs).invokeExact(0, MemorySegment.NULL, n);
            if (rc == -1001) {              // CL_PLATFORM_NOT_FOUND_KHR: the loader found no driver
                return new long[0];
            }
            check("clGetPlatformIDs", rc, "the number of platforms");
            int count = n.get(JAVA_INT, 0);
            if (count == 0) {
                return new long[0];
            }
            MemorySegment ids = a.allocate(ADDRESS, count);
            rc = (int) fn(Lib.clGetPlatformIDs).invokeExact(count, ids, MemorySegment.NULL);
            check("clGetPlatformIDs", rc, count + " platforms");
            return addresses(ids, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String platformInfo(long platform, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment size = a.allocate(JAVA_LONG);
            int rc = (int) fn(Lib.clGetPlatformInfo).invokeExact(p(platform), param, 0L, MemorySegment.NULL, size);
            check("clGetPlatformInfo", rc, "param 0x" + Integer.toHexString(param) + " of platform 0x" + Long.toHexString(platform));
            long n = size.get(JAVA_LONG, 0);
            MemorySegment v = a.allocate(Math.max(1, n));
            rc = (int) fn(Lib.clGetPlatformInfo).invokeExact(p(platform), param, n, v, MemorySegment.NULL);
            check("clGetPlatformInfo", rc, "param 0x" + Integer.toHexString(param) + " (" + n + " bytes)");
            return v.getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long[] deviceIds(long platform, long type) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            int rc = (int) fn(Lib.clGetDeviceIDs).invokeExact(p(platform), type, 0, MemorySegment.NULL, n);
            if (rc == -1) {                 // CL_DEVICE_NOT_FOUND: none of this type
                return new long[0];
            }
            check("clGetDeviceIDs", rc, "devices of type 0x" + Long.toHexString(type));
            int count = n.get(JAVA_INT, 0);
            MemorySegment ids = a.allocate(ADDRESS, Math.max(1, count));
            rc = (int) fn(Lib.clGetDeviceIDs).invokeExact(p(platform), type, count, ids, MemorySegment.NULL);
            check("clGetDeviceIDs", rc, count + " devices of type 0x" + Long.toHexString(type));
            return addresses(ids, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String deviceString(long device, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = deviceInfo(a, device, param);
            return v.getString(0, StandardCharsets.UTF_8);
        }
    }

    static long deviceLong(long device, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = deviceInfo(a, device, param);
            return v.byteSize() >= 8 ? v.get(JAVA_LONG, 0) : Integer.toUnsignedLong(v.get(JAVA_INT, 0));
        }
    }

    private static MemorySegment deviceInfo(Arena a, long device, int param) {
        try {
            MemorySegment size = a.allocate(JAVA_LONG);
            int rc = (int) fn(Lib.clGetDeviceInfo).invokeExact(p(device), param, 0L, MemorySegment.NULL, size);
            check("clGetDeviceInfo", rc, "param 0x" + Integer.toHexString(param) + " of device 0x" + Long.toHexString(device));
            long n = size.get(JAVA_LONG, 0);
            MemorySegment v = a.allocate(Math.max(8, n));
            rc = (int) fn(Lib.clGetDeviceInfo).invokeExact(p(device), param, n, v, MemorySegment.NULL);
            check("clGetDeviceInfo", rc, "param 0x" + Integer.toHexString(param) + " (" + n + " bytes)");
            return v.asSlice(0, Math.max(n, 1));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static long[] addresses(MemorySegment ids, int count) {
        long[] r = new long[count];
        for (int i = 0; i < count; i++) {
            r[i] = ids.getAtIndex(ADDRESS, i).address();
        }
        return r;
    }

    // ---- context, queue --------------------------------------------------------------------------

    static long createContext(long device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment devs = a.allocate(ADDRESS);
            devs.set(ADDRESS, 0, p(device));
            MemorySegment ctx = (MemorySegment) fn(Lib.clCreateContext).invokeExact(MemorySegment.NULL, 1, devs,
                    MemorySegment.NULL, MemorySegment.NULL, err);
            check("clCreateContext", err.get(JAVA_INT, 0), "a context of device 0x" + Long.toHexString(device));
            return ctx.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long createQueue(long context, long device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment q = (MemorySegment) fn(Lib.clCreateCommandQueueWithProperties).invokeExact(p(context),
                    p(device), MemorySegment.NULL, err);
            check("clCreateCommandQueueWithProperties", err.get(JAVA_INT, 0),
                    "an in-order queue of device 0x" + Long.toHexString(device));
            return q.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void finish(long queue) {
        try {
            check("clFinish", (int) fn(Lib.clFinish).invokeExact(p(queue)), "queue 0x" + Long.toHexString(queue));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- buffers ---------------------------------------------------------------------------------

    static long createBuffer(long context, long flags, long size, MemorySegment hostPtr) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment m = (MemorySegment) fn(Lib.clCreateBuffer).invokeExact(p(context), flags, size, hostPtr, err);
            check("clCreateBuffer", err.get(JAVA_INT, 0), size + " bytes with flags 0x" + Long.toHexString(flags)
                    + (hostPtr.address() != 0 ? " over host memory at 0x" + Long.toHexString(hostPtr.address()) : ""));
            return m.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long memLong(long mem, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_LONG);
            int rc = (int) fn(Lib.clGetMemObjectInfo).invokeExact(p(mem), param, 8L, v, MemorySegment.NULL);
            if (rc == CL_SUCCESS) {
                return v.get(JAVA_LONG, 0);
            }
            rc = (int) fn(Lib.clGetMemObjectInfo).invokeExact(p(mem), param, 4L, v, MemorySegment.NULL);
            check("clGetMemObjectInfo", rc, "param 0x" + Integer.toHexString(param) + " of buffer 0x" + Long.toHexString(mem));
            return Integer.toUnsignedLong(v.get(JAVA_INT, 0));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@return the buffer's CL_MEM_REFERENCE_COUNT} */
    static int referenceCount(long mem) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            int rc = (int) fn(Lib.clGetMemObjectInfo).invokeExact(p(mem), CL_MEM_REFERENCE_COUNT, 4L, v, MemorySegment.NULL);
            check("clGetMemObjectInfo", rc, "CL_MEM_REFERENCE_COUNT of buffer 0x" + Long.toHexString(mem));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Enqueues a non-blocking write; {@return its event} */
    static long enqueueWrite(long queue, long mem, long offset, MemorySegment src) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueWriteBuffer).invokeExact(p(queue), p(mem), 0, offset, src.byteSize(), src, 0,
                    MemorySegment.NULL, ev);
            check("clEnqueueWriteBuffer", rc, src.byteSize() + " bytes at offset " + offset + " of buffer 0x" + Long.toHexString(mem));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Enqueues a non-blocking read; {@return its event} */
    static long enqueueRead(long queue, long mem, long offset, MemorySegment dst) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueReadBuffer).invokeExact(p(queue), p(mem), 0, offset, dst.byteSize(), dst, 0,
                    MemorySegment.NULL, ev);
            check("clEnqueueReadBuffer", rc, dst.byteSize() + " bytes at offset " + offset + " of buffer 0x" + Long.toHexString(mem));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long enqueueCopy(long queue, long src, long srcOffset, long dst, long dstOffset, long size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueCopyBuffer).invokeExact(p(queue), p(src), p(dst), srcOffset, dstOffset, size, 0,
                    MemorySegment.NULL, ev);
            check("clEnqueueCopyBuffer", rc, size + " bytes from offset " + srcOffset + " of buffer 0x"
                    + Long.toHexString(src) + " to offset " + dstOffset + " of buffer 0x" + Long.toHexString(dst));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * A rectangle of {@code region} = (bytes, rows, slices): origins are (byte, row, slice), pitches in
     * bytes. {@return the event}
     */
    static long enqueueWriteRect(long queue, long mem, long[] bufferOrigin, long[] hostOrigin, long[] region,
                                 long bufferRowPitch, long bufferSlicePitch, long hostRowPitch, long hostSlicePitch,
                                 MemorySegment host) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueWriteBufferRect).invokeExact(p(queue), p(mem), 0, triple(a, bufferOrigin),
                    triple(a, hostOrigin), triple(a, region), bufferRowPitch, bufferSlicePitch, hostRowPitch,
                    hostSlicePitch, host, 0, MemorySegment.NULL, ev);
            check("clEnqueueWriteBufferRect", rc, rect(region, bufferOrigin, bufferRowPitch, bufferSlicePitch, mem));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long enqueueReadRect(long queue, long mem, long[] bufferOrigin, long[] hostOrigin, long[] region,
                                long bufferRowPitch, long bufferSlicePitch, long hostRowPitch, long hostSlicePitch,
                                MemorySegment host) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueReadBufferRect).invokeExact(p(queue), p(mem), 0, triple(a, bufferOrigin),
                    triple(a, hostOrigin), triple(a, region), bufferRowPitch, bufferSlicePitch, hostRowPitch,
                    hostSlicePitch, host, 0, MemorySegment.NULL, ev);
            check("clEnqueueReadBufferRect", rc, rect(region, bufferOrigin, bufferRowPitch, bufferSlicePitch, mem));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long enqueueCopyRect(long queue, long src, long dst, long[] srcOrigin, long[] dstOrigin, long[] region,
                                long srcRowPitch, long srcSlicePitch, long dstRowPitch, long dstSlicePitch) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueCopyBufferRect).invokeExact(p(queue), p(src), p(dst), triple(a, srcOrigin),
                    triple(a, dstOrigin), triple(a, region), srcRowPitch, srcSlicePitch, dstRowPitch, dstSlicePitch, 0,
                    MemorySegment.NULL, ev);
            check("clEnqueueCopyBufferRect", rc, rect(region, srcOrigin, srcRowPitch, srcSlicePitch, src)
                    + " into buffer 0x" + Long.toHexString(dst) + " at " + Arrays.toString(dstOrigin));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static String rect(long[] region, long[] origin, long rowPitch, long slicePitch, long mem) {
        return "region " + Arrays.toString(region) + " at " + Arrays.toString(origin) + " (row pitch " + rowPitch
                + ", slice pitch " + slicePitch + ") of buffer 0x" + Long.toHexString(mem);
    }

    private static MemorySegment triple(Arena a, long[] v) {
        if (v.length != 3) {
            throw new IllegalArgumentException("an origin or region has 3 values, not " + v.length);
        }
        return a.allocateFrom(JAVA_LONG, v);
    }

    /** Maps blocking; {@return the host address} */
    static long enqueueMap(long queue, long mem, long flags, long offset, long size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment ptr = (MemorySegment) fn(Lib.clEnqueueMapBuffer).invokeExact(p(queue), p(mem), 1, flags, offset,
                    size, 0, MemorySegment.NULL, MemorySegment.NULL, err);
            check("clEnqueueMapBuffer", err.get(JAVA_INT, 0), size + " bytes at offset " + offset + " of buffer 0x"
                    + Long.toHexString(mem) + " with map flags 0x" + Long.toHexString(flags));
            return ptr.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long enqueueUnmap(long queue, long mem, long mapped) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            int rc = (int) fn(Lib.clEnqueueUnmapMemObject).invokeExact(p(queue), p(mem), p(mapped), 0,
                    MemorySegment.NULL, ev);
            check("clEnqueueUnmapMemObject", rc, "the mapping at 0x" + Long.toHexString(mapped) + " of buffer 0x"
                    + Long.toHexString(mem));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- programs and kernels --------------------------------------------------------------------

    /** Creates and builds a program; a failed build throws with the build log. */
    static long buildProgram(long context, long device, String source, String options) {
        long program;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment strings = a.allocate(ADDRESS);
            strings.set(ADDRESS, 0, a.allocateFrom(source, StandardCharsets.UTF_8));
            MemorySegment prog = (MemorySegment) fn(Lib.clCreateProgramWithSource).invokeExact(p(context), 1, strings,
                    MemorySegment.NULL, err);
            check("clCreateProgramWithSource", err.get(JAVA_INT, 0), "a program of " + source.length() + " characters");
            program = prog.address();
            MemorySegment devs = a.allocate(ADDRESS);
            devs.set(ADDRESS, 0, p(device));
            int rc = (int) fn(Lib.clBuildProgram).invokeExact(prog, 1, devs, a.allocateFrom(options, StandardCharsets.UTF_8),
                    MemorySegment.NULL, MemorySegment.NULL);
            if (rc != CL_SUCCESS) {
                String log = buildLog(program, device);
                release("clReleaseProgram", Lib.clReleaseProgram, program);
                throw new OpenCLException("clBuildProgram", rc, "a program of " + source.length()
                        + " characters with options \"" + options + "\"", "build log:\n" + log + "\nsource:\n" + source);
            }
            return program;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String buildLog(long program, long device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment size = a.allocate(JAVA_LONG);
            int rc = (int) fn(Lib.clGetProgramBuildInfo).invokeExact(p(program), p(device), CL_PROGRAM_BUILD_LOG, 0L,
                    MemorySegment.NULL, size);
            check("clGetProgramBuildInfo", rc, "the size of the build log");
            long n = size.get(JAVA_LONG, 0);
            MemorySegment v = a.allocate(Math.max(1, n));
            rc = (int) fn(Lib.clGetProgramBuildInfo).invokeExact(p(program), p(device), CL_PROGRAM_BUILD_LOG, n, v,
                    MemorySegment.NULL);
            check("clGetProgramBuildInfo", rc, "the build log (" + n + " bytes)");
            return v.getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long createKernel(long program, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment k = (MemorySegment) fn(Lib.clCreateKernel).invokeExact(p(program),
                    a.allocateFrom(name, StandardCharsets.UTF_8), err);
            check("clCreateKernel", err.get(JAVA_INT, 0), "kernel " + name);
            return k.address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setKernelArgMem(long kernel, int index, long mem) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ADDRESS);
            v.set(ADDRESS, 0, p(mem));
            int rc = (int) fn(Lib.clSetKernelArg).invokeExact(p(kernel), index, 8L, v);
            check("clSetKernelArg", rc, "argument " + index + " (buffer 0x" + Long.toHexString(mem) + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setKernelArgLong(long kernel, int index, long value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(JAVA_LONG, value);
            int rc = (int) fn(Lib.clSetKernelArg).invokeExact(p(kernel), index, 8L, v);
            check("clSetKernelArg", rc, "argument " + index + " (ulong " + value + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setKernelArgInt(long kernel, int index, int value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(JAVA_INT, value);
            int rc = (int) fn(Lib.clSetKernelArg).invokeExact(p(kernel), index, 4L, v);
            check("clSetKernelArg", rc, "argument " + index + " (int " + value + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setKernelArgFloat(long kernel, int index, float value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(java.lang.foreign.ValueLayout.JAVA_FLOAT, value);
            int rc = (int) fn(Lib.clSetKernelArg).invokeExact(p(kernel), index, 4L, v);
            check("clSetKernelArg", rc, "argument " + index + " (float " + value + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Enqueues a one-dimensional range of {@code globalSize} work items; {@return its event} */
    static long enqueueKernel(long queue, long kernel, long globalSize, String name) {
        return enqueueKernel(queue, kernel, globalSize, 0, name);
    }

    /**
     * Enqueues a one-dimensional range of {@code globalSize} work items in groups of {@code localSize}
     * (0: the driver chooses); {@return its event}
     */
    static long enqueueKernel(long queue, long kernel, long globalSize, long localSize, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ev = a.allocate(ADDRESS);
            MemorySegment local = localSize == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_LONG, localSize);
            int rc = (int) fn(Lib.clEnqueueNDRangeKernel).invokeExact(p(queue), p(kernel), 1, MemorySegment.NULL,
                    a.allocateFrom(JAVA_LONG, globalSize), local, 0, MemorySegment.NULL, ev);
            check("clEnqueueNDRangeKernel", rc, "kernel " + name + " over " + globalSize + " work items"
                    + (localSize == 0 ? "" : " in groups of " + localSize));
            return ev.get(ADDRESS, 0).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- events and releases ---------------------------------------------------------------------

    static void waitFor(long event, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment list = a.allocate(ADDRESS);
            list.set(ADDRESS, 0, p(event));
            check("clWaitForEvents", (int) fn(Lib.clWaitForEvents).invokeExact(1, list), what);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void releaseEvent(long event) {
        release("clReleaseEvent", Lib.clReleaseEvent, event);
    }

    static void retainMem(long mem) {
        release("clRetainMemObject", Lib.clRetainMemObject, mem);
    }

    static void releaseMem(long mem) {
        release("clReleaseMemObject", Lib.clReleaseMemObject, mem);
    }

    static void releaseKernel(long kernel) {
        release("clReleaseKernel", Lib.clReleaseKernel, kernel);
    }

    static void releaseProgram(long program) {
        release("clReleaseProgram", Lib.clReleaseProgram, program);
    }

    static void releaseQueue(long queue) {
        release("clReleaseCommandQueue", Lib.clReleaseCommandQueue, queue);
    }

    static void releaseContext(long context) {
        release("clReleaseContext", Lib.clReleaseContext, context);
    }

    private static void release(String call, MethodHandle h, long handle) {
        try {
            check(call, (int) fn(h).invokeExact(p(handle)), "handle 0x" + Long.toHexString(handle));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
