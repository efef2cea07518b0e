package dev.tegula.core;

import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.testing.Permutations;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Properties of the text form, the index math, the sizes, the address calculators and the
 * iteration orders over random small shapes ({@link RandomShapes}); the index math is checked
 * against {@link ReferenceIndex}, a plain re-implementation of spec section 7.
 */
class ShapeProperties {

    @Property
    void printedTextParsesBackToAnEqualShape(@ForAll(supplier = RandomShapes.AnyShapes.class) Shape s) {
        String text = s.toString();
        Shape back = Shape.parse(text);
        assertEquals(s, back, text);
        assertEquals(s.hashCode(), back.hashCode(), text);
        assertEquals(text, back.toString());
        // without layouts the text still parses, to the same shape with default layouts
        Shape plain = Shape.parse(s.toStringWithoutLayout());
        assertEquals(s.toStringWithoutLayout(), plain.toStringWithoutLayout());
    }

    @Property
    void linearIndexIsABijectionOntoTheElementSlots(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        Statistics.label("layout").collect(s.layout().hasPaddedDimensions() ? "legacy"
                : s.layout().isTiled() ? "tiled" : "untiled");
        long slots = s.slotCount();
        assertEquals(ReferenceIndex.slotCount(s), slots, s.toString());
        assertTrue(slots >= s.elementCount(), s.toString());
        boolean[] used = new boolean[(int) slots];
        long[] count = {0};
        s.forEachIndex(i -> {
            long lin = s.linearIndex(i);
            assertTrue(lin >= 0 && lin < slots, () -> s + " " + List.of(i) + " -> " + lin);
            assertFalse(used[(int) lin], () -> s + ": two indices map to slot " + lin);
            used[(int) lin] = true;
            assertEquals(ReferenceIndex.linearIndex(s, i), lin, () -> s + " at " + java.util.Arrays.toString(i));
            assertArrayEquals(i, s.multiIndex(lin), () -> s + " slot " + lin);
            count[0]++;
        });
        assertEquals(s.elementCount(), count[0]);
        long elementSlots = 0;
        int paddingChecked = 0;
        for (long slot = 0; slot < slots; slot++) {
            boolean element = s.isElementSlot(slot);
            assertEquals(used[(int) slot], element, s + " slot " + slot);
            if (element) {
                elementSlots++;
            } else if (paddingChecked++ < 3) {
                long p = slot;
                assertThrows(IndexOutOfBoundsException.class, () -> s.multiIndex(p));
            }
        }
        assertEquals(s.elementCount(), elementSlots, s.toString());
        assertFalse(s.isElementSlot(-1));
        assertFalse(s.isElementSlot(slots));
    }

    @Property
    void sizesFollowSpecSection8(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        long n = 1;
        for (long d : s.dimensions()) {
            n *= d;
        }
        assertEquals(n, s.elementCount());
        assertEquals(ReferenceIndex.bytes(s, n), s.byteSize(), s.toString());
        assertEquals(ReferenceIndex.bytes(s, s.slotCount()), s.bufferSize(), s.toString());
        assertTrue(s.bufferSize() >= s.byteSize(), s.toString());
        List<Tile> tiles = s.layout().tiles();
        if (tiles.size() == 1 && !tiles.get(0).hasCombinedDimensions() && s.layout().splitConfigs().isEmpty()) {
            // one tile, no '*', no splits: XLA's ArraySize and the general padded count agree
            assertEquals(s.bufferSize(), s.xlaArraySize(), s.toString());
        }
        if (!s.layout().isTiled() && !s.layout().hasPaddedDimensions()) {
            assertEquals(s.byteSize(), s.bufferSize(), s.toString());
            assertEquals(s.byteSize(), s.xlaArraySize(), s.toString());
        }
    }

