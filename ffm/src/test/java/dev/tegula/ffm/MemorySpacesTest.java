package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Memory spaces: host by default, providers registered in code and through META-INF/services. */
class MemorySpacesTest {
    private final Arena arena = Arena.ofConfined();
    private final DeviceMemoryProvider device3 = new DeviceMemoryProvider(3);

    @AfterEach
    void close() {
        MemorySpaces.unregister(device3);
        arena.close();
    }

    @Test
    void everyMemorySpaceIsHostMemoryByDefault() {
        assertSame(MemorySpaces.host(), MemorySpaces.providerFor(1));
        Array a = Array.allocate(arena, shape("f32[2,3]{1,0:S(1)}"));
        assertTrue(a.isHostAccessible());
        a.setFloat(1, 2, 3f);
        assertEquals(3f, a.getFloat(1, 2));
        assertEquals("f32[2,3]{1,0:S(1)}", a.shape().toString());
    }

    @Test
    void serviceLoaderProvidersAreFound() {
        assertInstanceOf(DeviceMemoryProvider.class, MemorySpaces.providerFor(DeviceMemoryProvider.SPACE));
        assertTrue(MemorySpaces.providers().stream().anyMatch(p -> p.handles(DeviceMemoryProvider.SPACE)));
        Array a = Array.allocate(arena, shape("f32[2,3]{1,0:S(7)}"));
        assertFalse(a.isHostAccessible());
    }

