package dev.tegula.opencl;

import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.DeviceBuffer;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.Mapping;
import dev.tegula.ffm.MemorySpaceProvider;
import dev.tegula.ffm.MemorySpaces;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OpenCL device memory behind a memory space: {@code S(1)} by default ({@value #MEMORY_SPACE_PROPERTY}
 * chooses another), on the device that {@link OpenCLDevice#openConfigured()} chooses, opened when the
 * memory space is first asked for. Found by {@link java.util.ServiceLoader} (the module provides it),
 * so {@code Array.allocate(arena, shape)} of a shape in {@code S(1)} gives a device array.
 *
 * <ul>
 *   <li>A buffer is a {@code cl_mem} ({@code CL_MEM_READ_WRITE}) released ({@code clReleaseMemObject})
 *       once, when its arena closes. A size above {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE} is refused before
 *       anything is allocated.</li>
 *   <li>Copies are {@code clEnqueueWriteBuffer}, {@code clEnqueueReadBuffer} and {@code clEnqueueCopyBuffer},
 *       non-blocking, completed by their event; {@link #transfers()} counts them and their bytes.</li>
 *   <li>Maps are blocking {@code clEnqueueMapBuffer} calls ({@code CL_MAP_WRITE_INVALIDATE_REGION} for
 *       {@link MapMode#WRITE}); the host segment belongs to an arena of the mapping that the unmap
 *       closes.</li>
 *   <li>Host memory becomes a buffer without a copy through {@code CL_MEM_USE_HOST_PTR} ({@link #wrapHost}).</li>
 *   <li>Relayouts between two arrays of the device run as kernels generated from the two layouts'
 *       slot formulas ({@link #relayout}).</li>
 * </ul>
 *
 * <p>Without the OpenCL library, or without a device, this provider handles no memory space, so
 * {@code S(1)} is host memory; the reason is logged once, in one line (logger {@code dev.tegula.opencl},
 * level {@code INFO}). Thread-safe.
 */
public final class OpenCLMemory implements MemorySpaceProvider {
    /** The system property with the memory space id this provider serves (default 1). */
    public static final String MEMORY_SPACE_PROPERTY = "tegula.opencl.memorySpace";

    private static final System.Logger LOG = System.getLogger("dev.tegula.opencl");

    private final long memorySpace;
    private final Object lock = new Object();
    private volatile OpenCLDevice device;
    private volatile String unavailable;
    private final RelayoutKernels relayouts = new RelayoutKernels();
    final AtomicLong writes = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong copies = new AtomicLong();
    final AtomicLong bytesMoved = new AtomicLong();
    final AtomicLong maps = new AtomicLong();
    final AtomicLong kernelRuns = new AtomicLong();
    final AtomicLong liveBuffers = new AtomicLong();
    /** The line logged when no device could be had, and how many times a line was logged (for tests). */
    volatile String loggedLine;
    final AtomicLong linesLogged = new AtomicLong();

    /** The provider of memory space {@value #MEMORY_SPACE_PROPERTY} (default 1) on the configured device. */
    public OpenCLMemory() {
        this(Long.getLong(MEMORY_SPACE_PROPERTY, 1), null);
    }

    /**
     * A provider of {@code memorySpace} on {@code device} (opened by the caller, never closed by this
     * provider), or on the configured device when {@code device} is null. Register it with
     * {@link MemorySpaces#register}.
     */
    public OpenCLMemory(long memorySpace, OpenCLDevice device) {
        this.memorySpace = memorySpace;
        this.device = device;
    }

    /** {@return the provider that serves {@code memorySpace} among the registered and installed ones, or null} */
    public static OpenCLMemory forMemorySpace(long memorySpace) {
        return MemorySpaces.providerFor(memorySpace) instanceof OpenCLMemory m ? m : null;
    }

    /** {@return the memory space id this provider serves} */
    public long memorySpace() {
        return memorySpace;
    }

    @Override
    public boolean handles(long memorySpace) {
        return memorySpace == this.memorySpace && deviceIfOpen() != null;
    }

    /**
     * {@return the device, opened on first use}
     *
     * @throws IllegalStateException if there is no OpenCL library or no device (the message says which)
     */
    public OpenCLDevice device() {
        OpenCLDevice d = deviceIfOpen();
        if (d == null) {
            throw new IllegalStateException("no OpenCL device for S(" + memorySpace + "): " + unavailable);
        }
        return d;
    }

    /** {@return null if no device can be had; logs the reason once} */
    OpenCLDevice deviceIfOpen() {
        OpenCLDevice d = device;
        if (d != null || unavailable != null) {
            return d;
        }
        synchronized (lock) {
            if (device == null && unavailable == null) {
                String reason = CL.unavailableReason();
                if (reason == null) {
                    try {
                        device = OpenCLDevice.openConfigured();
                    } catch (RuntimeException e) {
                        reason = e.getMessage();
                    }
                }
                if (device == null) {
                    unavailable = reason;
                    loggedLine = "S(" + memorySpace + ") is host memory: no OpenCL device ("
                            + reason.lines().findFirst().orElse("") + ")";
                    LOG.log(System.Logger.Level.INFO, loggedLine);
                    linesLogged.incrementAndGet();
                }
            }
            return device;
        }
    }

    /** {@return null if this provider has a device, else why not} */
    public String unavailableReason() {
        return deviceIfOpen() == null ? unavailable : null;
    }

    @Override
    public boolean isHostAccessible() {
        return false;
    }

    @Override
    public DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment) {
        OpenCLDevice d = device();
        if (byteSize < 0) {
            throw new IllegalArgumentException("byteSize: " + byteSize + " is negative");
        }
        long limit = d.info().maxBufferSize();
        if (byteSize > limit) {
            throw new IllegalArgumentException("the OpenCL device " + d.info().name() + " holds buffers of at most "
                    + limit + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE), " + byteSize + " asked");
        }
        return buffer(arena, byteSize, CL.CL_MEM_READ_WRITE, MemorySegment.NULL);
    }

    @Override
    public DeviceBuffer wrapHost(Arena arena, MemorySegment hostMemory) {
        if (!hostMemory.isNative()) {
            throw new IllegalArgumentException("hostMemory: a heap segment cannot be an OpenCL buffer");
        }
        if (hostMemory.byteSize() == 0) {
            throw new IllegalArgumentException("hostMemory: an OpenCL buffer has at least one byte");
        }
        return buffer(arena, hostMemory.byteSize(), CL.CL_MEM_READ_WRITE | CL.CL_MEM_USE_HOST_PTR, hostMemory);
    }

    private DeviceBuffer buffer(Arena arena, long byteSize, long flags, MemorySegment hostPtr) {
        OpenCLDevice d = device();
        arena.allocate(0, 1);            // the arena is open and ours to use: before the buffer exists
        long mem = CL.createBuffer(d.context, flags, Math.max(1, byteSize), hostPtr);
        MemorySegment lifetime;
        try {
            lifetime = MemorySegment.NULL.reinterpret(0, arena, s -> {
                unmapAll(mem);
                liveBuffers.decrementAndGet();
                CL.releaseMem(mem);
            });
        } catch (RuntimeException e) {
            CL.releaseMem(mem);
            throw e;
        }
        liveBuffers.incrementAndGet();
        return DeviceBuffer.of(this, mem, byteSize, lifetime);
    }

    /**
     * Unmaps every mapping of buffer {@code mem} still open, as its arena closes: each mapping's host
     * segment is closed first (a later access throws {@link IllegalStateException}), then its unmap
     * is enqueued and awaited, so the buffer is released unmapped.
     */
    private void unmapAll(long mem) {
        Set<Runnable> open = openMappings.remove(mem);
        if (open != null) {
            for (Runnable r : open) {
                r.run();
            }
        }
    }

    /** A mapping's states: open, unmapped by its owner, unmapped as its buffer's arena closed. */
    private static final int MAPPED = 0, UNMAPPED = 1, UNMAPPED_WITH_ARENA = 2;

    /** Per buffer handle, what unmaps each of its open mappings. */
    private final Map<Long, Set<Runnable>> openMappings = new ConcurrentHashMap<>();

    private long mem(DeviceBuffer b) {
        b.checkAccess();
        if (b.provider() != this) {
            throw new IllegalArgumentException(b + " is not memory of " + name());
        }
        return b.handle();
    }

    private static void sameSize(long a, long b) {
        if (a != b) {
            throw new IllegalArgumentException("copy: source of " + a + " bytes, destination of " + b);
        }
    }

    @Override
    public Completion write(MemorySegment source, DeviceBuffer destination) {
        long mem = mem(destination);
        sameSize(source.byteSize(), destination.byteSize());
        if (source.byteSize() == 0) {
            return Completion.DONE;
        }
        writes.incrementAndGet();
        bytesMoved.addAndGet(source.byteSize());
        long ev = CL.enqueueWrite(device().queue, mem, destination.byteOffset(), source);
        return new EventCompletion(ev, "a write of " + source.byteSize() + " bytes to " + destination, null);
    }

    @Override
    public Completion read(DeviceBuffer source, MemorySegment destination) {
        long mem = mem(source);
        sameSize(source.byteSize(), destination.byteSize());
        if (destination.byteSize() == 0) {
            return Completion.DONE;
        }
        reads.incrementAndGet();
        bytesMoved.addAndGet(destination.byteSize());
        long ev = CL.enqueueRead(device().queue, mem, source.byteOffset(), destination);
        return new EventCompletion(ev, "a read of " + destination.byteSize() + " bytes from " + source, null);
    }

    @Override
    public Completion copy(DeviceBuffer source, DeviceBuffer destination) {
        long from = mem(source);
        long to = mem(destination);
        sameSize(source.byteSize(), destination.byteSize());
        if (source.byteSize() == 0) {
            return Completion.DONE;
        }
        copies.incrementAndGet();
        bytesMoved.addAndGet(source.byteSize());
        long ev = CL.enqueueCopy(device().queue, from, source.byteOffset(), to, destination.byteOffset(),
                source.byteSize());
        return new EventCompletion(ev, "a copy of " + source.byteSize() + " bytes from " + source + " to " + destination,
                null);
    }

    @Override
    public Mapping map(DeviceBuffer buffer, MapMode mode) {
        long mem = mem(buffer);
        long size = buffer.byteSize();
        if (size == 0) {
            MemorySegment empty = MemorySegment.ofArray(new byte[0]);
            return new Mapping() {
                @Override
                public MemorySegment segment() {
                    return empty;
                }

                @Override
                public Completion unmap() {
                    return Completion.DONE;
                }
            };
        }
        long flags = switch (mode) {
            case READ -> CL.CL_MAP_READ;
            case WRITE -> CL.CL_MAP_WRITE_INVALIDATE_REGION;
            case READ_WRITE -> CL.CL_MAP_READ | CL.CL_MAP_WRITE;
        };
        OpenCLDevice d = device();
        long ptr = CL.enqueueMap(d.queue, mem, flags, buffer.byteOffset(), size);
        maps.incrementAndGet();
        Arena mapping = Arena.ofShared();
        MemorySegment host = MemorySegment.ofAddress(ptr).reinterpret(size, mapping, null);
        AtomicInteger state = new AtomicInteger(MAPPED);
        Set<Runnable> open = openMappings.computeIfAbsent(mem, k -> ConcurrentHashMap.newKeySet());
        Runnable closedWithArena = () -> {
            if (state.compareAndSet(MAPPED, UNMAPPED_WITH_ARENA)) {
                mapping.close();
                new EventCompletion(CL.enqueueUnmap(d.queue, mem, ptr), "the unmap of " + buffer + " as its arena closed",
                        null).await();
            }
        };
        open.add(closedWithArena);
        return new Mapping() {
            @Override
            public MemorySegment segment() {
                return host;
            }

            @Override
            public Completion unmap() {
                if (!state.compareAndSet(MAPPED, UNMAPPED)) {
                    if (state.get() == UNMAPPED_WITH_ARENA) {
                        return Completion.DONE;            // unmapped when the buffer's arena closed
                    }
                    throw new IllegalStateException("the mapping of " + buffer + " is unmapped already");
                }
                open.remove(closedWithArena);
                mapping.close();
                long ev = CL.enqueueUnmap(d.queue, mem, ptr);
                return new EventCompletion(ev, "the unmap of " + buffer, null);
            }
        };
    }

    @Override
    public Completion relayout(Array source, Array destination) {
        Completion c = relayouts.relayout(device(), source, destination);
        if (c != null) {
            kernelRuns.incrementAndGet();
        }
        return c;
    }

    /** The transfers this provider has enqueued: counts and bytes; maps are counted apart (they move nothing where the device shares host memory). */
    public record Transfers(long writes, long reads, long copies, long bytes, long maps, long relayoutKernels) {
        /** {@return the transfers between {@code earlier} and this} */
        public Transfers since(Transfers earlier) {
            return new Transfers(writes - earlier.writes, reads - earlier.reads, copies - earlier.copies,
                    bytes - earlier.bytes, maps - earlier.maps, relayoutKernels - earlier.relayoutKernels);
        }
    }

    /** {@return the counts of the copies, maps and relayout kernels enqueued so far} */
    public Transfers transfers() {
        return new Transfers(writes.get(), reads.get(), copies.get(), bytesMoved.get(), maps.get(), kernelRuns.get());
    }

    /** {@return how many of this provider's buffers are allocated and not yet released} */
    public long liveBuffers() {
        return liveBuffers.get();
    }

    /** {@return the pairs of layouts whose relayout kernel arguments are kept (their programs are shared by shape of relayout)} */
    public int relayoutPairs() {
        return relayouts.size();
    }

    @Override
    public String name() {
        OpenCLDevice d = device;
        return "OpenCL S(" + memorySpace + ")" + (d != null ? " on " + d.info().name() : "");
    }
}
