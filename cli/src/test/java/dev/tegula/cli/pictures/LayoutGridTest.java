package dev.tegula.cli.pictures;

import dev.tegula.core.ArrayShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LayoutGridTest {
    static LayoutGrid grid(String text) {
        return new LayoutGrid(ArrayShape.parse(text));
    }

    @Test
    void figureOneSlots() {
        LayoutGrid g = grid("f32[3,5]{1,0:T(2,2)}");
        assertArrayEquals(new long[][] {{0, 1, 4, 5, 8}, {2, 3, 6, 7, 10}, {12, 13, 16, 17, 20}}, g.slice(new long[0]));
        assertEquals(2, g.rowTileExtent());
        assertEquals(2, g.columnTileExtent());
        assertTrue(g.boundaryAfterRow(1));
        assertFalse(g.boundaryAfterRow(0));
        assertFalse(g.boundaryAfterRow(2));
        assertTrue(g.boundaryAfterColumn(1));
        assertTrue(g.boundaryAfterColumn(3));
        assertFalse(g.boundaryAfterColumn(4));
        assertEquals("9 11 14 15 18 19 21-23", LayoutGrid.formatRuns(g.paddingRuns()));
        assertEquals(9, g.paddingCount());
    }

    @Test
    void columnMajorTilesSwapTheirExtentsOnTheGrid() {
        // physical order dim 1, dim 0: T(2,4) covers 2 of dim 1 (columns) and 4 of dim 0 (rows)
        LayoutGrid g = grid("f32[8,6]{0,1:T(2,4)}");
        assertEquals(4, g.rowTileExtent());
        assertEquals(2, g.columnTileExtent());
    }

    @Test
    void aTileLongerThanTheRankCoversEveryDimension() {
        LayoutGrid g = grid("f32[8]{0:T(2,2)}");
        assertEquals(2, g.columnTileExtent());
        assertArrayEquals(new long[][] {{0, 1, 4, 5, 8, 9, 12, 13}}, g.slice(new long[0]));
    }

    @Test
    void untiledAndCombinedLayoutsDrawNoBoundaries() {
        assertFalse(grid("f32[3,5]").hasTileBoundaries());
        assertEquals("untiled layout", grid("f32[3,5]").noBoundariesReason());
        LayoutGrid c = grid("f32[4,6]{1,0:T(*,3)}");
        assertFalse(c.hasTileBoundaries());
        assertEquals(0, c.rowTileExtent());
        assertEquals(0, c.columnTileExtent());
        // a 1-D tile covers only the columns
        LayoutGrid t = grid("f32[3,300]{1,0:T(128)}");
        assertEquals(0, t.rowTileExtent());
        assertEquals(128, t.columnTileExtent());
        assertFalse(t.boundaryAfterRow(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32[3,5]{1,0:T(2,2)}", "bf16[4,8]{1,0:T(2,4)(2,1)}", "f32[2,3]{1,0:PAD(3,5:zero)}",
            "u32[]{:T(128)}", "f32[8]{0:T(2,2)}", "f32[2,3]{1,0:T(2,2)L(16)}", "s4[5,3]{0,1:T(2,2)E(4)}",
            "f32[2,7,3]{1,2,0:T(2,4)}", "bf16[8,8]{1,0:T(2,4)(2,1,1,1)}", "f32[2,3]", "f32[0,4]{1,0:T(2,2)}"})
    void paddingRunsAreTheSlotsThatHoldNoElement(String text) {
        ArrayShape s = ArrayShape.parse(text);
        List<long[]> expected = new ArrayList<>();
        for (long slot = 0; slot < s.slotCount(); slot++) {
            if (!s.isElementSlot(slot)) {
                if (!expected.isEmpty() && expected.getLast()[1] == slot - 1) {
                    expected.getLast()[1] = slot;
                } else {
                    expected.add(new long[] {slot, slot});
                }
            }
        }
        List<long[]> runs = new LayoutGrid(s).paddingRuns();
        assertEquals(expected.size(), runs.size(), text);
        for (int i = 0; i < runs.size(); i++) {
            assertArrayEquals(expected.get(i), runs.get(i), text);
        }
        assertEquals(s.slotCount() - s.elementCount(), new LayoutGrid(s).paddingCount());
    }

    @Test
    void slicesRunOverTheLeadingDimensionsInRowMajorOrder() {
        LayoutGrid g = grid("f32[2,3,4,5]");
        assertEquals(6, g.sliceCount());
        assertArrayEquals(new long[] {0, 0}, g.sliceIndex(0));
        assertArrayEquals(new long[] {1, 2}, g.sliceIndex(5));
        assertEquals(4, g.rows());
        assertEquals(5, g.columns());
        assertEquals(g.shape().linearIndex(1, 2, 3, 4), g.slot(new long[] {1, 2}, 3, 4));
    }

    @Test
    void formatRunsKeepsPairsAndShortensLongerRuns() {
        assertEquals("", LayoutGrid.formatRuns(List.of()));
        assertEquals("3", LayoutGrid.formatRuns(List.<long[]>of(new long[] {3, 3})));
        assertEquals("3 4", LayoutGrid.formatRuns(List.<long[]>of(new long[] {3, 4})));
        assertEquals("1 3-9", LayoutGrid.formatRuns(List.of(new long[] {1, 1}, new long[] {3, 9})));
    }

    @Test
    void unboundedShapesHaveNoGrid() {
        assertThrows(IllegalArgumentException.class, () -> grid("f32[?,3]"));
    }

    @Test
    void elementPictureDrawsTileBoundaries() {
        String pic = GridPicture.elements(grid("f32[3,5]{1,0:T(2,2)}"), false);
        String expected = """
                     0  1    2  3    4
                  +-------+-------+----+
                0 |  0  1 |  4  5 |  8 |
                1 |  2  3 |  6  7 | 10 |
                  +-------+-------+----+
                2 | 12 13 | 16 17 | 20 |
                  +-------+-------+----+
                slots: 24 in all, 15 hold elements, 9 are padding: 9 11 14 15 18 19 21-23
                """;
        assertEquals(expected, pic);
    }

    @Test
    void tilePictureShowsTheSlotOfEachTileCorner() {
        String pic = GridPicture.tiles(grid("f32[3,5]{1,0:T(2,2)}"), new long[0], 64);
        assertTrue(pic.contains("""
                     0  2  4
                  +----------+
                0 |  0  4  8 |
                2 | 12 16 20 |
                  +----------+
                """), pic);
    }

    @Test
    void sliceOptionIsChecked() {
        assertArrayEquals(new long[] {1, 2}, GridPicture.parseSlice("1, 2", 4));
        assertArrayEquals(new long[0], GridPicture.parseSlice("", 2));
        assertThrows(IllegalArgumentException.class, () -> GridPicture.parseSlice("1", 4));
        assertThrows(IllegalArgumentException.class, () -> GridPicture.parseSlice("a,b", 4));
        assertThrows(IllegalArgumentException.class,
                () -> GridPicture.checkSlice(new long[] {2}, ArrayShape.parse("f32[2,3,4]")));
    }
}
