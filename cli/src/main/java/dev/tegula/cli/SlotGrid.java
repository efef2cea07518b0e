package dev.tegula.cli;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;

import java.util.ArrayList;
import java.util.Arrays;
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
 */
final class SlotGrid {
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
    SlotGrid(ArrayShape shape) {
        if (!shape.isStaticOrBounded()) {
            throw new IllegalArgumentException("shape " + shape + " has an unbounded dimension (?): no slots");
        }
        this.shape = shape;
        this.rank = shape.rank();
        this.dims = shape.dimensions();
        this.rows = rank >= 2 ? dims[rank - 2] : 1;
        this.columns = rank >= 1 ? dims[rank - 1] : 1;
        long[] ext = tileExtents(shape);
        String why = null;
        if (!shape.layout().isTiled()) {
            why = "untiled layout";
        } else if (shape.layout().tiles().getFirst().hasCombinedDimensions()) {
            why = "the first tile combines dimensions (*)";
            ext = null;
        }
        this.noBoundariesReason = why;
        this.rowExtent = ext == null || rank < 2 ? 0 : ext[rank - 2];
        this.columnExtent = ext == null || rank < 1 ? 0 : ext[rank - 1];
    }

    /**
     * {@return how far the first tile of the layout reaches along each logical dimension}, 0 where the
     * tile does not cover the dimension (it lies outside the tiled suffix of the physical dimensions)
     * or the layout is untiled. A tile longer than the rank covers every dimension (XLA pads the shape
     * with leading size-1 dimensions). Null if the first tile combines dimensions ({@code *}).
     */
    static long[] tileExtents(ArrayShape shape) {
        int rank = shape.rank();
        long[] ext = new long[rank];
        Layout layout = shape.layout();
        if (!layout.isTiled()) {
            return ext;
        }
        Tile t = layout.tiles().getFirst();
        if (t.hasCombinedDimensions()) {
            return null;
        }
        int k = t.rank();
        int s = rank - k;
        for (int p = Math.max(0, s); p < rank; p++) {
            ext[layout.major(p)] = t.dimension(p - s);
        }
        return ext;
    }

    ArrayShape shape() {
        return shape;
    }

    /** {@return the rows of one slice (logical dimension rank-2; 1 below rank 2)} */
    long rows() {
        return rows;
    }

    /** {@return the columns of one slice (logical dimension rank-1; 1 for a scalar)} */
    long columns() {
        return columns;
    }

    /** {@return the number of 2-D slices: the product of the leading dimensions (0 if one is 0)} */
    long sliceCount() {
        long n = 1;
        for (int d = 0; d < rank - 2; d++) {
            n = Math.multiplyExact(n, dims[d]);
        }
        return n;
    }

    /** {@return the leading index (dims 0..rank-3) of slice {@code k}, in row-major order} */
    long[] sliceIndex(long k) {
        int lead = Math.max(0, rank - 2);
        long[] idx = new long[lead];
        for (int d = lead - 1; d >= 0; d--) {
            idx[d] = k % dims[d];
            k /= dims[d];
        }
        return idx;
    }

    /** {@return the rows the first tile spans on this grid, 0 if the tile does not cover the row dimension} */
    long rowTileExtent() {
        return rowExtent;
    }

    /** {@return the columns the first tile spans on this grid, 0 if the tile does not cover the column dimension} */
    long columnTileExtent() {
        return columnExtent;
    }

    /** {@return true if tile boundaries can be drawn (the first tile covers a grid dimension)} */
    boolean hasTileBoundaries() {
        return rowExtent > 0 || columnExtent > 0;
    }

    /** {@return why no tile boundaries are drawn, or null if they are} */
    String noBoundariesReason() {
        if (hasTileBoundaries()) {
            return null;
        }
        return noBoundariesReason != null ? noBoundariesReason : "the first tile does not cover these two dimensions";
    }

    /** {@return true if a tile boundary lies between row {@code r} and row {@code r+1}} */
    boolean boundaryAfterRow(long r) {
        return rowExtent > 0 && (r + 1) % rowExtent == 0 && r + 1 < rows;
    }

    /** {@return true if a tile boundary lies between column {@code c} and column {@code c+1}} */
    boolean boundaryAfterColumn(long c) {
        return columnExtent > 0 && (c + 1) % columnExtent == 0 && c + 1 < columns;
    }

    /** {@return the full logical index of cell (r, c) of the slice with leading index {@code lead}} */
    long[] index(long[] lead, long r, long c) {
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
    long slot(long[] lead, long r, long c) {
        return shape.linearIndex(index(lead, r, c));
    }

    /**
     * {@return the slots of one whole slice, {@code [row][column]}}
     *
     * @throws IllegalArgumentException if the slice has more than {@code Integer.MAX_VALUE} rows or columns
     */
    long[][] slice(long[] lead) {
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
    List<long[]> paddingRuns(long limit) {
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
    List<long[]> paddingRuns() {
        return paddingRuns(1 << 16);
    }

    /** {@return the number of padding slots: slots minus elements} */
    long paddingCount() {
        return shape.slotCount() - shape.elementCount();
    }

    /**
     * {@return runs written as text: single slots and pairs as numbers, longer runs as {@code first-last}},
     * e.g. {@code "9 11 14 15 18 19 21-23"}
     */
    static String formatRuns(List<long[]> runs) {
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
}
