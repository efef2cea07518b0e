package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.DeviceBuffer;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.ffm.Mapping;
import dev.tegula.ffm.MemorySpaceProvider;
import dev.tegula.ffm.MemorySpaces;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufType;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files straight into device memory: {@code TensorFiles.readAs} into a layout of a device's memory
 * space lays the tensor out in one mapping of the device buffer, written once (a simulated device:
 * memory behind handles, maps that stage as a discrete GPU does).
 */
class DeviceReadTest {
    static final long SPACE = 11;

    /** A device whose memory the host reaches only by mapping; counts maps and bytes read back from it. */
    static final class StagingDevice implements MemorySpaceProvider {
        final AtomicInteger maps = new AtomicInteger();
        final AtomicLong bytesFromDevice = new AtomicLong();
        final AtomicLong copies = new AtomicLong();
        private final AtomicLong next = new AtomicLong(1);
        private final Map<Long, MemorySegment> memory = new ConcurrentHashMap<>();

        @Override
        public boolean handles(long memorySpace) {
            return memorySpace == SPACE;
        }

        @Override
        public boolean isHostAccessible() {
            return false;
        }

        @Override
        public DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment) {
            long h = next.getAndIncrement();
            memory.put(h, Arena.ofAuto().allocate(Math.max(1, byteSize), byteAlignment).asSlice(0, byteSize));
            return DeviceBuffer.of(this, h, byteSize, MemorySegment.NULL.reinterpret(0, arena, s -> memory.remove(h)));
        }

        private MemorySegment bytes(DeviceBuffer b) {
            b.checkAccess();
            return memory.get(b.handle()).asSlice(b.byteOffset(), b.byteSize());
        }

        @Override
        public Completion write(MemorySegment source, DeviceBuffer destination) {
            copies.incrementAndGet();
            bytes(destination).copyFrom(source);
            return Completion.DONE;
        }

        @Override
        public Completion read(DeviceBuffer source, MemorySegment destination) {
            copies.incrementAndGet();
            destination.copyFrom(bytes(source));
            return Completion.DONE;
        }

        @Override
        public Completion copy(DeviceBuffer source, DeviceBuffer destination) {
            copies.incrementAndGet();
            bytes(destination).copyFrom(bytes(source));
            return Completion.DONE;
        }