    @Test
    void nonHostArraysRefuseElementAccessButMoveThroughTheirProvider() {
        MemorySpaces.register(device3);
        Array host = Array.allocate(arena, shape("bf16[16,256]{1,0:T(8,128)(2,1)}"));
        float[] v = new float[16 * 256];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 97;
        }
        host.copyFrom(v);
        Array dev = Array.allocate(arena, shape("bf16[16,256]{1,0:T(8,128)(2,1)S(3)}"));
        assertEquals(1, device3.allocations.get());
        assertFalse(dev.isHostAccessible());
        assertSame(device3, dev.memorySpaceProvider());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> dev.getFloat(0, 0));
        assertTrue(e.getMessage().contains("S(3)") && e.getMessage().contains("Array.map")
                && e.getMessage().contains("Relayout.copy"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> dev.setFloat(new long[] {0, 0}, 1f));
        assertThrows(IllegalStateException.class, () -> dev.fill(1.0));
        assertThrows(IllegalStateException.class, dev::toFloatArray);
        assertTrue(dev.toString().contains("not host-accessible"), dev.toString());

        int mapsOfAllocation = device3.maps.get();
        host.copyTo(dev);
        assertEquals(1, device3.copies.get());
        assertEquals(host.shape().bufferSize(), device3.bytesMoved.get(), "one copy of the buffer's bytes");
        Array back = Array.allocate(arena, host.shape());
        dev.copyTo(back);
        assertEquals(2, device3.copies.get());
        assertEquals(mapsOfAllocation, device3.maps.get(), "whole-buffer copies map nothing");
        assertTrue(back.contentEquals(host));

        Array devView = dev.permute(1, 0);                 // views are metadata: fine off-host
        assertFalse(devView.isHostAccessible());
        assertThrows(IllegalArgumentException.class, () -> dev.copyTo(Array.allocate(arena, shape("bf16[16,256]"))));
    }

    @Test
    void wrappedSegmentsAreHostMemoryAndWrappedBuffersTheirDevicesMemory() {
        MemorySpaces.register(device3);
        Array a = Array.wrap(arena.allocate(24), shape("f32[2,3]{1,0:S(3)}"));
        assertTrue(a.isHostAccessible());
        assertSame(MemorySpaces.host(), a.memorySpaceProvider());
        DeviceBuffer b = device3.allocate(arena, 24, 64);
        Array d = Array.wrap(b, shape("f32[2,3]{1,0:S(3)}"));
        assertFalse(d.isHostAccessible());
        assertSame(b, d.deviceBuffer());
        assertThrows(IllegalStateException.class, () -> d.getDouble(0, 0));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> Array.wrap(b, shape("f32[2,4]{1,0:S(3)}")));
        assertTrue(small.getMessage().contains("24 bytes") && small.getMessage().contains("32"), small.getMessage());
    }

    @Test
    void aDeviceArrayIsReleasedOnceWhenItsArenaClosesAndThenFailsAsAClosedHostArrayDoes() {
        MemorySpaces.register(device3);
        Array dev;
        Array host;
        try (Arena a = Arena.ofConfined()) {
            dev = Array.allocate(a, shape("f32[4,8]{1,0:S(3)}"));
            host = Array.allocate(a, shape("f32[4,8]"));
            assertEquals(0, device3.releases.get());
        }
        assertEquals(1, device3.releases.get());
        IllegalStateException onDevice = assertThrows(IllegalStateException.class,
                () -> dev.copyTo(Array.allocate(arena, shape("f32[4,8]"))));
        IllegalStateException onHost = assertThrows(IllegalStateException.class, () -> host.getFloat(0, 0));
        assertTrue(onDevice.getMessage().startsWith("Already closed"), onDevice.getMessage());
        assertTrue(onHost.getMessage().startsWith("Already closed"), onHost.getMessage());
        assertThrows(IllegalStateException.class, () -> dev.map(MapMode.READ));
        assertEquals(1, device3.releases.get());
    }

    @Test
    void aMappedDeviceArrayIsAHostArrayOfTheSameLayoutUntilClosed() {
        MemorySpaces.register(device3);
        Array dev = Array.allocate(arena, shape("f32[3,5]{0,1:T(2,2)S(3)}"));
        Array view;
        try (MappedArray m = dev.map(MapMode.READ_WRITE)) {
            view = m.array();
            assertEquals(dev.shape(), view.shape());
            assertTrue(view.isHostAccessible());
            assertEquals(0f, view.getFloat(2, 4), "allocation zeroes device memory");
            view.setFloat(2, 4, 7.5f);
        }
        assertThrows(IllegalStateException.class, () -> view.getFloat(2, 4));
        try (MappedArray m = dev.map(MapMode.READ)) {
            assertEquals(7.5f, m.array().getFloat(2, 4));
            assertThrows(UnsupportedOperationException.class, () -> m.array().setFloat(0, 0, 1f));
        }
        Array host = Array.allocate(arena, shape("f32[3,5]"));
        try (MappedArray m = host.map(MapMode.WRITE)) {
            assertTrue(m.isIdentity());
            assertSame(host, m.array());
        }
    }

    @Test
    void paddingOfADeviceArrayHoldsThePaddingValueAndViewsOfDeviceArraysCopyThroughMappings() {
        MemorySpaces.register(device3);
        Array dev = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3).withLayout(
                Layout.of(1, 0).withPaddedDimensions(PaddingValue.ONE, 3, 4).withMemorySpace(3)));
        try (MappedArray m = dev.map(MapMode.READ)) {
            Array whole = Array.wrap(m.array().segment(), shape("f32[3,4]{1,0}"));
            assertEquals(1f, whole.getFloat(2, 3), "a padding slot");
            assertEquals(1f, whole.getFloat(0, 3), "a padding slot");
            assertEquals(0f, whole.getFloat(1, 2), "an element");
        }
        Array src = Array.allocate(arena, shape("f32[3,5]"));
        src.copyFrom(new float[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
        Array strided = Array.allocate(arena, shape("f32[3,10]{1,0:S(3)}"));
        Array evens = strided.slice(1, 0, 10, 2);
        src.copyTo(evens);
        try (MappedArray m = strided.map(MapMode.READ)) {
            assertEquals(14f, m.array().getFloat(2, 8));
            assertEquals(13f, m.array().getFloat(2, 6));
            assertEquals(0f, m.array().getFloat(2, 9));
        }
    }

    @Test
    void aShapeTooBigForTheDeviceIsRefusedNamingTheShapeAndTheLimit() {
        MemorySpaces.register(device3);
        int before = device3.allocations.get();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Array.allocate(arena, shape("f32[65536,8192]{1,0:S(3)}")));
        assertTrue(e.getMessage().contains("f32[65536,8192]") && e.getMessage().contains("1073741824"), e.getMessage());
        assertEquals(before, device3.allocations.get());
    }

    @Test
    void copyToMovesBetweenMemorySpacesAndRefusesAnotherLayoutNamingTheRelayoutEngine() {
        Array a = Array.allocate(arena, shape("f32[3,5]{1,0:T(2,2)}"));
        float[] v = new float[15];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        a.copyFrom(v);
        Array b = Array.allocate(arena, shape("f32[3,5]{0,1}"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.copyTo(b));
        assertTrue(e.getMessage().contains("Relayout.copy"), e.getMessage());
        Array c = Array.allocate(arena, shape("f32[3,5]{1,0:T(2,2)S(1)}"));
        a.copyTo(c);
        assertTrue(c.contentEquals(a));
        assertThrows(IllegalArgumentException.class, () -> a.copyTo(Array.allocate(arena, shape("f32[5,3]"))));
    }
}
