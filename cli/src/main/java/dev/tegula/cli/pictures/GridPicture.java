package dev.tegula.cli.pictures;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;

import java.util.Arrays;

/**
 * Draws a {@link LayoutGrid} as terminal text (ASCII only, so it survives any console encoding): the
 * logical grid with the slot of every element, tile boundaries as {@code |}, {@code -} and
 * {@code +}, then the padding slots and the slot count. Large shapes are drawn one cell per tile
 * ({@link #tiles}). Stateless.
 */
public final class GridPicture {
    private GridPicture() {
    }

    /** {@return true if {@link #elements} makes a readable picture: each grid side at most {@code maxSide}, at most {@code maxElements} elements} */
    public static boolean fitsElements(LayoutGrid g, long maxSide, long maxElements) {
        return g.rows() <= maxSide && g.columns() <= maxSide && g.shape().elementCount() <= maxElements;
    }

    /** {@return a line saying which logical dimensions the grid shows} */
    public static String axes(LayoutGrid g) {
        int rank = g.shape().rank();
        return switch (rank) {
            case 0 -> "a scalar: one cell";
            case 1 -> "one row; columns: dim 0";
            default -> "rows: dim " + (rank - 2) + ", columns: dim " + (rank - 1)
                    + (rank == 3 ? "; one grid per index of dim 0" : rank > 3 ? "; one grid per index of dims 0.." + (rank - 3) : "");
        };
    }

    /** {@return a line saying what the tile boundaries are, or why there are none} */
    public static String tileNote(LayoutGrid g) {
        Layout l = g.shape().layout();
        if (g.shape().rank() == 0) {
            return l.isTiled() ? "tiles pad the scalar's buffer" : "untiled layout";
        }
        if (!g.hasTileBoundaries()) {
            return l.isTiled() ? "tile boundaries: not drawn (" + g.noBoundariesReason() + ")" : "untiled layout";
        }
        Tile t = l.tiles().getFirst();
        return "tile boundaries: T" + t + " covers " + extentText(g.rowTileExtent(), "row") + " x "
                + extentText(g.columnTileExtent(), "column") + " of this grid";
    }

    private static String extentText(long n, String what) {
        // a tile that does not reach a dimension of the grid holds one index of it
        return n <= 1 ? "1 " + what : n + " " + what + "s";
    }

    /**
     * {@return the element-level picture: every slice, then the padding line and the slot count}
     *
     * @param legend true to list each tile of each slice with its rows, columns and slots
     */
    public static String elements(LayoutGrid g, boolean legend) {
        return elements(g, legend, null);
    }

