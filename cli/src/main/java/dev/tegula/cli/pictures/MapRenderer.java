package dev.tegula.cli.pictures;

import dev.tegula.io.internal.ByteCounts;

import dev.tegula.core.ArrayShape;
import dev.tegula.cli.pictures.Canvas.Anchor;
import dev.tegula.cli.pictures.LayoutGrid.Box;
import dev.tegula.cli.pictures.LayoutGrid.Cell;
import dev.tegula.cli.pictures.LayoutGrid.StripSlot;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Draws a {@link LayoutGrid.Figure} in the manner of the figures of XLA's tiled-layout documentation: the
 * logical grid with each element's slot, cells coloured by tile (or by line of an untiled layout),
 * tiles outlined, padding hatched, the memory order as a path through the cells (from a dot to an
 * arrow head), and under it a strip of the buffer in memory order. Measures first, then draws, so
 * the picture is exactly as large as its content.
 */
public final class MapRenderer {
    /** Pastel fills, one per colour group in turn; grey is kept for padding. */
    public static final int[] PALETTE = {0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xdbdb8d,
        0x9edae5};
    public static final int INK = 0x222222;
    public static final int MUTED = 0x666666;
    public static final int PATH = 0xc0392b;
    private static final int MARGIN = 20;
    private static final double CHAR = 0.62; // width of a digit in em, for sizing
    private static final double TEXT_AT = 0.40; // the slot number's centre, down the cell
    private static final double PATH_AT = 0.76; // the path's horizontal runs (lanes), down the cell, below the number
    private static final double GUTTER = 3.5;   // the path's vertical runs: this far right of a cell's left edge

    private final LayoutGrid.Figure f;
    private final int cellW;
    private final int cellH;
    private final double cellFont;
    private final int labelW;
    private final int gridX;
    private final int gridY;
    private final int stripSquare;
    private final int stripPerRow;
    private final int stripLabelW;
    private final int stripY;
    private final int legendY;
    private final int width;
    private final int height;
    private final List<String> header = new ArrayList<>();

