package dev.tegula.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Supplies memory for the XLA memory spaces ({@code S(n)} in a layout) that it {@linkplain #handles
 * handles}: allocation and bulk copies. A native accelerator library implements it for its device
 * memory and registers it with {@link MemorySpaces#register} or as a {@link java.util.ServiceLoader}
 * service ({@code META-INF/services/dev.tegula.ffm.MemorySpaceProvider}, or {@code provides} in a
 * module descriptor). Without any provider, every memory space is host memory.
 *
 * <p>A provider whose memory the host cannot address ({@link #isHostAccessible()} false) hands out
 * segments that Tegula never reads or writes itself: arrays in such memory refuse element access
 * and are moved with {@link #copy}. Implementations must be thread-safe.
 */
public interface MemorySpaceProvider {

    /**
     * {@return true if this provider supplies memory for the memory space {@code memorySpace}}
     *
     * @param memorySpace the layout's {@code S(n)} id
     */
    boolean handles(long memorySpace);

    /**
     * {@return a new segment of {@code byteSize} bytes, aligned to {@code byteAlignment}, whose
     * lifetime is that of {@code arena}} Host-accessible memory must be zeroed.
     *
     * @param arena         the arena that owns the memory
     * @param byteSize      bytes to allocate, {@code >= 0}
     * @param byteAlignment a power of two
     */
    MemorySegment allocate(Arena arena, long byteSize, long byteAlignment);

    /** {@return true if Java code may read and write this provider's segments directly} */
    boolean isHostAccessible();

    /**
     * Copies {@code byteSize} bytes from the start of {@code source} to the start of {@code destination},
     * either of which may be in this provider's memory, the other in host memory or in this
     * provider's memory.
     *
     * @param source      where the bytes come from
     * @param destination where they go
     * @param byteSize    how many bytes
     */
    void copy(MemorySegment source, MemorySegment destination, long byteSize);

    /** {@return a short name for messages; the class name by default} */
    default String name() {
        return getClass().getName();
    }
}
