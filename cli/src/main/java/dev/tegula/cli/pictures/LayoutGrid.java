package dev.tegula.cli.pictures;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;
import dev.tegula.ffm.internal.LongMath;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Where the elements of an array shape sit in its buffer, seen as 2-D grids of the logical index:
 * rows are logical dimension {@code rank-2}, columns logical dimension {@code rank-1} (a rank-1
 * shape is one row, a scalar one cell), and every higher-rank shape is a sequence of such 2-D
 * slices, one per value of the leading indices.
 *
 * <p>Each cell holds the slot ({@link ArrayShape#linearIndex}) of its element. The first tile of
 * the layout is located on the grid ({@link #rowTileExtent()}, {@link #columnTileExtent()}) so a
 * picture can draw tile boundaries, and {@link #paddingRuns()} lists the slots that hold no element.
 * Presentation logic for the {@code tegula} command; all index math comes from core.
 *
 * <p>The same grid, seen as a picture ({@link #figure}), is a {@link Figure}: the cells of one
 * slice (element by element, or one cell per tile for large arrays), the tile outlines, the memory
 * order as a path through the cells, and a strip of the buffer's slots in memory order. Immutable.
 */
public final class LayoutGrid {
    /** The most strip slots drawn one by one; longer buffers show their first slots. */
    public static final int STRIP_MAX = 512;
    /** The most strip tiles drawn at block level. */
    public static final int STRIP_MAX_TILES = 128;

    private final ArrayShape shape;
    private final int rank;
    private final long[] dims;
    private final long rows;
    private final long columns;
    private final long rowExtent;
    private final long columnExtent;
    private final String noBoundariesReason;

    /**
     * @throws IllegalArgumentException if the shape has an unbounded ({@code ?}) dimension
     */
    public LayoutGrid(ArrayShape shape) {
        if (!shape.isStaticOrBounded()) {
            throw new IllegalArgumentException("shape " + shape + " has an unbounded dimension (?): no slots");
        }
        this.shape = shape;
        this.rank = shape.rank();
        this.dims = shape.dimensions();
        this.rows = rank >= 2 ? dims[rank - 2] : 1;
        this.columns = rank >= 1 ? dims[rank - 1] : 1;
        Layout layout = shape.layout();
        String why = null;
        long rowExt = 0;
        long columnExt = 0;
        if (!layout.isTiled()) {
            why = "untiled layout";
        } else if (layout.tiles().getFirst().hasCombinedDimensions()) {
            why = "the first tile combines dimensions (*)";
        } else {
            int[] covered = layout.coveredDimensions(layout.tiles().getFirst().rank());
            rowExt = rank >= 2 && covers(covered, rank - 2) ? shape.tileExtent(rank - 2) : 0;
            columnExt = rank >= 1 && covers(covered, rank - 1) ? shape.tileExtent(rank - 1) : 0;
        }
        this.noBoundariesReason = why;
        this.rowExtent = rowExt;
        this.columnExtent = columnExt;
    }

    private static boolean covers(int[] covered, int dim) {
        for (int d : covered) {
            if (d == dim) {
                return true;
            }
        }
        return false;
    }

    public ArrayShape shape() {
        return shape;
    }

    /** {@return the rows of one slice (logical dimension rank-2; 1 below rank 2)} */
    public long rows() {
        return rows;
    }

    /** {@return the columns of one slice (logical dimension rank-1; 1 for a scalar)} */
    public long columns() {
        return columns;
    }

    /** {@return the number of 2-D slices: the product of the leading dimensions (0 if one is 0)} */
    public long sliceCount() {
        long n = 1;
        for (int d = 0; d < rank - 2; d++) {
            n = Math.multiplyExact(n, dims[d]);
        }
        return n;
    }

    /** {@return the leading index (dims 0..rank-3) of slice {@code k}, in row-major order} */
    public long[] sliceIndex(long k) {
        int lead = Math.max(0, rank - 2);
        long[] idx = new long[lead];
        for (int d = lead - 1; d >= 0; d--) {
            idx[d] = k % dims[d];
            k /= dims[d];
        }
        return idx;
    }

    /** {@return the rows the first tile spans on this grid, 0 if the tile does not cover the row dimension} */
    public long rowTileExtent() {
        return rowExtent;
    }

    /** {@return the columns the first tile spans on this grid, 0 if the tile does not cover the column dimension} */
    public long columnTileExtent() {
        return columnExtent;
    }

    /** {@return true if tile boundaries can be drawn (the first tile covers a grid dimension)} */
    public boolean hasTileBoundaries() {
        return rowExtent > 0 || columnExtent > 0;
    }

    /** {@return why no tile boundaries are drawn, or null if they are} */
    public String noBoundariesReason() {
        if (hasTileBoundaries()) {
            return null;
        }
        return noBoundariesReason != null ? noBoundariesReason : "the first tile does not cover these two dimensions";
    }

    /** {@return true if a tile boundary lies between row {@code r} and row {@code r+1}} */
    public boolean boundaryAfterRow(long r) {
        return rowExtent > 0 && (r + 1) % rowExtent == 0 && r + 1 < rows;
    }

    /** {@return true if a tile boundary lies between column {@code c} and column {@code c+1}} */
    public boolean boundaryAfterColumn(long c) {
        return columnExtent > 0 && (c + 1) % columnExtent == 0 && c + 1 < columns;
    }

    /** {@return the full logical index of cell (r, c) of the slice with leading index {@code lead}} */
    public long[] index(long[] lead, long r, long c) {
        long[] idx = new long[rank];
        System.arraycopy(lead, 0, idx, 0, lead.length);
        if (rank >= 2) {
            idx[rank - 2] = r;
        }
        if (rank >= 1) {
            idx[rank - 1] = c;
        }
        return idx;
    }

    /** {@return the slot of the element in cell (r, c) of the slice with leading index {@code lead}} */
    public long slot(long[] lead, long r, long c) {
        return shape.linearIndex(index(lead, r, c));
    }

    /**
     * {@return the slots of one whole slice, {@code [row][column]}}
     *
     * @throws IllegalArgumentException if the slice has more than {@code Integer.MAX_VALUE} rows or columns
     */
    public long[][] slice(long[] lead) {
        long[][] g = new long[Math.toIntExact(rows)][Math.toIntExact(columns)];
        for (int r = 0; r < g.length; r++) {
            for (int c = 0; c < g[r].length; c++) {
                g[r][c] = slot(lead, r, c);
            }
        }
        return g;
    }

    /**
     * {@return the slots that hold no element, as inclusive runs {@code [first, last]} in increasing order}
     * Computed from the slots of all elements (their complement in {@code [0, slotCount)}), so the cost
     * grows with the element count, not with the slot count.
     *
     * @throws IllegalStateException if the shape has more than {@code limit} elements
     */
    public List<long[]> paddingRuns(long limit) {
        long n = shape.elementCount();
        if (n > limit) {
            throw new IllegalStateException(n + " elements: more than " + limit + " to enumerate");
        }
        long[] used = new long[(int) n];
        int[] i = {0};
        shape.forEachIndex(idx -> used[i[0]++] = shape.linearIndex(idx));
        Arrays.sort(used);
        List<long[]> runs = new ArrayList<>();
        long next = 0;
        for (long s : used) {
            if (s > next) {
                runs.add(new long[] {next, s - 1});
            }
            next = s + 1;
        }
        long total = shape.slotCount();
        if (next < total) {
            runs.add(new long[] {next, total - 1});
        }
        return runs;
    }

    /** Like {@link #paddingRuns(long)} with a limit of 65536 elements. */
    public List<long[]> paddingRuns() {
        return paddingRuns(1 << 16);
    }

    /** {@return the number of padding slots: slots minus elements} */
    public long paddingCount() {
        return shape.slotCount() - shape.elementCount();
    }

    /**
     * {@return runs written as text: single slots and pairs as numbers, longer runs as {@code first-last}},
     * e.g. {@code "9 11 14 15 18 19 21-23"}
     */
    public static String formatRuns(List<long[]> runs) {
        StringBuilder sb = new StringBuilder();
        for (long[] run : runs) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            long len = run[1] - run[0] + 1;
            if (len == 1) {
                sb.append(run[0]);
            } else if (len == 2) {
                sb.append(run[0]).append(' ').append(run[1]);
            } else {
                sb.append(run[0]).append('-').append(run[1]);
            }
        }
        return sb.toString();
    }


    /**
     * {@return the picture of the slice with leading index {@code lead}}
     *
     * @param lead       the leading index of the 2-D slice to draw (rank - 2 coordinates; empty below rank 3)
     * @param max        element level when the slice, padded to whole tiles, is at most {@code max} a side;
     *                   else one cell per tile
     * @param maxCells   at most this many cells a side at block level
     * @param forceTiles one cell per tile even when the elements would fit
     */
    public Figure figure(long[] lead, int max, int maxCells, boolean forceTiles) {
        return new Figure(this, lead, max, maxCells, forceTiles);
    }

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
    public record Cell(int row, int column, long slot, long group, boolean padding, double padColumns, double padRows) {
    }

    /** A rectangle of cells: rows {@code [row, row + rows)}, columns {@code [column, column + columns)}. */
    public record Box(int row, int column, int rows, int columns) {
    }

    /** One slot of the strip: its slot number, group, and whether it holds an element. */
    public record StripSlot(long slot, long group, boolean element) {
    }

    /**
     * What a picture of one slice of a {@link LayoutGrid} shows, before it is drawn: its cells, tile
     * outlines, memory-order path and slot strip. {@link MapRenderer} draws it on a {@link Canvas}.
     * All index math comes from core ({@link ArrayShape#linearIndex}, {@link ArrayShape#isElementSlot}).
     *
     * <p>Cells and strip slots carry a <em>group</em>: the slot divided by the slots of one tile
     * (tiled layouts) or of one line of the physical minor dimension (untiled layouts). Equal groups
     * get equal colours in the grid and in the strip, so a tile, or a row of a row-major array, is
     * one colour. Immutable.
     */
    public static final class Figure {
        private final ArrayShape shape;
        private final LayoutGrid grid;
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
         * @param grid  the grid of a static or bounded array shape
         * @param lead  the leading index of the 2-D grid to draw (rank - 2 coordinates; empty below rank 3)
         * @param max   element level when the array's grid is at most {@code max} a side (the padding of
         *              tiles larger than that is shown up to {@code max} cells a side); else one cell per tile
         * @param maxCells at most this many cells a side at block level
         * @param forceTiles one cell per tile even when the elements would fit
         */
        private Figure(LayoutGrid grid, long[] lead, int max, int maxCells, boolean forceTiles) {
            ArrayShape shape = grid.shape();
            this.shape = shape;
            this.grid = grid;
            this.lead = lead.clone();
            this.groupSlots = LayoutGrid.groupSlots(shape);
            long rows = grid.rows();
            long columns = grid.columns();
            // a tile that does not reach a grid dimension holds one index of it: extent 1
            long rb = grid.hasTileBoundaries() ? Math.max(1, grid.rowTileExtent()) : 0;
            long cb = grid.hasTileBoundaries() ? Math.max(1, grid.columnTileExtent()) : 0;
            ArrayShape padded = paddedGridShape(shape, grid);
            long paddedRows = padded == null ? rows : LongMath.roundUp(rows, rb);
            long paddedColumns = padded == null ? columns : LongMath.roundUp(columns, cb);
            // element level when the array's own grid fits, as in the text map; padding past max is cut
            this.elementLevel = !forceTiles && rows <= max && columns <= max;
            if (elementLevel) {
                blockRows = 1;
                blockColumns = 1;
                totalCellRows = paddedRows;
                totalCellColumns = paddedColumns;
            } else if (grid.hasTileBoundaries()) {
                blockRows = Math.max(1, rb);
                blockColumns = Math.max(1, cb);
                totalCellRows = Math.ceilDiv(rows, blockRows);
                totalCellColumns = Math.ceilDiv(columns, blockColumns);
            } else {
                // untiled (or a tile that does not reach this grid): square blocks, a power of two, so at most max a side
                long b = 1;
                while (Math.ceilDiv(rows, b) > maxCells || Math.ceilDiv(columns, b) > maxCells) {
                    b *= 2;
                }
                blockRows = rows > 1 ? b : 1;
                blockColumns = columns > 1 ? b : 1;
                totalCellRows = Math.ceilDiv(rows, blockRows);
                totalCellColumns = Math.ceilDiv(columns, blockColumns);
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
            long units = Math.ceilDiv(shape.slotCount(), stripUnit);
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

        public long group(long slot) {
            return slot / groupSlots;
        }

        public ArrayShape shape() {
            return shape;
        }

        public long[] lead() {
            return lead.clone();
        }

        /** {@return true if each cell is one element, false if one tile (or block)} */
        public boolean elementLevel() {
            return elementLevel;
        }

        /** {@return the elements of one cell along the rows of the grid (1 at element level)} */
        public long blockRows() {
            return blockRows;
        }

        /** {@return the elements of one cell along the columns of the grid (1 at element level)} */
        public long blockColumns() {
            return blockColumns;
        }

        /** {@return cells drawn down} */
        public int cellRows() {
            return cellRows;
        }

        /** {@return cells drawn across} */
        public int cellColumns() {
            return cellColumns;
        }

        /** {@return cells there are down (more than drawn when the grid is cut)} */
        public long totalCellRows() {
            return totalCellRows;
        }

        /** {@return cells there are across} */
        public long totalCellColumns() {
            return totalCellColumns;
        }

        /** {@return true if rows or columns of cells are left out} */
        public boolean isCut() {
            return cellRows < totalCellRows || cellColumns < totalCellColumns;
        }

        public List<Cell> cells() {
            return List.copyOf(cells);
        }

        /** {@return the tile outlines, in cells (every cell at block level of a tiled layout)} */
        public List<Box> tiles() {
            return List.copyOf(tiles);
        }

        /** {@return the cells that hold elements, in memory order (increasing slot): the path to draw} */
        public List<Cell> path() {
            return cells.stream().filter(c -> !c.padding()).sorted(Comparator.comparingLong(Cell::slot)).toList();
        }

        /** {@return the strip: every slot (element level) or every tile's run of slots (block level), at most {@link LayoutGrid#STRIP_MAX}} */
        public List<StripSlot> strip() {
            return List.copyOf(strip);
        }

        /** {@return the slots one strip entry stands for (1 at element level, a tile's slots at block level)} */
        public long stripUnit() {
            return stripUnit;
        }

        /** {@return the strip entries there are (more than {@link #strip()} holds when it is cut)} */
        public long stripTotal() {
            return Math.ceilDiv(shape.slotCount(), stripUnit);
        }

        /** {@return the slots of one colour group} */
        public long groupSlots() {
            return groupSlots;
        }

        public LayoutGrid grid() {
            return grid;
        }
    }

    /**
     * {@return the array shape whose slots give the padding cells of the grid}: the same layout on
     * dimensions rounded up to whole first tiles, or null if the grid's tiles cannot be drawn that way
     * (untiled, a {@code *} tile, legacy padded dimensions, or a slot that differs from the shape's own).
     */
    public static ArrayShape paddedGridShape(ArrayShape shape, LayoutGrid grid) {
        Layout l = shape.layout();
        if (!grid.hasTileBoundaries() || l.hasPaddedDimensions() || shape.rank() < 1) {
            return null;
        }
        long[] dims = shape.dimensions();
        for (int d = 0; d < dims.length; d++) {
            dims[d] = LongMath.roundUp(dims[d], shape.tileExtent(d));
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
    public static long groupSlots(ArrayShape shape) {
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
}
