package dev.tegula.cli;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a picture of a layout shows, before it is drawn: the cells of one 2-D grid of the array
 * (element by element, or one cell per tile for large arrays), the tile outlines, the memory order
 * as a path through the cells, and a strip of the buffer's slots in memory order with the padding
 * marked. {@link MapRenderer} draws it on a {@link Canvas}. All index math comes from core
 * ({@link ArrayShape#linearIndex}, {@link ArrayShape#isElementSlot}).
 *
 * <p>Cells and strip slots carry a <em>group</em>: the slot divided by the slots of one tile (tiled
 * layouts) or of one line of the physical minor dimension (untiled layouts). Equal groups get equal
 * colours in the grid and in the strip, so a tile, or a row of a row-major array, is one colour.
 */
final class MapFigure {
    /** The most strip slots drawn one by one; longer buffers show their first slots. */
    static final int STRIP_MAX = 512;
    /** The most strip tiles drawn at block level. */
    static final int STRIP_MAX_TILES = 128;

    /**
     * One cell of the grid.
     *
     * @param row         the cell's row on the grid (in cells)
     * @param column      the cell's column (in cells)
     * @param slot        the slot of the element (element level) or of the block's top-left element
     * @param group       the colour group of {@code slot}
     * @param padding     true for a cell past the array's end that a tile pads (element level only)
     * @param padColumns  the share of the block's columns that lies past the array's end (block level)
     * @param padRows     the share of the block's rows that lies past the array's end (block level)
     */
    record Cell(int row, int column, long slot, long group, boolean padding, double padColumns, double padRows) {
    }

    /** A rectangle of cells: rows {@code [row, row + rows)}, columns {@code [column, column + columns)}. */
    record Box(int row, int column, int rows, int columns) {
    }

    /** One slot of the strip: its slot number, group, and whether it holds an element. */
    record StripSlot(long slot, long group, boolean element) {
    }

    private final ArrayShape shape;
    private final SlotGrid grid;
    private final long[] lead;
    private final boolean elementLevel;
    private final long blockRows;
    private final long blockColumns;
    private final int cellRows;
    private final int cellColumns;
    private final long totalCellRows;
    private final long totalCellColumns;
    private final long groupSlots;
    private final List<Cell> cells = new ArrayList<>();
    private final List<Box> tiles = new ArrayList<>();
    private final List<StripSlot> strip = new ArrayList<>();
    private final long stripUnit;

    /**
     * @param shape a static or bounded array shape
     * @param lead  the leading index of the 2-D grid to draw (rank - 2 coordinates; empty below rank 3)
     * @param max   element level when the grid, padded to whole tiles, is at most {@code max} a side;
     *              else one cell per tile
     * @param maxCells at most this many cells a side at block level
     * @param forceTiles one cell per tile even when the elements would fit
     */
    MapFigure(ArrayShape shape, long[] lead, int max, int maxCells, boolean forceTiles) {
        this.shape = shape;
        this.grid = new SlotGrid(shape);
        this.lead = lead.clone();
        this.groupSlots = groupSlots(shape);
        long rows = grid.rows();
        long columns = grid.columns();
        // a tile that does not reach a grid dimension holds one index of it: extent 1
        long rb = grid.hasTileBoundaries() ? Math.max(1, grid.rowTileExtent()) : 0;
        long cb = grid.hasTileBoundaries() ? Math.max(1, grid.columnTileExtent()) : 0;
        ArrayShape padded = paddedGridShape(shape, grid);
        long paddedRows = padded == null ? rows : roundUp(rows, rb);
        long paddedColumns = padded == null ? columns : roundUp(columns, cb);
        this.elementLevel = !forceTiles && paddedRows <= max && paddedColumns <= max;
        if (elementLevel) {
            blockRows = 1;
            blockColumns = 1;
            totalCellRows = paddedRows;
            totalCellColumns = paddedColumns;
        } else if (grid.hasTileBoundaries()) {
            blockRows = Math.max(1, rb);
            blockColumns = Math.max(1, cb);
            totalCellRows = ceilDiv(rows, blockRows);
            totalCellColumns = ceilDiv(columns, blockColumns);
        } else {
            // untiled (or a tile that does not reach this grid): square blocks, a power of two, so at most max a side
            long b = 1;
            while (ceilDiv(rows, b) > maxCells || ceilDiv(columns, b) > maxCells) {
                b *= 2;
            }
            blockRows = rows > 1 ? b : 1;
            blockColumns = columns > 1 ? b : 1;
            totalCellRows = ceilDiv(rows, blockRows);
            totalCellColumns = ceilDiv(columns, blockColumns);
        }
        int cap = elementLevel ? max : maxCells;
        this.cellRows = (int) Math.min(totalCellRows, cap);
        this.cellColumns = (int) Math.min(totalCellColumns, cap);
        if (shape.elementCount() > 0) {
            buildCells(padded, rows, columns);
            buildTiles(rb, cb);
        }
        this.stripUnit = elementLevel ? 1 : Math.max(1, groupSlots);
        buildStrip();
    }

    private void buildCells(ArrayShape padded, long rows, long columns) {
        for (int r = 0; r < cellRows; r++) {
            for (int c = 0; c < cellColumns; c++) {
                long r0 = r * blockRows;
                long c0 = c * blockColumns;
                if (r0 < rows && c0 < columns) {
                    long slot = grid.slot(lead, r0, c0);
                    double padColumns = 0;
                    double padRows = 0;
                    if (!elementLevel && grid.hasTileBoundaries()) {
                        padRows = 1.0 - (double) Math.min(blockRows, rows - r0) / blockRows;
                        padColumns = 1.0 - (double) Math.min(blockColumns, columns - c0) / blockColumns;
                    }
                    cells.add(new Cell(r, c, slot, group(slot), false, padColumns, padRows));
                } else {
                    long slot = padded.linearIndex(grid.index(lead, r0, c0));
                    cells.add(new Cell(r, c, slot, group(slot), true, 1.0, 1.0));
                }
            }
        }
    }

    private void buildTiles(long rb, long cb) {
        if (!grid.hasTileBoundaries()) {
            return;
        }
        if (!elementLevel) {
            for (int r = 0; r < cellRows; r++) {
                for (int c = 0; c < cellColumns; c++) {
                    tiles.add(new Box(r, c, 1, 1));
                }
            }
            return;
        }
        int tr = (int) rb;
        int tc = (int) cb;
        for (int r = 0; r < cellRows; r += tr) {
            for (int c = 0; c < cellColumns; c += tc) {
                tiles.add(new Box(r, c, Math.min(tr, cellRows - r), Math.min(tc, cellColumns - c)));
            }
        }
    }

    private void buildStrip() {
        long units = ceilDiv(shape.slotCount(), stripUnit);
        long shown = Math.min(units, elementLevel ? STRIP_MAX : STRIP_MAX_TILES);
        for (long u = 0; u < shown; u++) {
            long slot = u * stripUnit;
            boolean element = elementLevel ? shape.isElementSlot(slot) : anyElement(slot, Math.min(stripUnit, shape.slotCount() - slot));
            strip.add(new StripSlot(slot, group(slot), element));
        }
    }

    /** True if a run of slots holds an element; checks its first and last slots and a few between (tiles fill from their start). */
    private boolean anyElement(long from, long n) {
        long step = Math.max(1, n / 16);
        for (long s = from; s < from + n; s += step) {
            if (shape.isElementSlot(s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@return the array shape whose slots give the padding cells of the grid}: the same layout on
     * dimensions rounded up to whole first tiles, or null if the grid's tiles cannot be drawn that way
     * (untiled, a {@code *} tile, legacy padded dimensions, or a slot that differs from the shape's own).
     */
    static ArrayShape paddedGridShape(ArrayShape shape, SlotGrid grid) {
        Layout l = shape.layout();
        if (!grid.hasTileBoundaries() || l.hasPaddedDimensions() || shape.rank() < 1) {
            return null;
        }
        long[] ext = SlotGrid.tileExtents(shape);
        long[] dims = shape.dimensions();
        for (int d = 0; d < dims.length; d++) {
            dims[d] = roundUp(dims[d], ext[d]);
        }
        ArrayShape p;
        try {
            p = ArrayShape.of(shape.elementType(), dims).withLayout(l);
            if (p.slotCount() != shape.slotCount()) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (shape.elementCount() > 0) {
            // the last element: its slot must be the same in both (it is, for XLA's tiling rule)
            long[] idx = shape.dimensions();
            for (int d = 0; d < idx.length; d++) {
                idx[d]--;
            }
            if (p.linearIndex(idx) != shape.linearIndex(idx)) {
                return null;
            }
        }
        return p;
    }

    /** {@return the slots that share a colour: one tile (tiled), one line of the physical minor dimension (untiled)} */
    static long groupSlots(ArrayShape shape) {
        Layout l = shape.layout();
        if (l.isTiled()) {
            Tile t = l.tiles().getFirst();
            return Math.max(1, t.elementCount());
        }
        if (shape.rank() == 0) {
            return 1;
        }
        int minor = l.minorToMajor(0);
        long n = l.hasPaddedDimensions() ? Math.max(shape.dimension(minor), l.paddedDimensions()[minor])
                : shape.dimension(minor);
        return Math.max(1, n);
    }

    long group(long slot) {
        return slot / groupSlots;
    }

    ArrayShape shape() {
        return shape;
    }

    long[] lead() {
        return lead.clone();
    }

    /** {@return true if each cell is one element, false if one tile (or block)} */
    boolean elementLevel() {
        return elementLevel;
    }

    /** {@return the elements of one cell along the rows of the grid (1 at element level)} */
    long blockRows() {
        return blockRows;
    }

    /** {@return the elements of one cell along the columns of the grid (1 at element level)} */
    long blockColumns() {
        return blockColumns;
    }

    /** {@return cells drawn down} */
    int cellRows() {
        return cellRows;
    }

    /** {@return cells drawn across} */
    int cellColumns() {
        return cellColumns;
    }

    /** {@return cells there are down (more than drawn when the grid is cut)} */
    long totalCellRows() {
        return totalCellRows;
    }

    /** {@return cells there are across} */
    long totalCellColumns() {
        return totalCellColumns;
    }

    /** {@return true if rows or columns of cells are left out} */
    boolean isCut() {
        return cellRows < totalCellRows || cellColumns < totalCellColumns;
    }

    List<Cell> cells() {
        return List.copyOf(cells);
    }

    /** {@return the tile outlines, in cells (every cell at block level of a tiled layout)} */
    List<Box> tiles() {
        return List.copyOf(tiles);
    }

    /** {@return the cells that hold elements, in memory order (increasing slot): the path to draw} */
    List<Cell> path() {
        return cells.stream().filter(c -> !c.padding()).sorted(Comparator.comparingLong(Cell::slot)).toList();
    }

    /** {@return the strip: every slot (element level) or every tile's run of slots (block level), at most {@link #STRIP_MAX}} */
    List<StripSlot> strip() {
        return List.copyOf(strip);
    }

    /** {@return the slots one strip entry stands for (1 at element level, a tile's slots at block level)} */
    long stripUnit() {
        return stripUnit;
    }

    /** {@return the strip entries there are (more than {@link #strip()} holds when it is cut)} */
    long stripTotal() {
        return ceilDiv(shape.slotCount(), stripUnit);
    }

    /** {@return the slots of one colour group} */
    long groupSlots() {
        return groupSlots;
    }

    SlotGrid grid() {
        return grid;
    }

    static long roundUp(long n, long m) {
        return m <= 0 ? n : ceilDiv(n, m) * m;
    }

    static long ceilDiv(long a, long b) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}