    /**
     * {@return the element-level picture of one slice ({@code only}), or of every slice if {@code only} is null}
     */
    public static String elements(LayoutGrid g, boolean legend, long[] only) {
        StringBuilder sb = new StringBuilder();
        ArrayShape s = g.shape();
        long slices = g.sliceCount();
        if (s.elementCount() == 0) {
            sb.append("(no elements)\n");
        }
        for (long k = 0; k < slices && s.elementCount() > 0; k++) {
            long[] lead = g.sliceIndex(k);
            if (only != null && !Arrays.equals(only, lead)) {
                continue;
            }
            if (s.rank() > 2) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(sliceLabel(lead, s.rank())).append('\n');
            }
            long[][] cells = g.slice(lead);
            int rows = cells.length;
            int cols = rows == 0 ? 0 : cells[0].length;
            boolean[] rowBreak = new boolean[rows];
            boolean[] colBreak = new boolean[cols];
            for (int r = 0; r < rows; r++) {
                rowBreak[r] = g.boundaryAfterRow(r);
            }
            for (int c = 0; c < cols; c++) {
                colBreak[c] = g.boundaryAfterColumn(c);
            }
            String[] rowLabels = new String[rows];
            for (int r = 0; r < rows; r++) {
                rowLabels[r] = s.rank() >= 2 ? Long.toString(r) : "";
            }
            String[] colLabels = new String[cols];
            for (int c = 0; c < cols; c++) {
                colLabels[c] = s.rank() >= 1 ? Long.toString(c) : "";
            }
            table(sb, cells, rowLabels, colLabels, rowBreak, colBreak, true);
            if (legend && g.hasTileBoundaries()) {
                tileLegend(sb, g, lead);
            }
        }
        sb.append(slotLine(g));
        return sb.toString();
    }

    /** {@return the label of a slice, e.g. {@code [1, 0, :, :]}} */
    public static String sliceLabel(long[] lead, int rank) {
        StringBuilder sb = new StringBuilder("[");
        for (long i : lead) {
            sb.append(i).append(", ");
        }
        for (int d = lead.length; d < rank; d++) {
            sb.append(d > lead.length ? ", :" : ":");
        }
        return sb.append(']').toString();
    }

    /** {@return the line with the slot count and the padding slots} */
    public static String slotLine(LayoutGrid g) {
        ArrayShape s = g.shape();
        long pad = g.paddingCount();
        StringBuilder sb = new StringBuilder();
        sb.append(slotCounts(s));
        if (pad > 0) {
            if (s.elementCount() <= 1 << 16) {
                sb.append(": ").append(LayoutGrid.formatRuns(g.paddingRuns()));
            }
        }
        return sb.append('\n').toString();
    }

    private static String slotCounts(ArrayShape s) {
        long n = s.elementCount();
        long pad = s.slotCount() - n;
        return "slots: " + s.slotCount() + " in all, " + n + (n == 1 ? " holds an element, " : " hold elements, ")
                + pad + (pad == 1 ? " is padding" : " are padding");
    }

    /**
     * {@return the tile-level picture of one slice: one cell per tile (per block of the first tile's
     * extent on this grid; per element where the tile does not reach), holding the slot of the tile's
     * first element (its top-left corner)}, at most {@code maxCells} cells across and down.
     */
    public static String tiles(LayoutGrid g, long[] lead, int maxCells) {
        ArrayShape s = g.shape();
        StringBuilder sb = new StringBuilder();
        long rb = Math.max(1, g.rowTileExtent());
        long cb = Math.max(1, g.columnTileExtent());
        long blockRows = Math.ceilDiv(g.rows(), rb);
        long blockCols = Math.ceilDiv(g.columns(), cb);
        int shownRows = (int) Math.min(blockRows, maxCells);
        int shownCols = (int) Math.min(blockCols, maxCells);
        if (s.rank() > 2) {
            sb.append(sliceLabel(lead, s.rank())).append(" (slice ").append(sliceNumber(g, lead) + 1).append(" of ")
                    .append(g.sliceCount()).append(")\n");
        }
        sb.append(g.hasTileBoundaries()
                ? "each cell is one tile of " + rb + " x " + cb + " elements (rows x columns); it shows the slot of the"
                        + " tile's top-left element\n"
                : "each cell is one element (" + (s.layout().isTiled() ? g.noBoundariesReason() : "untiled layout")
                        + "); it shows its slot\n");
        if (shownRows < blockRows || shownCols < blockCols) {
            sb.append("showing ").append(shownRows).append(" of ").append(blockRows).append(" cell rows and ")
                    .append(shownCols).append(" of ").append(blockCols).append(" cell columns\n");
        }
        if (s.elementCount() == 0) {
            return sb.append("(no elements)\n").append(slotLine(g)).toString();
        }
        long[][] cells = new long[shownRows][shownCols];
        String[] rowLabels = new String[shownRows];
        String[] colLabels = new String[shownCols];
        for (int r = 0; r < shownRows; r++) {
            rowLabels[r] = s.rank() >= 2 ? Long.toString(r * rb) : "";
            for (int c = 0; c < shownCols; c++) {
                cells[r][c] = g.slot(lead, r * rb, c * cb);
            }
        }
        for (int c = 0; c < shownCols; c++) {
            colLabels[c] = Long.toString(c * cb);
        }
        table(sb, cells, rowLabels, colLabels, new boolean[shownRows], new boolean[shownCols], true);
        sb.append(slotCounts(s)).append('\n');
        return sb.toString();
    }

    private static long sliceNumber(LayoutGrid g, long[] lead) {
        long[] dims = g.shape().dimensions();
        long k = 0;
        for (int d = 0; d < lead.length; d++) {
            k = k * dims[d] + lead[d];
        }
        return k;
    }

    /** Lists each tile of one slice: its rows, columns, element count and slots. */
    private static void tileLegend(StringBuilder sb, LayoutGrid g, long[] lead) {
        ArrayShape s = g.shape();
        Layout l = s.layout();
        Tile first = l.tiles().getFirst();
        long tileSlots = first.elementCount();
        boolean contiguous = true;
        for (Tile t : l.tiles()) {
            contiguous &= t.rank() <= first.rank();
        }
        long rb = Math.max(1, g.rowTileExtent());
        long cb = Math.max(1, g.columnTileExtent());
        sb.append("tiles of this grid (T").append(first).append(contiguous
                ? "; each tile is " + tileSlots + " consecutive slots"
                : "; a later tile reaches across tiles, so a tile's slots are not consecutive").append("):\n");
        for (long r0 = 0; r0 < g.rows(); r0 += rb) {
            for (long c0 = 0; c0 < g.columns(); c0 += cb) {
                long r1 = Math.min(g.rows(), r0 + rb) - 1;
                long c1 = Math.min(g.columns(), c0 + cb) - 1;
                long min = Long.MAX_VALUE;
                long max = Long.MIN_VALUE;
                for (long r = r0; r <= r1; r++) {
                    for (long c = c0; c <= c1; c++) {
                        long slot = g.slot(lead, r, c);
                        min = Math.min(min, slot);
                        max = Math.max(max, slot);
                    }
                }
                long n = (r1 - r0 + 1) * (c1 - c0 + 1);
                sb.append(r0 == r1 ? "  row " : "  rows ").append(range(r0, r1))
                        .append(c0 == c1 ? ", column " : ", columns ").append(range(c0, c1)).append(": ")
                        .append(n).append(n == 1 ? " element" : " elements");
                if (contiguous) {
                    long base = tileBase(s, g.index(lead, r0, c0));
                    sb.append(", slots ").append(range(base, base + tileSlots - 1));
                } else {
                    sb.append(", element slots from ").append(min).append(" to ").append(max);
                }
                sb.append('\n');
            }
        }
    }

    /** The first slot of the tile that holds {@code index}: its slot once every tiled coordinate is rounded down to a tile multiple. */
    private static long tileBase(ArrayShape s, long[] index) {
        long[] corner = index.clone();
        for (int d = 0; d < corner.length; d++) {
            corner[d] -= corner[d] % s.tileExtent(d);
        }
        return s.linearIndex(corner);
    }

    private static String range(long a, long b) {
        return a == b ? Long.toString(a) : a + "-" + b;
    }

    /**
     * Appends a table: a header of column labels, then one line per row with its label and cells,
     * cells right-aligned; with {@code box}, {@code |} after each column group and {@code +---+}
     * lines above, below and between row groups.
     */
    public static void table(StringBuilder sb, long[][] cells, String[] rowLabels, String[] colLabels,
                      boolean[] rowBreak, boolean[] colBreak, boolean box) {
        int rows = cells.length;
        int cols = colLabels.length;
        int w = 1;
        for (long[] row : cells) {
            for (long v : row) {
                w = Math.max(w, Long.toString(v).length());
            }
        }
        for (String c : colLabels) {
            w = Math.max(w, c.length());
        }
        int lw = 0;
        for (String r : rowLabels) {
            lw = Math.max(lw, r.length());
        }
        String indent = " ".repeat(lw + 1);
        // header
        StringBuilder h = new StringBuilder(indent);
        if (box) {
            h.append(' ');
        }
        for (int c = 0; c < cols; c++) {
            h.append(' ').append(pad(colLabels[c], w));
            if (box && colBreak[c]) {
                h.append("  ");
            }
        }
        if (!h.toString().isBlank()) {
            sb.append(stripTrailing(h)).append('\n');
        }
        String rule = box ? indent + rule(colBreak, w) : null;
        if (box) {
            sb.append(rule).append('\n');
        }
        for (int r = 0; r < rows; r++) {
            StringBuilder line = new StringBuilder(pad(rowLabels[r], lw)).append(' ');
            if (box) {
                line.append('|');
            }
            for (int c = 0; c < cols; c++) {
                line.append(' ').append(pad(Long.toString(cells[r][c]), w));
                if (box && (colBreak[c] || c == cols - 1)) {
                    line.append(" |");
                }
            }
            sb.append(stripTrailing(line)).append('\n');
            if (box && (rowBreak[r] || r == rows - 1)) {
                sb.append(rule).append('\n');
            }
        }
    }

    private static String rule(boolean[] colBreak, int w) {
        StringBuilder sb = new StringBuilder("+");
        int n = 0;
        for (int c = 0; c < colBreak.length; c++) {
            n++;
            if (colBreak[c] || c == colBreak.length - 1) {
                sb.append("-".repeat(n * (w + 1) + 1)).append('+');
                n = 0;
            }
        }
        return sb.toString();
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : " ".repeat(w - s.length()) + s;
    }

    private static String stripTrailing(StringBuilder sb) {
        return sb.toString().stripTrailing();
    }


    /** {@return {@code lead} parsed from {@code "i,j"}} */
    public static long[] parseSlice(String text, int rank) {
        int lead = Math.max(0, rank - 2);
        String[] parts = text.isBlank() ? new String[0] : text.split(",");
        if (parts.length != lead) {
            throw new IllegalArgumentException(lead == 0
                    ? "--slice: a rank-" + rank + " shape is one grid, with no leading dimension to pick (--slice is"
                            + " for rank 3 and above); leave it out, got '" + text + "'"
                    : "--slice: a rank-" + rank + " shape needs " + lead + (lead == 1 ? " leading index (dim 0)"
                            : " leading indices (dims 0.." + (lead - 1) + ")") + ", got '" + text + "'");
        }
        long[] idx = new long[lead];
        for (int i = 0; i < lead; i++) {
            try {
                idx[i] = Long.parseLong(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--slice: '" + parts[i].strip() + "' is not an integer");
            }
        }
        return idx;
    }

    /** Checks a slice index against the leading dimensions. */
    public static void checkSlice(long[] lead, ArrayShape s) {
        for (int d = 0; d < lead.length; d++) {
            if (lead[d] < 0 || lead[d] >= s.dimension(d)) {
                throw new IllegalArgumentException("--slice: index " + lead[d] + " is out of range for dim " + d
                        + " of size " + s.dimension(d) + " (slice " + Arrays.toString(lead) + ")");
            }
        }
    }
}