    @Property
    void everyAddressingAgreesWithLinearIndex(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        Addressing a = Addressing.of(s);
        Statistics.label("addressing").collect(a.getClass().getSimpleName());
        assertEquals(s.slotCount(), a.slotCount());
        assertEquals(s.bufferSize(), a.bufferSize());
        assertEquals(s.slotBits(), a.slotBits());
        assertEquals(s.slotBits() < 8, a.isPacked());
        long bits = a.slotBits();
        s.forEachIndex(i -> {
            long lin = s.linearIndex(i);
            assertEquals(lin, a.slot(i), () -> a + " " + java.util.Arrays.toString(i));
            long byteOffset = a.byteOffset(i);
            switch (i.length) {
                case 1 -> {
                    assertEquals(lin, a.slot(i[0]));
                    assertEquals(byteOffset, a.byteOffset(i[0]));
                }
                case 2 -> {
                    assertEquals(lin, a.slot(i[0], i[1]));
                    assertEquals(byteOffset, a.byteOffset(i[0], i[1]));
                }
                case 3 -> {
                    assertEquals(lin, a.slot(i[0], i[1], i[2]));
                    assertEquals(byteOffset, a.byteOffset(i[0], i[1], i[2]));
                }
                case 4 -> {
                    assertEquals(lin, a.slot(i[0], i[1], i[2], i[3]));
                    assertEquals(byteOffset, a.byteOffset(i[0], i[1], i[2], i[3]));
                }
                default -> { }
            }
            // bit position of the slot: slot*bits from the start of the buffer
            assertEquals(lin * bits / 8, byteOffset);
            assertEquals(byteOffset, a.byteOffsetOfSlot(lin));
            assertEquals(a.isPacked() ? (int) (lin * bits % 8) : 0, a.bitShift(lin));
            assertTrue(byteOffset < s.bufferSize(), () -> a + " byte " + byteOffset);
            if (a.isPacked()) {
                assertTrue(a.bitShift(lin) + bits <= 8, "a packed element never straddles a byte");
            }
        });
        if (s.rank() > 0) {
            long[] bad = s.dimensions();   // one past the end in every dimension
            assertThrows(IndexOutOfBoundsException.class, () -> a.slot(bad));
            long[] negative = new long[s.rank()];
            negative[s.rank() - 1] = -1;
            assertThrows(IndexOutOfBoundsException.class, () -> a.slot(negative));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> a.slot(new long[s.rank() + 1]));
    }

    /**
     * {@link Tiled2} and {@link TiledN} take a shift-and-mask path when the tile
     * sizes are powers of two: large tiles like {@code T(8,128)(2,1)}, mixed with sizes that are not
     * powers of two (which keep the division path), on dims that are not multiples of the tile.
     */
    @Property(tries = 200)
    void tiledAddressingWithLargeTilesAgreesWithTheReference(@ForAll("minor2Tiled") ArrayShape s) {
        Addressing a = Addressing.of(s);
        assertTrue(a instanceof Tiled2 || a instanceof TiledN, a.toString());
        Statistics.label("addressing").collect(a.getClass().getSimpleName());
        s.forEachIndex(i -> {
            long expected = ReferenceIndex.linearIndex(s, i);
            assertEquals(expected, s.linearIndex(i), () -> s + " " + java.util.Arrays.toString(i));
            assertEquals(expected, a.slot(i), () -> a + " " + java.util.Arrays.toString(i));
            if (i.length == 2) {
                assertEquals(expected, a.slot(i[0], i[1]), () -> a + " " + java.util.Arrays.toString(i));
            } else if (i.length == 3) {
                assertEquals(expected, a.slot(i[0], i[1], i[2]), () -> a + " " + java.util.Arrays.toString(i));
            }
        });
        long[] bad = s.dimensions();
        assertThrows(IndexOutOfBoundsException.class, () -> a.slot(bad));
        long[] negative = new long[s.rank()];
        negative[0] = -1;
        assertThrows(IndexOutOfBoundsException.class, () -> a.slot(negative));
    }

