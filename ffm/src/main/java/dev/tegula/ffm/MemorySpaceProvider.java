package dev.tegula.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Supplies memory for the XLA memory spaces ({@code S(n)} in a layout) that it {@linkplain #handles
 * handles}. A device library implements it for its memory and registers it with
 * {@link MemorySpaces#register} or as a {@link java.util.ServiceLoader} service
 * ({@code META-INF/services/dev.tegula.ffm.MemorySpaceProvider}, or {@code provides} in a module
 * descriptor). Without any provider, every memory space is host memory ({@link MemorySpaces#host()}).
 *
 * <h2>The model</h2>
 * <ul>
 *   <li>Memory is a {@link DeviceBuffer}: the provider's handle plus a byte range, owned by an arena.
 *       The provider ties the handle's release to the arena ({@link DeviceBuffer#lifetime()}), so
 *       closing the arena releases it exactly once.</li>
 *   <li>Copies are enqueued and return a {@link Completion}; the caller awaits it before it relies on
 *       the bytes (a host source may be changed, a host destination read, only after that).</li>
 *   <li>Map and unmap are operations: {@link #map} gives a host segment over a range, {@link Mapping#unmap}
 *       hands it back. Tegula's element access, bulk methods and relayout engine reach device memory
 *       only through mappings ({@link Array#map}).</li>
 * </ul>
 * Host memory is the provider whose {@link #isHostAccessible()} is true: its buffers are their own
 * host segments, its copies {@code MemorySegment.copy}, its mappings the memory itself.
 *
 * <p>Every operation checks the buffers' arenas first ({@link DeviceBuffer#checkAccess()}).
 * Implementations must be thread-safe: copies and maps may come from many threads at once.
 */
public interface MemorySpaceProvider {

    /**
     * {@return true if this provider supplies memory for the memory space {@code memorySpace}}
     *
     * @param memorySpace the layout's {@code S(n)} id
     */
    boolean handles(long memorySpace);

    /** {@return true if buffers are host memory that Java code reads and writes directly} */
    boolean isHostAccessible();

    /**
     * {@return a new buffer of {@code byteSize} bytes, aligned to at least {@code byteAlignment}, whose
     * lifetime is that of {@code arena}} Its contents are unspecified ({@link Array#allocate} writes
     * zeros and padding through a mapping); host memory is zeroed.
     *
     * @param arena         the arena that owns the memory
     * @param byteSize      bytes to allocate, {@code >= 0}
     * @param byteAlignment a power of two
     * @throws IllegalArgumentException if the device cannot hold a buffer of this size (the message
     *                                  names the size and the device's limit); nothing is allocated
     * @throws IllegalStateException    if the arena is closed
     */
    DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment);

    /**
     * {@return a buffer of this provider over existing host memory, without copying} (OpenCL's
     * {@code CL_MEM_USE_HOST_PTR}); its handle is released when {@code arena} closes, which must not
     * be after {@code hostMemory}'s arena closes.
     *
     * @throws UnsupportedOperationException if the device cannot use host memory (the default)
     */
    default DeviceBuffer wrapHost(Arena arena, MemorySegment hostMemory) {
        throw new UnsupportedOperationException(name() + " cannot use host memory as a buffer");
    }

    /**
     * Enqueues a copy of the {@code source} segment's bytes into {@code destination} (of this provider),
     * from the starts of both.
     *
     * @throws IllegalArgumentException if the two sizes differ
     */
    Completion write(MemorySegment source, DeviceBuffer destination);

    /**
     * Enqueues a copy of {@code source} (of this provider) into the {@code destination} segment, from the
     * starts of both.
     *
     * @throws IllegalArgumentException if the two sizes differ
     */
    Completion read(DeviceBuffer source, MemorySegment destination);

    /**
     * Enqueues a copy between two buffers of this provider.
     *
     * @throws IllegalArgumentException if the two sizes differ
     */
    Completion copy(DeviceBuffer source, DeviceBuffer destination);

    /**
     * Maps {@code buffer} into host memory for {@code mode}, waiting until the host view is ready.
     *
     * @throws IllegalStateException if the arena is closed or the device cannot map
     */
    Mapping map(DeviceBuffer buffer, MapMode mode);

    /**
     * Relayouts {@code source} into {@code destination} on the device, both arrays of this provider
     * (same dimensions, any layouts and element types), if it can.
     *
     * @return the completion, or null where the provider has no device relayout for this pair (the
     *         caller then relayouts through mappings)
     */
    default Completion relayout(Array source, Array destination) {
        return null;
    }

    /** {@return a short name for messages; the class name by default} */
    default String name() {
        return getClass().getName();
    }
}
