package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Sizes near {@code Long.MAX_VALUE} given to the entry points that multiply them ({@link Array#allocate},
 * {@link Array#wrapStrided}, {@link Array#reshape}, {@link Array#slice}) are refused with an
 * {@link IllegalArgumentException} that names the shape or dimensions, never an
 * {@link ArithmeticException} from an overflowing product.
 */
class SizeOverflowTest {
    private static final long MAX = Long.MAX_VALUE;

    /** {@return the message of the IllegalArgumentException that {@code call} throws, after checking it names {@code named}} */
    private static String refused(Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(named), e.getMessage() + " does not name " + named);
        return e.getMessage();
    }

    @Test
    void allocateRefusesABufferWhoseAlignedSizeOverflows() {
        for (String text : new String[] {"u8[9223372036854775807]", "u8[9223372036854775800]", "pred[9223372036854775807]",
                "f32[2305843009213693951]", "u8[4611686018427387903,2]", "c128[576460752303423487]",
                "u8[9223372036854775807]{0:S(1)}"}) {
            ArrayShape shape = ArrayShape.parse(text);
            refused(() -> Array.allocate(Arena.ofAuto(), shape), shape.toString());
        }
    }

    @Test
    void hostMemoryGivesAnUnroundableSizeToTheArena() {
        // the huge-page path would round the size up past Long.MAX_VALUE; the arena refuses it as the JDK does
        assertThrows(OutOfMemoryError.class, () -> HostMemory.allocate(Arena.ofAuto(), MAX - 10, 64));
        assertThrows(OutOfMemoryError.class, () -> HostMemory.allocate(Arena.ofAuto(), MAX - HostMemory.HUGE_PAGE, 64));
    }

    @Test
    void wrapStridedRefusesAnExtentPastTheLargestOffset() {
        MemorySegment small = MemorySegment.ofArray(new byte[64]);
        ArrayShape f32x3 = ArrayShape.of(ElementType.F32, 3);
        // the offset plus the strides' reach overflows
        refused(() -> Array.wrapStrided(small, f32x3, MAX - 1, new long[] {1}, null), "slotStrides");
        refused(() -> Array.wrapStrided(small, f32x3, 1, new long[] {MAX / 2 + 1}, null), f32x3.toString());
        // the slot count fits, its bytes do not
        refused(() -> Array.wrapStrided(small, f32x3, MAX / 4, new long[] {1}, null), "reaches beyond");
        ArrayShape m = ArrayShape.of(ElementType.U8, 2, 3);
        refused(() -> Array.wrapStrided(small, m, 0, new long[] {MAX, 1}, null), "[" + MAX + ", 1]");
        // a reach that fits is only too large for the segment
        refused(() -> Array.wrapStrided(small, f32x3, 0, new long[] {MAX / 128}, null), "too small");
    }

    @Test
    void reshapeRefusesDimensionsWhoseElementCountOverflows() {
        Array a = Array.allocate(Arena.ofAuto(), ArrayShape.of(ElementType.F32, 4));
        refused(() -> a.reshape(MAX, MAX), "[" + MAX + ", " + MAX + "]");
        refused(() -> a.reshape(2, MAX / 2 + 1), "f32[4]");
        refused(() -> a.reshape(MAX, 2, 0), "[" + MAX + ", 2, 0]");
        assertEquals(2, a.reshape(2, 2).shape().dimension(0));
    }

    @Test
    void reshapeOfAnEmptyArrayCountsZeroWhereverTheZeroIs() {
        Array empty = Array.allocate(Arena.ofAuto(), ArrayShape.of(ElementType.F32, 0, 3));
        // the product of the other sizes is not taken: a zero anywhere makes the count zero
        assertArrayEquals(new long[] {3, 0, 7}, empty.reshape(3, 0, 7).shape().dimensions());
        assertArrayEquals(new long[] {0, 0}, empty.reshape(0, 0).shape().dimensions());
    }

    @Test
    void aSliceWithAHugeStepKeepsOneElement() {
        Array a = Array.allocate(Arena.ofAuto(), ArrayShape.of(ElementType.S32, 5, 4));
        for (long i = 0; i < 20; i++) {
            a.segment().setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i, (int) i);
        }
        Array s = a.slice(1, 1, 4, MAX);
        assertArrayEquals(new long[] {5, 1}, s.shape().dimensions());
        assertEquals(9, s.getInt(2, 0));
        Array t = a.slice(0, 2, 5, MAX - 1);
        assertArrayEquals(new long[] {1, 4}, t.shape().dimensions());
        assertEquals(11, t.getInt(0, 3));
    }
}