        @Override
        public Mapping map(DeviceBuffer buffer, MapMode mode) {
            maps.incrementAndGet();
            MemorySegment dev = bytes(buffer);
            Arena staging = Arena.ofConfined();
            MemorySegment host = staging.allocate(Math.max(1, dev.byteSize())).asSlice(0, dev.byteSize());
            if (mode != MapMode.WRITE) {
                host.copyFrom(dev);
                bytesFromDevice.addAndGet(dev.byteSize());
            }
            return new Mapping() {
                @Override
                public MemorySegment segment() {
                    return host;
                }

                @Override
                public Completion unmap() {
                    if (mode != MapMode.READ) {
                        dev.copyFrom(host);
                    }
                    staging.close();
                    return Completion.DONE;
                }
            };
        }
    }

    private final StagingDevice device = new StagingDevice();

    @TempDir
    Path dir;

    @AfterEach
    void unregister() {
        MemorySpaces.unregister(device);
    }

    private static Array weights(Arena a) {
        Array w = Array.allocate(a, ArrayShape.parse("f32[16,256]"));
        float[] v = new float[16 * 256];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 61) * 0.5f - 3;
        }
        w.copyFrom(v);
        return w;
    }

    @Test
    void aSafetensorsTensorLandsInATiledDeviceBufferThroughOneWriteMapping() throws IOException {
        MemorySpaces.register(device);
        Path file = dir.resolve("w.safetensors");
        try (Arena a = Arena.ofConfined()) {
            Array w = weights(a);
            SafeTensors.write(Map.of("w", w), file);
            Layout tiled = Layout.parse("{1,0:T(8,128)S(" + SPACE + ")}");
            int mapsBefore = device.maps.get();
            Array dev = TensorFiles.readAs(file, "w", tiled, a);
            assertFalse(dev.isHostAccessible());
            assertEquals(tiled, dev.shape().layout());
            assertEquals(mapsBefore + 2, device.maps.get(), "one mapping to allocate (zeros), one to read into");
            assertEquals(0, device.bytesFromDevice.get(), "both mappings were for writing: nothing read back");
            assertEquals(0, device.copies.get());
            try (MappedArray m = dev.map(MapMode.READ)) {
                assertTrue(m.array().contentEquals(w));
            }
        }
    }

    @Test
    void aGgufTensorIsDequantizedIntoDeviceTiles() throws IOException {
        MemorySpaces.register(device);
        Path file = dir.resolve("w.gguf");
        try (Arena a = Arena.ofConfined()) {
            Array w = weights(a);
            Gguf.writer().tensor("w", w, GgufType.Q8_0).write(file);
            Array host = Gguf.readAs(file, "w", ArrayShape.parse("f32[16,256]{1,0:T(8,128)}"), a);
            Array dev = TensorFiles.readAs(file, "w", ArrayShape.parse("f32[16,256]{1,0:T(8,128)S(" + SPACE + ")}"), a);
            assertEquals(0, device.bytesFromDevice.get());
            try (MappedArray m = dev.map(MapMode.READ)) {
                assertEquals(-1, host.byteSpan().mismatch(m.array().byteSpan()), "the same tiles, bit for bit");
            }
        }
    }

    @Test
    void loadReadsEverySelectedTensorOfAFileIntoDeviceTilesOnce() throws IOException {
        MemorySpaces.register(device);
        Path file = dir.resolve("m.safetensors");
        try (Arena a = Arena.ofConfined()) {
            Array w = weights(a);
            Array bias = Array.allocate(a, ArrayShape.parse("f32[256]"));
            bias.fill(0.25);
            SafeTensors.write(Map.of("layer.weight", w, "layer.bias", bias, "skip.weight", w), file);
            ConvertRules rules = ConvertRules.all().exclude("skip.*")
                    .layout("rank2:*", "{1,0:T(8,128)S(" + SPACE + ")}").layout("rank1:*", "{0:S(" + SPACE + ")}")
                    .layout("nothing.matches", "{1,0}");
            LoadReport r = TensorFiles.load(file, rules, ConvertOptions.defaults(), a);
            assertEquals(java.util.Set.of("layer.weight", "layer.bias"), r.tensors().keySet());
            assertEquals(1, r.unusedRules().size(), r.unusedRules().toString());
            assertEquals(0, device.bytesFromDevice.get(), "every mapping was for writing: nothing read back");
            assertEquals(0, device.copies.get());
            Array dw = r.tensors().get("layer.weight");
            assertEquals("f32[16,256]{1,0:T(8,128)S(" + SPACE + ")}", dw.shape().toString());
            assertEquals(dw.shape().bufferSize() + 256 * 4, r.bytes());
            try (MappedArray m = dw.map(MapMode.READ); MappedArray b = r.tensors().get("layer.bias").map(MapMode.READ)) {
                assertTrue(m.array().contentEquals(w));
                assertTrue(b.array().contentEquals(bias));
            }
        }
    }

    @Test
    void loadDequantizesGgufBlocksIntoDeviceTilesAndSkipsWhatItCannotRead() throws IOException {
        MemorySpaces.register(device);
        Path file = dir.resolve("q.gguf");
        try (Arena a = Arena.ofConfined()) {
            Array w = weights(a);
            Gguf.writer().tensor("q", w, GgufType.Q8_0).tensor("p", w, GgufType.F32).write(file);
            ConvertRules rules = ConvertRules.all().layout("q", "{1,0:T(8,128)S(" + SPACE + ")}")
                    .layout("p", "{1,0,2}");                          // the wrong rank: cannot be read so
            LoadReport r = TensorFiles.load(file, rules, ConvertOptions.defaults().withSkipUnsupported(true), a);
            assertEquals(java.util.Set.of("q"), r.tensors().keySet());
            assertEquals("p", r.skipped().getFirst().name());
            Array host = Gguf.readAs(file, "q", ArrayShape.parse("f32[16,256]{1,0:T(8,128)}"), a);
            try (MappedArray m = r.tensors().get("q").map(MapMode.READ)) {
                assertEquals(-1, host.byteSpan().mismatch(m.array().byteSpan()), "the same tiles, bit for bit");
            }
            var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> TensorFiles.load(file, rules, ConvertOptions.defaults(), a));
            assertTrue(e.getMessage().contains("{1,0,2}"), e.getMessage());
            var none = org.junit.jupiter.api.Assertions.assertThrows(TensorFormatException.class,
                    () -> TensorFiles.load(file, ConvertRules.all().only("absent"), ConvertOptions.defaults(), a));
            assertTrue(none.getMessage().contains("no tensor 'absent'"), none.getMessage());
        }
    }
}