    public MapRenderer(LayoutGrid.Figure figure) {
        this.f = figure;
        ArrayShape s = f.shape();
        long maxSlot = Math.max(1, s.slotCount() - 1);
        int digits = Long.toString(maxSlot).length();
        cellFont = f.elementLevel() ? 12 : 11;
        cellW = (int) Math.max(f.elementLevel() ? 44 : 58, Math.ceil(digits * cellFont * CHAR + 14));
        if (f.elementLevel()) {
            cellH = 40;
        } else {
            double aspect = (double) f.blockRows() / f.blockColumns();
            cellH = (int) Math.max(30, Math.min(2.0 * cellW, Math.round(cellW * aspect)));
        }
        long maxRowLabel = (long) Math.max(0, f.cellRows() - 1) * f.blockRows();
        labelW = (int) Math.ceil(Long.toString(maxRowLabel).length() * 11 * CHAR) + 10;

        header.add(s.toString());
        header.add(describeAxes());
        header.add(describeCells());
        if (s.rank() > 2) {
            header.add("grid " + GridPicture.sliceLabel(f.lead(), s.rank()) + " of " + f.grid().sliceCount()
                    + " (one grid per index of the leading dims)");
        }
        if (f.isCut()) {
            header.add("showing " + f.cellRows() + " of " + f.totalCellRows() + " cell rows and " + f.cellColumns()
                    + " of " + f.totalCellColumns() + " cell columns");
        }
        gridX = MARGIN + labelW;
        gridY = MARGIN + 26 + 18 * (header.size() - 1) + 22;

        // strip: whole groups per row where they fit in about 32 squares
        stripSquare = f.elementLevel() ? 24 : 18;
        long unitsPerGroup = Math.max(1, f.groupSlots() / f.stripUnit());
        int per = 32;
        if (unitsPerGroup <= 32) {
            per = (int) (unitsPerGroup * Math.max(1, 32 / unitsPerGroup));
        }
        stripPerRow = (int) Math.max(1, Math.min(per, f.stripTotal()));
        stripLabelW = (int) Math.ceil(("slot " + maxSlot).length() * 11 * CHAR) + 10;
        int gridBottom = gridY + f.cellRows() * cellH;
        stripY = gridBottom + 50;
        int stripRows = Math.ceilDiv(f.strip().size(), stripPerRow);
        legendY = stripY + stripRows * stripSquare + (f.strip().size() < f.stripTotal() ? 34 : 22);
        int gridRight = gridX + f.cellColumns() * cellW;
        int stripRight = MARGIN + stripLabelW + stripPerRow * stripSquare;
        int textRight = MARGIN;
        for (String h : header) {
            textRight = Math.max(textRight, MARGIN + (int) (h.length() * 13 * 0.58));
        }
        for (String l : legendLines()) {
            textRight = Math.max(textRight, MARGIN + 20 + (int) (l.length() * 12 * 0.56));
        }
        width = Math.max(Math.max(gridRight, stripRight), textRight) + MARGIN;
        height = legendY + 22 * legendLines().size() + MARGIN;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Draws the whole figure on {@code c}, which must be {@link #width()} x {@link #height()}. */
    public void draw(Canvas c) {
        drawHeader(c);
        drawGrid(c);
        drawStrip(c);
        drawLegend(c);
    }

    /** {@return a canvas of the right size made by {@code make}, with the figure drawn on it} */
    public <C extends Canvas> C drawOn(BiFunction<Integer, Integer, C> make) {
        C c = make.apply(width, height);
        draw(c);
        return c;
    }

    private void drawHeader(Canvas c) {
        c.text(MARGIN, MARGIN + 16, header.getFirst(), 17, INK, Anchor.START, true);
        for (int i = 1; i < header.size(); i++) {
            c.text(MARGIN, MARGIN + 20 + 18 * i, header.get(i), 13, MUTED, Anchor.START, false);
        }
    }

    private void drawGrid(Canvas c) {
        List<Cell> cells = f.cells();
        if (cells.isEmpty()) {
            c.text(gridX, gridY + 16, "(no elements)", 13, MUTED, Anchor.START, false);
            return;
        }
        // column and row labels: the element index where the cell starts
        for (int col = 0; col < f.cellColumns(); col++) {
            c.text(gridX + col * cellW + cellW / 2.0, gridY - 7, Long.toString(col * f.blockColumns()), 11, MUTED,
                    Anchor.MIDDLE, false);
        }
        for (int row = 0; row < f.cellRows(); row++) {
            c.text(gridX - 6, gridY + row * cellH + cellH / 2.0 + 4, Long.toString(row * f.blockRows()), 11, MUTED,
                    Anchor.END, false);
        }
        for (Cell cell : cells) {
            double x = gridX + cell.column() * cellW;
            double y = gridY + cell.row() * cellH;
            if (cell.padding()) {
                c.hatch(x, y, cellW, cellH);
            } else {
                c.rect(x, y, cellW, cellH, fill(cell.group()), -1, 0);
                if (cell.padColumns() > 0) {
                    double pw = cellW * cell.padColumns();
                    c.hatch(x + cellW - pw, y, pw, cellH);
                }
                if (cell.padRows() > 0) {
                    double ph = cellH * cell.padRows();
                    c.hatch(x, y + cellH - ph, cellW, ph);
                }
            }
            c.rect(x, y, cellW, cellH, -1, 0xffffff, 1);
        }
        for (Box b : f.tiles()) {
            c.rect(gridX + b.column() * cellW, gridY + b.row() * cellH, b.columns() * cellW, b.rows() * cellH, -1,
                    INK, f.elementLevel() ? 2.5 : 1.5);
        }
        if (f.tiles().isEmpty()) {
            c.rect(gridX, gridY, f.cellColumns() * cellW, f.cellRows() * cellH, -1, INK, 1.5);
        }
        drawPath(c, f.path());
        for (Cell cell : cells) {
            double x = gridX + cell.column() * cellW + cellW / 2.0;
            double y = gridY + cell.row() * cellH + cellH * TEXT_AT + cellFont * 0.36;
            c.text(x, y, Long.toString(cell.slot()), cellFont, cell.padding() ? MUTED : INK, Anchor.MIDDLE, false);
        }
    }

    private void drawPath(Canvas c, List<Cell> path) {
        int n = path.size();
        if (n == 0) {
            return;
        }
        // A path of right angles that never crosses a slot number: each cell is visited at its lower
        // left corner (its lane, below the number, at its gutter, left of the number); within a row
        // the path runs along the lane, and to change rows it goes along the gutter to the border
        // between the rows and along that border, so it does not retrace a lane.
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Cell to = path.get(i);
            double x = gridX + to.column() * cellW + GUTTER;
            double y = gridY + to.row() * cellH + cellH * PATH_AT;
            if (i > 0 && path.get(i - 1).row() != to.row()) {
                Cell from = path.get(i - 1);
                double[] last = points.getLast();
                double border = gridY + (to.row() > from.row() ? from.row() + 1 : from.row()) * (double) cellH;
                points.add(new double[] {last[0], border});
                points.add(new double[] {x, border});
            }
            points.add(new double[] {x, y});
        }
        n = points.size();
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = points.get(i)[0];
            ys[i] = points.get(i)[1];
        }
        c.polyline(xs, ys, PATH, 2, 0.7);
        c.circle(xs[0], ys[0], 4, PATH);
        if (n > 1) {
            arrowHead(c, xs[n - 2], ys[n - 2], xs[n - 1], ys[n - 1]);
        }
    }

