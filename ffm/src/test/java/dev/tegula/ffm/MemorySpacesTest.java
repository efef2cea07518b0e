package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(e.getMessage().contains("S(3)") && e.getMessage().contains("copyTo"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> dev.setFloat(new long[] {0, 0}, 1f));
        assertThrows(IllegalStateException.class, () -> dev.fill(1.0));
        assertThrows(IllegalStateException.class, dev::toFloatArray);
        assertTrue(dev.toString().contains("not host-accessible"), dev.toString());

        host.copyTo(dev);
        assertEquals(1, device3.copies.get());
        Array back = Array.allocate(arena, host.shape());
        dev.copyTo(back);
        assertEquals(2, device3.copies.get());
        assertTrue(back.contentEquals(host));

        Array devView = dev.permute(1, 0);                 // views are metadata: fine off-host
        assertFalse(devView.isHostAccessible());
        assertThrows(IllegalArgumentException.class, () -> dev.copyTo(Array.allocate(arena, shape("bf16[16,256]"))));
    }

    @Test
    void wrappedSegmentsTakeTheLayoutsProvider() {
        MemorySpaces.register(device3);
        Array a = Array.wrap(arena.allocate(24), shape("f32[2,3]{1,0:S(3)}"));
        assertFalse(a.isHostAccessible());
        assertThrows(IllegalStateException.class, () -> a.getDouble(0, 0));
        MemorySpaces.unregister(device3);
        assertTrue(Array.wrap(arena.allocate(24), shape("f32[2,3]{1,0:S(3)}")).isHostAccessible());
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