    @Provide
    Arbitrary<ArrayShape> minor2Tiled() {
        long[] sizes = {1, 2, 3, 4, 6, 8, 16, 32, 100, 128};
        return Arbitraries.randomValue(r -> {
            int rank = 2 + r.nextInt(2);
            long[] dims = new long[rank];
            for (int d = 0; d < rank; d++) {
                dims[d] = rank == 3 && d == 0 ? 1 + r.nextInt(3) : 1 + r.nextInt(r.nextBoolean() ? 20 : 300);
            }
            long a = sizes[r.nextInt(7)];
            long b = sizes[r.nextInt(sizes.length)];
            long c = sizes[r.nextInt(7)];
            Layout l = Layout.of(Permutations.shuffled(r, rank));
            l = r.nextBoolean() ? l.withTiles(Tile.of(a, b)) : l.withTiles(Tile.of(a, b), Tile.of(c, 1));
            ElementType t = r.nextBoolean() ? ElementType.F32 : ElementType.BF16;
            return ArrayShape.of(t, dims).withLayout(l);
        }).filter(s -> s.slotCount() <= 60_000);
    }

    @org.junit.jupiter.api.Test
    void powerOfTwoTilesMatchTheReferenceOnCommonLayouts() {
        for (String text : new String[] {"f32[20,300]{1,0:T(8,128)}", "f32[20,300]{0,1:T(8,128)}",
                "bf16[17,260]{1,0:T(8,128)(2,1)}", "bf16[17,260]{0,1:T(8,128)(2,1)}", "f32[9,13]{1,0:T(2,4)(4,1)}",
                "f32[3,20,300]{2,1,0:T(8,128)}", "bf16[3,17,260]{1,2,0:T(8,128)(2,1)}", "f32[20,30]{1,0:T(8,6)}",
                "f32[20,30]{1,0:T(6,8)(2,1)}", "f32[20,30]{1,0:T(8,8)(3,1)}"}) {
            ArrayShape s = ArrayShape.parse(text);
            Addressing a = Addressing.of(s);
            assertTrue(a instanceof Tiled2 || a instanceof TiledN, text);
            s.forEachIndex(i -> assertEquals(ReferenceIndex.linearIndex(s, i), a.slot(i),
                    () -> text + " " + java.util.Arrays.toString(i)));
        }
    }

    @Property
    void iterationOrders(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        long[] dims = s.dimensions();
        int[] m = s.layout().minorToMajor();
        List<long[]> rowMajor = new ArrayList<>();
        s.forEachIndex(i -> rowMajor.add(i.clone()));
        List<long[]> layoutOrder = new ArrayList<>();
        s.forEachIndexInLayoutOrder(i -> layoutOrder.add(i.clone()));
        assertEquals(s.elementCount(), rowMajor.size());
        assertEquals(s.elementCount(), layoutOrder.size());
        for (int k = 0; k < rowMajor.size(); k++) {
            long[] expected = new long[dims.length];
            long rest = k;
            for (int d = dims.length - 1; d >= 0; d--) {   // last logical dim fastest
                expected[d] = rest % dims[d];
                rest /= dims[d];
            }
            assertArrayEquals(expected, rowMajor.get(k));
            rest = k;
            for (int j = 0; j < m.length; j++) {            // minor_to_major[0] fastest
                expected[m[j]] = rest % dims[m[j]];
                rest /= dims[m[j]];
            }
            assertArrayEquals(expected, layoutOrder.get(k));
        }
        long[] previous = {-1};
        long[] visited = {0};
        s.forEachIndexInMemoryOrder(i -> {
            long lin = s.linearIndex(i);
            assertTrue(lin > previous[0], () -> s + ": memory order went back to slot " + lin);
            previous[0] = lin;
            visited[0]++;
        });
        assertEquals(s.elementCount(), visited[0]);
        if (!s.layout().isTiled()) {
            // untiled: layout order is memory order
            long[] prev = {-1};
            s.forEachIndexInLayoutOrder(i -> {
                long lin = s.linearIndex(i);
                assertTrue(lin > prev[0]);
                prev[0] = lin;
            });
        }
    }
}