    private static void arrowHead(Canvas c, double x1, double y1, double x2, double y2) {
        double dx = x2 - x1;
        double dy = y2 - y1;
        double len = Math.hypot(dx, dy);
        if (len == 0) {
            return;
        }
        dx /= len;
        dy /= len;
        double size = 10;
        double bx = x2 - dx * size;
        double by = y2 - dy * size;
        c.polygon(new double[] {x2, bx - dy * size * 0.5, bx + dy * size * 0.5},
                new double[] {y2, by + dx * size * 0.5, by - dx * size * 0.5}, PATH);
    }

    private void drawStrip(Canvas c) {
        ArrayShape s = f.shape();
        String unit = f.stripUnit() == 1 ? "one square per slot"
                : "one square per " + (s.layout().isTiled() ? "tile" : "line") + " of " + f.stripUnit() + " slots";
        c.text(MARGIN, stripY - 12, "memory order: the buffer's " + s.slotCount() + " slots from slot 0, " + unit
                + (s.slotCount() > s.elementCount() ? ", padding hatched" : ""), 13, MUTED, Anchor.START, false);
        List<StripSlot> strip = f.strip();
        int x0 = MARGIN + stripLabelW;
        for (int i = 0; i < strip.size(); i++) {
            StripSlot slot = strip.get(i);
            int row = i / stripPerRow;
            int col = i % stripPerRow;
            double x = x0 + col * stripSquare;
            double y = stripY + row * stripSquare;
            if (col == 0) {
                c.text(x0 - 6, y + stripSquare / 2.0 + 4, "slot " + slot.slot(), 11, MUTED, Anchor.END, false);
            }
            if (slot.element()) {
                c.rect(x, y, stripSquare, stripSquare, fill(slot.group()), -1, 0);
            } else {
                c.hatch(x, y, stripSquare, stripSquare);
            }
            c.rect(x, y, stripSquare, stripSquare, -1, 0xffffff, 1);
            if (f.stripUnit() == 1 && Long.toString(slot.slot()).length() <= 3) {
                c.text(x + stripSquare / 2.0, y + stripSquare / 2.0 + 3.5, Long.toString(slot.slot()), 10,
                        slot.element() ? INK : MUTED, Anchor.MIDDLE, false);
            }
        }
        if (strip.size() < f.stripTotal()) {
            int rows = Math.ceilDiv(strip.size(), stripPerRow);
            c.text(x0, stripY + rows * stripSquare + 16, "... " + (f.stripTotal() - strip.size()) + " more"
                    + (f.stripUnit() == 1 ? " slots" : s.layout().isTiled() ? " tiles" : " lines"), 12, MUTED,
                    Anchor.START, false);
        }
    }

