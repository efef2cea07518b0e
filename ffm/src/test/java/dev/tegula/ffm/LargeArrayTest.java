package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * More than 2^31 elements and more than 4 GiB: 5 GiB of u8, allocated in a confined arena and
 * released at the end of each test. Only a few far elements are touched.
 */
class LargeArrayTest {
    private static final long N = 5L << 30;

    @Test
    void fiveGibibytesOfU8ByFlatAndRank2Index() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.U8, N));
            assertEquals(N, a.segment().byteSize());
            long[] far = {0, (1L << 31) + 5, (1L << 32) + 7, N - 1};
            for (long i : far) {
                assertEquals(0, a.getInt(i));
                a.setInt(i, (int) (i % 251));
            }
            for (long i : far) {
                assertEquals(i % 251, a.getLong(i));
                assertEquals((byte) (i % 251), a.segment().get(ValueLayout.JAVA_BYTE, i));
            }
            Array m = a.reshape(5, 1L << 30);
            assertEquals((N - 1) % 251, m.getLong(4, (1L << 30) - 1));
            Array t = m.permute(1, 0);
            assertEquals(((1L << 32) + 7) % 251, t.getLong(7, 4));
            Array tail = m.select(0, 4).slice(0, (1L << 30) - 2, 1L << 30);
            assertEquals(4L << 30 | ((1L << 30) - 2), tail.slotOffset());
            assertEquals((N - 1) % 251, tail.getLong(1));
        }
    }

    @Test
    void largeTiledArrayAddressesBeyondFourGibibytes() {
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape s = (ArrayShape) dev.tegula.core.Shape.parse("u8[40,1024,131072]{2,1,0:T(8,128)}");
            assertTrue(s.bufferSize() > (4L << 30));
            Array a = Array.allocate(arena, s);
            assertNull(a.slotStrides());
            a.setInt(39, 1023, 131071, 200);
            a.setInt(33, 17, 300, 9);
            assertEquals(200, a.getInt(39, 1023, 131071));
            assertEquals(9, a.getInt(33, 17, 300));
            assertEquals(s.bufferSize() - 1, a.slot(39, 1023, 131071));
            Array last = a.select(0, 39);
            assertEquals(200, last.getInt(1023, 131071));
        }
    }
}
