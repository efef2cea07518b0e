package dev.tegula.ffm;

import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A byte range of a memory space's buffer: the provider's handle (an OpenCL {@code cl_mem}, a CUDA
 * device pointer) plus an offset and a size, never a host address. Tegula never dereferences a
 * handle; it passes it back to the {@link MemorySpaceProvider} that made it, which enqueues copies,
 * maps and runs kernels on it.
 *
 * <p><b>Lifetime.</b> A buffer lives as long as the arena it was allocated in: {@link #lifetime()} is
 * a segment of that arena (zero bytes long for device memory), whose closing releases the handle,
 * once. Every operation on a buffer checks it first and throws the same {@link IllegalStateException}
 * ("Already closed …") as a host array of a closed arena; a confined arena's buffer used from another
 * thread throws {@link WrongThreadException}.
 *
 * <p>For host memory ({@link MemorySpaces#host()}) the handle is 0 and {@link #hostSegment()} is
 * the memory itself. Instances are immutable and thread-safe.
 */
public final class DeviceBuffer {
    private final MemorySpaceProvider provider;
    private final long handle;
    private final long byteOffset;
    private final long byteSize;
    private final MemorySegment lifetime;
    private final MemorySegment host;

    private DeviceBuffer(MemorySpaceProvider provider, long handle, long byteOffset, long byteSize,
                         MemorySegment lifetime, MemorySegment host) {
        this.provider = provider;
        this.handle = handle;
        this.byteOffset = byteOffset;
        this.byteSize = byteSize;
        this.lifetime = lifetime;
        this.host = host;
    }

    /**
     * {@return a buffer of device memory} for a provider's allocation: {@code handle} is the
     * provider's, {@code lifetime} a segment of the owning arena whose closing releases the handle.
     *
     * @param provider the provider that made the handle
     * @param handle   the provider's handle of the whole buffer
     * @param byteSize the buffer's size, {@code >= 0}
     * @param lifetime a segment of the owning arena (its bytes are never read)
     * @throws IllegalArgumentException if {@code byteSize} is negative
     */
    public static DeviceBuffer of(MemorySpaceProvider provider, long handle, long byteSize, MemorySegment lifetime) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(lifetime, "lifetime");
        if (byteSize < 0) {
            throw new IllegalArgumentException("byteSize: " + byteSize + " is negative");
        }
        return new DeviceBuffer(provider, handle, 0, byteSize, lifetime, null);
    }

    /**
     * {@return host memory as a buffer of {@code provider}} (handle 0): the segment is the memory and
     * carries the lifetime.
     */
    public static DeviceBuffer ofHost(MemorySpaceProvider provider, MemorySegment memory) {
        Objects.requireNonNull(provider, "provider");
        return new DeviceBuffer(provider, 0, 0, memory.byteSize(), memory, memory);
    }

    /** {@return the provider that owns the handle} */
    public MemorySpaceProvider provider() {
        return provider;
    }

    /** {@return the provider's handle of the whole buffer (0 for host memory)} */
    public long handle() {
        return handle;
    }

    /** {@return where this range starts in the buffer of {@link #handle()}, in bytes} */
    public long byteOffset() {
        return byteOffset;
    }

    /** {@return this range's size in bytes} */
    public long byteSize() {
        return byteSize;
    }

    /** {@return a segment of the owning arena; its scope is the buffer's lifetime (for device memory it has no bytes)} */
    public MemorySegment lifetime() {
        return lifetime;
    }

    /** {@return true if this is host memory, {@link #hostSegment()} being the bytes} */
    public boolean isHost() {
        return host != null;
    }

    /**
     * {@return the host memory of this range}
     *
     * @throws IllegalStateException if this is device memory (map it: {@link Array#map})
     */
    public MemorySegment hostSegment() {
        if (host == null) {
            throw new IllegalStateException("a buffer of " + provider.name() + " has no host address: map it first");
        }
        return host;
    }

    /**
     * {@return the range of {@code size} bytes from {@code offset} of this one}
     *
     * @throws IndexOutOfBoundsException if the range does not lie inside this one
     */
    public DeviceBuffer slice(long offset, long size) {
        Objects.checkFromIndexSize(offset, size, byteSize);
        return new DeviceBuffer(provider, handle, byteOffset + offset, size, lifetime,
                host == null ? null : host.asSlice(offset, size));
    }

    /**
     * Checks that the owning arena is open and may be used from this thread.
     *
     * @throws IllegalStateException if the arena is closed ("Already closed …")
     * @throws WrongThreadException  if a confined arena belongs to another thread
     */
    public void checkAccess() {
        ThreadAccess.requireAlive(lifetime);
        if (!lifetime.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException("the buffer's arena is confined to another thread: " + this);
        }
    }

    @Override
    public String toString() {
        return provider.name() + " buffer 0x" + Long.toHexString(handle) + " [" + byteOffset + ", +" + byteSize + ")";
    }
}
