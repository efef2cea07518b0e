package dev.tegula.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The registry that maps XLA memory-space ids ({@code S(n)} in a layout) to the
 * {@link MemorySpaceProvider} that allocates, copies and maps their memory.
 *
 * <p>Lookup order for an id: providers registered with {@link #register} (most recent first), then
 * providers found by {@link ServiceLoader} (loaded once, on first lookup, in service-file order),
 * then {@link #host()}, which handles every id. So by default every memory space is host memory.
 *
 * <p>The provider of an {@link Array} is looked up once, when the array is created; registering a
 * provider later does not change existing arrays. Thread-safe.
 */
public final class MemorySpaces {
    private static final MemorySpaceProvider HOST = new Host();
    private static final List<MemorySpaceProvider> REGISTERED = new CopyOnWriteArrayList<>();
    private static volatile List<MemorySpaceProvider> loaded;

    private MemorySpaces() {
    }

    /** {@return the host-memory provider: every id, {@link HostMemory#allocate} (huge pages for large buffers), {@code MemorySegment.copy}, mappings that are the memory itself} */
    public static MemorySpaceProvider host() {
        return HOST;
    }

    /** {@return the provider for memory space {@code memorySpace}, following the lookup order above} */
    public static MemorySpaceProvider providerFor(long memorySpace) {
        for (MemorySpaceProvider p : REGISTERED) {
            if (p.handles(memorySpace)) {
                return p;
            }
        }
        for (MemorySpaceProvider p : serviceProviders()) {
            if (p.handles(memorySpace)) {
                return p;
            }
        }
        return HOST;
    }

    /**
     * Registers a provider ahead of every earlier one and of the {@link ServiceLoader} providers.
     *
     * @param provider the provider
     */
    public static void register(MemorySpaceProvider provider) {
        REGISTERED.addFirst(Objects.requireNonNull(provider, "provider"));
    }

    /** {@return true if {@code provider} was registered with {@link #register} and is now removed} */
    public static boolean unregister(MemorySpaceProvider provider) {
        return REGISTERED.remove(provider);
    }

    /** {@return the registered and the ServiceLoader providers, in lookup order (a copy; host not included)} */
    public static List<MemorySpaceProvider> providers() {
        List<MemorySpaceProvider> all = new ArrayList<>(REGISTERED);
        all.addAll(serviceProviders());
        return all;
    }

    private static List<MemorySpaceProvider> serviceProviders() {
        List<MemorySpaceProvider> l = loaded;
        if (l == null) {
            synchronized (MemorySpaces.class) {
                l = loaded;
                if (l == null) {
                    List<MemorySpaceProvider> found = new ArrayList<>();
                    ServiceLoader.load(MemorySpaceProvider.class).forEach(found::add);
                    l = List.copyOf(found);
                    loaded = l;
                }
            }
        }
        return l;
    }

    /** Host memory: allocation from the arena (zeroed; large buffers on huge pages, {@link HostMemory}), copies with {@code MemorySegment.copy}. */
    private static final class Host implements MemorySpaceProvider {
        @Override
        public boolean handles(long memorySpace) {
            return true;
        }

        @Override
        public DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment) {
            return DeviceBuffer.ofHost(this, HostMemory.allocate(arena, byteSize, byteAlignment));
        }

        @Override
        public DeviceBuffer wrapHost(Arena arena, MemorySegment hostMemory) {
            return DeviceBuffer.ofHost(this, hostMemory);
        }

        @Override
        public boolean isHostAccessible() {
            return true;
        }

        @Override
        public Completion write(MemorySegment source, DeviceBuffer destination) {
            copyBytes(source, destination.hostSegment());
            return Completion.DONE;
        }

        @Override
        public Completion read(DeviceBuffer source, MemorySegment destination) {
            copyBytes(source.hostSegment(), destination);
            return Completion.DONE;
        }

        @Override
        public Completion copy(DeviceBuffer source, DeviceBuffer destination) {
            copyBytes(source.hostSegment(), destination.hostSegment());
            return Completion.DONE;
        }

        @Override
        public Mapping map(DeviceBuffer buffer, MapMode mode) {
            MemorySegment s = buffer.hostSegment();
            return new Mapping() {
                @Override
                public MemorySegment segment() {
                    return s;
                }

                @Override
                public Completion unmap() {
                    return Completion.DONE;
                }
            };
        }

        @Override
        public String name() {
            return "host";
        }

        private static void copyBytes(MemorySegment from, MemorySegment to) {
            if (from.byteSize() != to.byteSize()) {
                throw new IllegalArgumentException("copy: source of " + from.byteSize() + " bytes, destination of "
                        + to.byteSize());
            }
            MemorySegment.copy(from, 0, to, 0, from.byteSize());
        }
    }
}
