package dev.tegula.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated accelerator: host memory that claims not to be host-accessible, for memory space
 * {@link #SPACE}. Registered through {@code META-INF/services}; the tests also build instances for
 * other ids and register them programmatically.
 */
public final class DeviceMemoryProvider implements MemorySpaceProvider {
    /** The id this provider handles when loaded by ServiceLoader. */
    public static final long SPACE = 7;

    final long space;
    final AtomicInteger allocations = new AtomicInteger();
    final AtomicInteger copies = new AtomicInteger();

    public DeviceMemoryProvider() {
        this(SPACE);
    }

    DeviceMemoryProvider(long space) {
        this.space = space;
    }

    @Override
    public boolean handles(long memorySpace) {
        return memorySpace == space;
    }

    @Override
    public MemorySegment allocate(Arena arena, long byteSize, long byteAlignment) {
        allocations.incrementAndGet();
        return arena.allocate(byteSize, byteAlignment);
    }

    @Override
    public boolean isHostAccessible() {
        return false;
    }

    @Override
    public void copy(MemorySegment source, MemorySegment destination, long byteSize) {
        copies.incrementAndGet();
        MemorySegment.copy(source, 0, destination, 0, byteSize);
    }

    @Override
    public String name() {
        return "test-device(" + space + ")";
    }
}
