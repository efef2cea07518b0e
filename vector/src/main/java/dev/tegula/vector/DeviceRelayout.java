package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.ffm.MemorySpaceProvider;
import java.lang.foreign.Arena;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Relayouts where an array is device memory: a device relayout of the provider where both arrays
 * are its memory and it has one for the pair; between host and device one of two routes
 * ({@link DeviceRoute}), chosen by timing the first runs of each pair of shapes. Each byte crosses
 * between host and device once on either route. Thread-safe.
 */
final class DeviceRelayout {
    /** Relayouts between host and device of fewer bytes than this always run mapped. */
    static final long MEASURE_FROM = 1L << 20;
    /** Runs of each route timed before the choice. */
    private static final int RUNS = 2;
    /** Pairs of shapes remembered; over this the timings start again. */
    private static final int MAX_PAIRS = 1024;

    /** What one pair of shapes has timed: the faster run of each route, and how many runs were made. */
    private static final class Timings {
        long mapped = Long.MAX_VALUE;
        long staged = Long.MAX_VALUE;
        int runs;
        boolean stagedUnsupported;

        synchronized DeviceRoute next() {
            if (stagedUnsupported) {
                return DeviceRoute.MAPPED;
            }
            if (runs < RUNS) {
                return DeviceRoute.MAPPED;
            }
            if (runs < 2 * RUNS) {
                return DeviceRoute.STAGED;
            }
            return staged < mapped ? DeviceRoute.STAGED : DeviceRoute.MAPPED;
        }

        synchronized void record(DeviceRoute route, long nanos) {
            if (route == DeviceRoute.MAPPED) {
                mapped = Math.min(mapped, nanos);
            } else {
                staged = Math.min(staged, nanos);
            }
            runs++;
        }

        synchronized Optional<DeviceRoute> chosen() {
            if (stagedUnsupported) {
                return Optional.of(DeviceRoute.MAPPED);
            }
            return runs < 2 * RUNS ? Optional.empty() : Optional.of(next());
        }
    }

    /** A pair of shapes between host and a device, in one direction. */
    private record Key(MemorySpaceProvider provider, ArrayShape src, ArrayShape dst) {
    }

    private static final Map<Key, Timings> TIMINGS = new ConcurrentHashMap<>();

    private DeviceRelayout() {
    }

    /** {@return true if either array is device memory, so that {@link #copy} must move it} */
    static boolean involvesDevice(Array src, Array dst) {
        return !src.deviceBuffer().isHost() || !dst.deviceBuffer().isHost();
    }

    /** {@return the route the measurement chose for these two arrays, or empty while it is still timing} */
    static Optional<DeviceRoute> chosen(Array src, Array dst) {
        Key key = key(src, dst);
        if (key == null || !measured(src, dst)) {
            return Optional.of(DeviceRoute.MAPPED);
        }
        Timings t = TIMINGS.get(key);
        return t == null ? Optional.empty() : t.chosen();
    }

    /**
     * Copies {@code src} into {@code dst}, one or both in device memory, with {@code engine} running
     * on host arrays.
     */
    static void copy(Array src, Array dst, DeviceRoute route, BiConsumer<Array, Array> engine) {
        RelayoutChecks.checkCompatible(src.shape(), dst.shape());
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination array is read-only");
        }
        MemorySpaceProvider p = src.memorySpaceProvider();
        if (!src.deviceBuffer().isHost() && !dst.deviceBuffer().isHost() && p == dst.memorySpaceProvider()) {
            src.deviceBuffer().checkAccess();
            dst.deviceBuffer().checkAccess();
            Completion c = p.relayout(src, dst);
            if (c != null) {
                c.await();
                return;
            }
            mapped(src, dst, engine);
            return;
        }
        Key key = key(src, dst);
        if (key == null || route == DeviceRoute.MAPPED || (route == DeviceRoute.MEASURE && !measured(src, dst))) {
            mapped(src, dst, engine);
            return;
        }
        if (route == DeviceRoute.STAGED) {
            if (!staged(src, dst)) {
                mapped(src, dst, engine);
            }
            return;
        }
        if (TIMINGS.size() > MAX_PAIRS) {
            TIMINGS.clear();
        }
        Timings t = TIMINGS.computeIfAbsent(key, k -> new Timings());
        DeviceRoute now = t.next();
        long start = System.nanoTime();
        if (now == DeviceRoute.STAGED) {
            if (!staged(src, dst)) {
                synchronized (t) {
                    t.stagedUnsupported = true;
                }
                mapped(src, dst, engine);
                return;
            }
        } else {
            mapped(src, dst, engine);
        }
        t.record(now, System.nanoTime() - start);
    }

    /** {@return the key of a pair that can take either route, or null where only the mapped one applies} */
    private static Key key(Array src, Array dst) {
        boolean toDevice = src.deviceBuffer().isHost() && !dst.deviceBuffer().isHost();
        boolean toHost = !src.deviceBuffer().isHost() && dst.deviceBuffer().isHost();
        if (!toDevice && !toHost) {
            return null;
        }
        Array host = toDevice ? src : dst;
        Array device = toDevice ? dst : src;
        if (!host.isDense() || !device.isDense()) {
            return null;
        }
        return new Key(device.memorySpaceProvider(), src.shape(), dst.shape());
    }

    /** {@return true if the pair is large enough for {@link DeviceRoute#MEASURE} to time both routes} */
    private static boolean measured(Array src, Array dst) {
        return Math.max(src.shape().bufferSize(), dst.shape().bufferSize()) >= MEASURE_FROM;
    }

    /**
     * The staged route: the host array's bytes copied as they are into a device buffer of its layout
     * on the other array's device, and the layout changed there by the provider's relayout.
     *
     * @return false, having written nothing into {@code dst}, where the provider has no relayout for the pair
     */
    private static boolean staged(Array src, Array dst) {
        boolean toDevice = src.deviceBuffer().isHost();
        Array device = toDevice ? dst : src;
        MemorySpaceProvider p = device.memorySpaceProvider();
        long space = device.shape().layout().memorySpace();
        try (Arena arena = Arena.ofConfined()) {
            if (toDevice) {
                Array stage = Array.allocate(arena, src.shape().withLayout(src.shape().layout().withMemorySpace(space)));
                src.copyTo(stage);
                Completion c = p.relayout(stage, dst);
                if (c == null) {
                    return false;
                }
                c.await();
            } else {
                Array stage = Array.allocate(arena, dst.shape().withLayout(dst.shape().layout().withMemorySpace(space)));
                Completion c = p.relayout(src, stage);
                if (c == null) {
                    return false;
                }
                c.await();
                stage.copyTo(dst);
            }
        }
        return true;
    }

    /** The engine on mappings of the device buffers, the destination mapped for writing only when it is a whole buffer. */
    private static void mapped(Array src, Array dst, BiConsumer<Array, Array> engine) {
        MapMode mode = dst.isDense() ? MapMode.WRITE : MapMode.READ_WRITE;
        try (MappedArray from = map(src, MapMode.READ, "src"); MappedArray to = map(dst, mode, "dst")) {
            RelayoutChecks.checkArrays(from.array(), to.array());
            engine.accept(from.array(), to.array());
        }
    }

    private static MappedArray map(Array a, MapMode mode, String name) {
        try {
            return a.map(mode);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(name + ": memory space S(" + a.shape().layout().memorySpace()
                    + ") is not host-addressable and its provider cannot map it: " + e.getMessage(), e);
        }
    }
}
