package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.testing.Permutations;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The inline "carry" formula of {@link ArraySlots} (ranks 1 to 4) gives core's slot
 * ({@link ArrayShape#linearIndex}, the spec's formula) for every index of random tiled layouts, and
 * is used whenever the tiles are powers of two; strided views go through it too, with their offset
 * and strides.
 */
class ArraySlotsCarryProperties {
    private static final ElementType[] TYPES = {ElementType.F32, ElementType.BF16, ElementType.S8, ElementType.F64,
        ElementType.PRED};

    @Provide
    Arbitrary<String> tiledShapes() {
        return Arbitraries.randomValue(ArraySlotsCarryProperties::randomTiled);
    }

    /**
     * Rank 1..4, sizes 1..20 (1..9 above rank 2), a random minor_to_major, one tile of rank 1..rank
     * with sizes 1, 2, 4, 8 (or, one time in five, 3 or 5), and one time in three a second level.
     */
    static String randomTiled(Random r) {
        int rank = 1 + r.nextInt(4);
        ElementType t = TYPES[r.nextInt(TYPES.length)];
        List<String> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            dims.add(Long.toString(1 + r.nextInt(rank > 2 ? 9 : 20)));
        }
        String order = Arrays.stream(Permutations.shuffled(r, rank)).mapToObj(Integer::toString)
                .collect(Collectors.joining(","));
        List<String> tile = new ArrayList<>();
        for (int d = 1 + r.nextInt(rank); d > 0; d--) {
            int k = r.nextInt(10);
            tile.add(Integer.toString(k < 8 ? 1 << (k % 4) : 3 + (k - 8) * 2));
        }
        String second = r.nextInt(3) != 0 ? "" : r.nextBoolean() ? "(2,1)" : "(2)";
        return t.name().toLowerCase() + "[" + String.join(",", dims) + "]{" + order
                + ":T(" + String.join(",", tile) + ")" + second + "}";
    }

    @Property(tries = 300)
    void carryFormulaGivesTheSpecSlot(@ForAll("tiledShapes") String text) {
        ArrayShape shape = ArrayShape.parse(text);
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape);
            if (!text.substring(text.indexOf(":T(")).matches(".*[35].*")) {
                assertTrue(a.carry, text + " has power-of-two tiles: it should use the carry formula");
            }
            TestArrays.forEachIndex(shape.dimensions(), (o, idx) -> assertEquals(shape.linearIndex(idx),
                    rankSpecialisedSlot(a, idx), text + " at " + Arrays.toString(idx)));
        }
    }

    @Test
    void stridedViewsUseTheFormulaWithTheirOffsetAndStrides() {
        try (Arena arena = Arena.ofConfined()) {
            Array base = Array.allocate(arena, ArrayShape.parse("f32[6,7,8,9]{0,2,1,3}"));
            Array[] views = {base.slice(1, 2, 7, 2), base.permute(3, 1, 0, 2), base.select(2, 5),
                base.select(0, 3).select(0, 4), base.select(0, 1).select(0, 2).select(0, 3)};
            for (Array v : views) {
                assertTrue(v.carry);
                assertEquals(0, v.carries);
                long[] strides = v.slotStrides();
                TestArrays.forEachIndex(v.shape().dimensions(), (o, idx) -> {
                    long expected = v.slotOffset();
                    for (int d = 0; d < idx.length; d++) {
                        expected += idx[d] * strides[d];
                    }
                    assertEquals(expected, rankSpecialisedSlot(v, idx), v.shape() + " at " + Arrays.toString(idx));
                });
            }
        }
    }

    @Test
    void headlineLayoutsUseTheFormulaAndOddTilesDoNot() {
        try (Arena arena = Arena.ofConfined()) {
            Array tiled = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{1,0:T(8,128)}"));
            assertTrue(tiled.carry);
            assertEquals(1, tiled.carries);
            Array nested = Array.allocate(arena, ArrayShape.parse("bf16[2,1,16,256]{3,2,0,1:T(8,128)(2,1)}"));
            assertTrue(nested.carry);
            assertEquals(2, nested.carries);
            Array odd = Array.allocate(arena, ArrayShape.parse("f32[12,12]{1,0:T(3,4)}"));
            assertFalse(odd.carry);
            assertEquals(odd.shape().linearIndex(7, 9), ArraySlots.slot(odd, 7, 9));
        }
    }

    static long rankSpecialisedSlot(Array a, long[] idx) {
        return switch (idx.length) {
            case 1 -> ArraySlots.slot(a, idx[0]);
            case 2 -> ArraySlots.slot(a, idx[0], idx[1]);
            case 3 -> ArraySlots.slot(a, idx[0], idx[1], idx[2]);
            case 4 -> ArraySlots.slot(a, idx[0], idx[1], idx[2], idx[3]);
            default -> ArraySlots.slot(a, idx);
        };
    }
}
