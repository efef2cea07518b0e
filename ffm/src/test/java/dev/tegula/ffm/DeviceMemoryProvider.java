package dev.tegula.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated accelerator for memory space {@link #SPACE}: its memory is host memory kept behind
 * handles (numbers it hands out), so that Tegula reaches it only through the SPI: enqueued copies
 * that complete when awaited, and maps that copy into and out of a staging segment, as a discrete
 * GPU does. Registered through {@code META-INF/services}; the tests also build instances for other
 * ids and register them programmatically.
 */
public final class DeviceMemoryProvider implements MemorySpaceProvider {
    /** The id this provider handles when loaded by ServiceLoader. */
    public static final long SPACE = 7;

    final long space;
    final AtomicInteger allocations = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();
    final AtomicInteger copies = new AtomicInteger();
    final AtomicInteger maps = new AtomicInteger();
    final AtomicLong bytesMoved = new AtomicLong();
    private final AtomicLong nextHandle = new AtomicLong(0x1000);
    private final Map<Long, MemorySegment> memory = new ConcurrentHashMap<>();

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
    public boolean isHostAccessible() {
        return false;
    }

    @Override
    public DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment) {
        if (byteSize > 1L << 30) {
            throw new IllegalArgumentException("the device's largest buffer is " + (1L << 30) + " bytes");
        }
        long handle = nextHandle.getAndIncrement();
        memory.put(handle, Arena.ofAuto().allocate(Math.max(1, byteSize), byteAlignment));
        allocations.incrementAndGet();
        MemorySegment lifetime = MemorySegment.NULL.reinterpret(0, arena, s -> {
            memory.remove(handle);
            releases.incrementAndGet();
        });
        return DeviceBuffer.of(this, handle, byteSize, lifetime);
    }

    private MemorySegment bytes(DeviceBuffer b) {
        b.checkAccess();
        return memory.get(b.handle()).asSlice(b.byteOffset(), b.byteSize());
    }

    @Override
    public Completion write(MemorySegment source, DeviceBuffer destination) {
        return move(source, bytes(destination));
    }

    @Override
    public Completion read(DeviceBuffer source, MemorySegment destination) {
        return move(bytes(source), destination);
    }

    @Override
    public Completion copy(DeviceBuffer source, DeviceBuffer destination) {
        return move(bytes(source), bytes(destination));
    }

    private Completion move(MemorySegment from, MemorySegment to) {
        if (from.byteSize() != to.byteSize()) {
            throw new IllegalArgumentException("sizes differ: " + from.byteSize() + " and " + to.byteSize());
        }
        copies.incrementAndGet();
        bytesMoved.addAndGet(from.byteSize());
        return () -> MemorySegment.copy(from, 0, to, 0, from.byteSize());     // runs when awaited
    }

    @Override
    public Mapping map(DeviceBuffer buffer, MapMode mode) {
        MemorySegment device = bytes(buffer);
        Arena staging = Arena.ofConfined();
        MemorySegment host = staging.allocate(Math.max(1, device.byteSize())).asSlice(0, device.byteSize());
        maps.incrementAndGet();
        if (mode != MapMode.WRITE) {
            host.copyFrom(device);
        }
        return new Mapping() {
            @Override
            public MemorySegment segment() {
                return host;
            }

            @Override
            public Completion unmap() {
                if (mode != MapMode.READ) {
                    device.copyFrom(host);
                }
                staging.close();
                return Completion.DONE;
            }
        };
    }

    @Override
    public String name() {
        return "test-device(" + space + ")";
    }
}
