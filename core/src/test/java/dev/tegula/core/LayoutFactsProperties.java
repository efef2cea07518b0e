package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link ArrayShape#tileExtent(int)}, {@link ArrayShape#majorDimension()} and the text entry points
 * {@link Layout#parse(String)} and {@link ArrayShape#parse(String)} over random small shapes
 * ({@link RandomShapes}); slots come from {@link ReferenceIndex}, the plain re-implementation of
 * spec section 7, never from the code under test.
 */
class LayoutFactsProperties {

    /** The first tile's elements: the slots below its element count when it is the only tile. */
    private static long tileElements(ArrayShape s) {
        return s.layout().tiles().getFirst().elementCount();
    }

    @Property(tries = 500)
    void theFirstTileSpansItsExtentAlongEveryDimension(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        if (!s.layout().isTiled()) {
            for (int d = 0; d < s.rank(); d++) {
                assertEquals(1, s.tileExtent(d), s + " dim " + d);
            }
            return;
        }
        if (s.layout().tiles().size() != 1 || s.elementCount() == 0) {
            return;
        }
        Statistics.label("tile").collect(s.layout().tiles().getFirst().hasCombinedDimensions() ? "with *" : "plain");
        // the tile at the origin holds the slots [0, tile elements); its indices reach, along each
        // dimension, as far as the extent (or the dimension's end)
        long[] reach = new long[s.rank()];
        long inside = tileElements(s);
        s.forEachIndex(i -> {
            if (ReferenceIndex.linearIndex(s, i) < inside) {
                for (int d = 0; d < i.length; d++) {
                    reach[d] = Math.max(reach[d], i[d] + 1);
                }
            }
        });
        for (int d = 0; d < s.rank(); d++) {
            assertEquals(Math.min(s.tileExtent(d), s.dimension(d)), reach[d], s + " dim " + d);
        }
    }

    @Property(tries = 500)
    void indicesShareATileExactlyWhenTheirIndexDividedByTheExtentsIsEqual(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        if (s.layout().tiles().size() != 1 || s.layout().tiles().getFirst().hasCombinedDimensions()
                || s.elementCount() == 0) {
            return;
        }
        long[] extents = new long[s.rank()];
        for (int d = 0; d < extents.length; d++) {
            extents[d] = s.tileExtent(d);
        }
        long tile = tileElements(s);
        Map<List<Long>, Long> tileOf = new HashMap<>();
        Map<Long, List<Long>> keyOf = new HashMap<>();
        s.forEachIndex(i -> {
            Long[] key = new Long[i.length];
            for (int d = 0; d < i.length; d++) {
                key[d] = i[d] / extents[d];
            }
            List<Long> k = List.of(key);
            long t = ReferenceIndex.linearIndex(s, i) / tile;
            assertEquals(t, (long) tileOf.computeIfAbsent(k, x -> t), () -> s + " at " + Arrays.toString(i));
            assertEquals(k, keyOf.computeIfAbsent(t, x -> k), () -> s + " at " + Arrays.toString(i));
        });
    }

    @Property(tries = 300)
    void theMajorDimensionHasTheLargestStrideOfTheDimensionsLongerThanOne(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        int major = s.majorDimension();
        long[] dims = s.dimensions();
        if (Arrays.stream(dims).allMatch(n -> n <= 1)) {
            assertEquals(-1, major, s.toString());
            return;
        }
        assertTrue(major >= 0 && dims[major] > 1, s.toString());
        if (s.layout().isTiled() || s.elementCount() == 0) {
            return;   // tiles have no strides; without elements, strides past a size-0 dimension are 0
        }
        long majorStride = ReferenceIndex.untiledLinear(s, unit(s.rank(), major));
        for (int d = 0; d < dims.length; d++) {
            if (d != major && dims[d] > 1) {
                assertTrue(ReferenceIndex.untiledLinear(s, unit(s.rank(), d)) < majorStride, s + " dim " + d);
            }
        }
    }

    private static long[] unit(int rank, int d) {
        long[] e = new long[rank];
        e[d] = 1;
        return e;
    }

    @Property(tries = 300)
    void everyLayoutParsesBackFromItsText(@ForAll(supplier = RandomShapes.ArrayShapes.class) ArrayShape s) {
        Layout l = s.layout();
        assertEquals(l, Layout.parse(l.toString()), l.toString());
        assertEquals(s, s.withDefaultLayout().withLayout(Layout.parse(l.toString())), s.toString());
    }

    @Property(tries = 300)
    void arrayShapeParseReadsArraysAndRefusesTheRest(@ForAll(supplier = RandomShapes.AnyShapes.class) Shape s) {
        String text = s.toString();
        if (s instanceof ArrayShape a) {
            assertEquals(a, ArrayShape.parse(text));
        } else {
            ShapeParseException e = assertThrows(ShapeParseException.class, () -> ArrayShape.parse(text));
            assertEquals(0, e.offset(), text);
        }
    }
}
