package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * {@link FloatAccessor} reads and writes the element {@link Array#getFloat}/{@link Array#setFloat}
 * do, at every index of random f32 arrays (row-major, permuted, strided views, tiled), and refuses
 * what its one formula does not cover.
 */
class FloatAccessorProperties {

    @Property(tries = 300)
    void accessorReadsAndWritesTheElementsOfTheArray(@ForAll @LongRange(max = 1L << 40) long seed) {
        Random r = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            long[] dims;
            Array a;
            do {
                dims = RunsProperties.randomDims(r);
                a = RunsProperties.randomArray(r, arena, dims);
            } while (a.shape().elementType() != ElementType.F32);
            Array array = a;
            int rank = dims.length;
            if (rank == 0 || !array.carry) {
                assertThrows(IllegalArgumentException.class, array::floatAccessor, array.shape().toString());
                return;
            }
            FloatAccessor x = array.floatAccessor();
            TestArrays.forEachIndex(dims, (o, idx) -> array.setFloat(idx, o));
            TestArrays.forEachIndex(dims, (o, idx) -> {
                assertEquals(array.getFloat(idx), get(x, idx), array.shape() + " at " + Arrays.toString(idx));
                set(x, idx, -o - 1);
            });
            TestArrays.forEachIndex(dims, (o, idx) -> assertEquals(-o - 1f, array.getFloat(idx),
                    array.shape() + " written at " + Arrays.toString(idx)));
            long[] out = dims.clone();
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> get(x, out));
            assertTrue(e.getMessage().contains(Arrays.toString(out)), e.getMessage());
        }
    }

    static float get(FloatAccessor x, long[] i) {
        return switch (i.length) {
            case 1 -> x.get(i[0]);
            case 2 -> x.get(i[0], i[1]);
            case 3 -> x.get(i[0], i[1], i[2]);
            default -> x.get(i[0], i[1], i[2], i[3]);
        };
    }

    static void set(FloatAccessor x, long[] i, float v) {
        switch (i.length) {
            case 1 -> x.set(i[0], v);
            case 2 -> x.set(i[0], i[1], v);
            case 3 -> x.set(i[0], i[1], i[2], v);
            default -> x.set(i[0], i[1], i[2], i[3], v);
        }
    }

    @Test
    void refusesOtherTypesRanksAndTilesAndWrongRankCalls() {
        try (Arena arena = Arena.ofConfined()) {
            for (String text : new String[] {"bf16[4,4]{1,0}", "f32[6,6]{1,0:T(3,3)}", "f32[2,1,2,1,2]{4,3,2,1,0}", "f32[]"}) {
                Array a = Array.allocate(arena, ArrayShape.parse(text));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, a::floatAccessor, text);
                assertTrue(e.getMessage().contains(a.shape().toString()), e.getMessage());
            }
            FloatAccessor x = Array.allocate(arena, ArrayShape.parse("f32[4,8]{1,0:T(2,4)}")).floatAccessor();
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> x.get(1));
            assertTrue(e.getMessage().contains("rank 2"), e.getMessage());
            FloatAccessor ro = Array.allocate(arena, ArrayShape.parse("f32[4]{0}")).asReadOnly().floatAccessor();
            assertThrows(UnsupportedOperationException.class, () -> ro.set(0, 1f));
        }
    }
}