    private void drawLegend(Canvas c) {
        List<LegendLine> lines = legend();
        for (int i = 0; i < lines.size(); i++) {
            double y = legendY + 22 * i;
            LegendLine line = lines.get(i);
            switch (line.swatch()) {
                case COLOUR -> {
                    c.rect(MARGIN, y, 14, 14, PALETTE[0], -1, 0);
                    c.rect(MARGIN + 7, y, 7, 14, PALETTE[1], -1, 0);
                }
                case HATCH -> c.hatch(MARGIN, y, 14, 14);
                case PATH -> {
                    c.line(MARGIN, y + 7, MARGIN + 14, y + 7, PATH, 2);
                    c.circle(MARGIN, y + 7, 3, PATH);
                }
                case NONE -> { }
            }
            c.text(MARGIN + 20, y + 11.5, line.text(), 12, line.swatch() != Swatch.NONE ? INK : MUTED, Anchor.START,
                    false);
        }
    }

    private enum Swatch { COLOUR, HATCH, PATH, NONE }

    private record LegendLine(Swatch swatch, String text) {
    }

    private List<String> legendLines() {
        return legend().stream().map(LegendLine::text).toList();
    }

    private List<LegendLine> legend() {
        ArrayShape s = f.shape();
        boolean tiled = s.layout().isTiled();
        List<LegendLine> l = new ArrayList<>();
        l.add(new LegendLine(Swatch.COLOUR, tiled
                ? "colour: one tile (" + f.groupSlots() + " consecutive slots); tiles outlined in black"
                : s.rank() == 0 ? "colour: the one slot"
                : "colour: one run along dim " + s.layout().minorToMajor(0) + ", the most minor dimension ("
                        + f.groupSlots() + " consecutive slots)"));
        long bits = s.slotBits();
        long pad = s.slotCount() - s.elementCount();
        if (pad > 0) {
            l.add(new LegendLine(Swatch.HATCH, "hatched: padding, slots that hold no element"));
        }
        l.add(new LegendLine(Swatch.PATH, "red path: memory order, from the dot (lowest slot) to the arrow"));
        l.add(new LegendLine(Swatch.NONE, "slots: " + s.slotCount() + " in all, " + s.elementCount() + " hold elements"
                + (pad > 0 ? ", " + pad + " padding" : ", no padding") + ";"
                + " byte offset = slot x " + (bits % 8 == 0 ? Long.toString(bits / 8) : bits + " / 8")
                + "; bufferSize " + ByteCounts.text(s.bufferSize())));
        return l;
    }

    private String describeAxes() {
        return GridPicture.axes(f.grid()) + "; " + GridPicture.tileNote(f.grid());
    }

    private String describeCells() {
        if (f.elementLevel()) {
            return "each cell is one element and shows its slot (its position in the buffer, in elements)";
        }
        if (f.grid().hasTileBoundaries()) {
            return "each cell is one tile of " + f.blockRows() + " x " + f.blockColumns()
                    + " elements and shows the slot of its top-left element";
        }
        return "each cell is a block of " + f.blockRows() + " x " + f.blockColumns()
                + " elements and shows the slot of its top-left element";
    }

    public static int fill(long group) {
        return PALETTE[(int) Math.floorMod(group, (long) PALETTE.length)];
    }
}
