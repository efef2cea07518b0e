package dev.tegula.vector;

import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.ffm.MemorySpaceProvider;
import java.util.function.BiConsumer;

/**
 * Relayouts where an array is device memory: a device relayout of the provider where both arrays
 * are its memory and it has one for the pair, else the host engine running straight on mappings of
 * the device buffers (the destination mapped for writing only when the relayout writes its whole
 * buffer), so that each byte crosses between host and device once. Stateless and thread-safe.
 */
final class DeviceRelayout {
    private DeviceRelayout() {
    }

    /** {@return true if either array is device memory, so that {@link #copy} must move it} */
    static boolean involvesDevice(Array src, Array dst) {
        return !src.deviceBuffer().isHost() || !dst.deviceBuffer().isHost();
    }

    /**
     * Copies {@code src} into {@code dst}, one or both in device memory, with {@code engine} running
     * on host arrays.
     */
    static void copy(Array src, Array dst, BiConsumer<Array, Array> engine) {
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
        }
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
