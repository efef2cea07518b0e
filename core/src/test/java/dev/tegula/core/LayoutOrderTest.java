package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Layout#isRowMajor()}, {@link Layout#isColumnMajor()} and {@link Layout#coveredDimensions(int)}. */
class LayoutOrderTest {

    @Test
    void rowAndColumnMajorLookAtTheDimensionOrderOnly() {
        assertTrue(Layout.rowMajor(3).isRowMajor());
        assertFalse(Layout.rowMajor(3).isColumnMajor());
        assertTrue(Layout.columnMajor(3).isColumnMajor());
        assertFalse(Layout.columnMajor(3).isRowMajor());
        assertFalse(Layout.of(1, 0, 2).isRowMajor());
        assertFalse(Layout.of(1, 0, 2).isColumnMajor());
        assertTrue(Layout.of(1, 0).withTiles(Tile.of(8, 128)).isRowMajor());
        assertTrue(Layout.of(0).isRowMajor());
        assertTrue(Layout.of(0).isColumnMajor());
        assertTrue(Layout.of().isRowMajor());
    }

    @Test
    void coveredDimensionsAreTheMostMinorPhysicalOnesMostMajorFirst() {
        assertArrayEquals(new int[] {0, 1}, Layout.of(1, 0).coveredDimensions(2));
        assertArrayEquals(new int[] {1, 0}, Layout.of(0, 1).coveredDimensions(2));
        assertArrayEquals(new int[] {2}, Layout.of(2, 0, 1).coveredDimensions(1));
        assertArrayEquals(new int[] {0, 2}, Layout.of(2, 0, 1).coveredDimensions(2));
        assertArrayEquals(new int[] {1, 0}, Layout.of(0, 1).coveredDimensions(5));
        assertArrayEquals(new int[] {}, Layout.of(1, 0).coveredDimensions(0));
        assertThrows(IllegalArgumentException.class, () -> Layout.of(1, 0).coveredDimensions(-1));
    }
}
