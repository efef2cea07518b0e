package dev.tegula.cli.commands;

import dev.tegula.cli.FileErrors;
import dev.tegula.io.internal.ByteCounts;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.VersionProvider;
import dev.tegula.cli.TerminalText;
import dev.tegula.cli.pictures.Canvas;
import dev.tegula.cli.pictures.GridPicture;
import dev.tegula.cli.pictures.LayoutGrid;
import dev.tegula.cli.pictures.MapRenderer;
import dev.tegula.cli.pictures.PngCanvas;
import dev.tegula.cli.pictures.SvgCanvas;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.BufferShape;
import dev.tegula.core.OpaqueShape;
import dev.tegula.core.Shape;
import dev.tegula.core.TokenShape;
import dev.tegula.core.TupleShape;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tegula map SHAPE} or {@code tegula map FILE [TENSOR]}: the memory map of an array as a grid
 * of slot numbers; a tensor file's tensor is mapped in the shape Tegula reads it in.
 */
@Command(name = "map",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Draw where each element of an array sits in its buffer.",
                "The array is a shape, or a tensor of a file that inspect reads (.npy, .safetensors, .gguf, a"
                        + " checkpoint directory or index), in the shape Tegula reads it in; TENSOR names it"
                        + " where the file holds several.",
                "Draws the logical grid (rows: the"
                + " second-last dim, columns: the last dim; one grid per index of the leading dims) with the"
                + " slot of every element, tile boundaries drawn with | - +, and the padding slots.",
                "Larger arrays are drawn one cell per tile (the number is the slot of the tile's top-left"
                        + " element).",
                "With --png or --svg, writes a picture instead: the grid with each element's slot, tiles"
                        + " coloured and outlined, padding hatched, the memory order drawn as a path, and a strip"
                        + " of the buffer's slots in memory order."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error",
                "2:not a shape, an invalid shape, a bad tensor file or name, or a bad option"})
public final class MapCommand implements Callable<Integer> {
    /** The --max of pictures when it is not given. */
    public static final int PICTURE_MAX = 32;
    /** The most pixels a side of a --png or --svg picture has; the grid is cut further to stay within it. */
    public static final int MAX_PICTURE_SIDE = 8192;
    /** The most pixels of a --png or --svg picture (64 MiB as 32-bit pixels). */
    public static final long MAX_PICTURE_PIXELS = 16L << 20;
    /** The smallest side of a picture's cell, in pixels (see {@code MapRenderer}). */
    private static final int MIN_CELL_PIXELS = 30;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SHAPE|FILE [TENSOR]",
            description = "XLA shape text, e.g. 'f32[3,5]{1,0:T(2,2)}' (quote it); or a .npy / .safetensors /"
                    + " .gguf file, or a checkpoint directory or index, and the name of one of its tensors"
                    + " (needed where it holds several)")
    List<String> shape;

    @Option(names = "--legend", description = "List each tile with its rows, columns and slots, and explain the picture.")
    boolean legend;

    @Option(names = "--tiles", description = "Draw one cell per tile even when every element would fit.")
    boolean tiles;

    @Option(names = "--max", paramLabel = "N", defaultValue = "64",
            description = "Draw elements when each side of the grid is at most N (and there are at most N*N"
                    + " elements), else tiles, at most N cells a side (default: ${DEFAULT-VALUE}; for --png and"
                    + " --svg: " + PICTURE_MAX + "; pictures are also kept within " + MAX_PICTURE_SIDE
                    + " pixels a side and " + (MAX_PICTURE_PIXELS >> 20) + " M pixels, with fewer cells when needed).")
    int max;

    @Option(names = "--slice", paramLabel = "INDICES",
            description = "Only the grid at these indices of the leading dims, comma-separated, e.g. 0,3"
                    + " (rank 3 and more); tile-level maps show the first grid unless told.")
    String slice;

    @Option(names = "--png", paramLabel = "FILE", description = "Write the picture as PNG to FILE.")
    Path png;

    @Option(names = "--svg", paramLabel = "FILE", description = "Write the picture as SVG to FILE.")
    Path svg;

    @Override
    public Integer call() {
        if (max < 1 || max > 4096) {
            throw new BadInputException("--max: must be in 1..4096, got " + max);
        }
        PrintWriter out = spec.commandLine().getOut();
        Shape s;
        if (TensorFileReport.isTensorFiles(List.of(shape.getFirst()))) {
            if (shape.size() > 2) {
                throw new BadInputException("FILE [TENSOR]: one file and at most one tensor name, got " + shape.size()
                        + " arguments");
            }
            Path file = Path.of(shape.getFirst());
            TensorShapes.Tensor t = TensorShapes.of(file, shape.size() == 2 ? shape.get(1) : null);
            s = t.shape();
            if (png == null && svg == null) {
                out.println(TerminalText.of(file.toString()) + (t.name() == null ? "" : ": " + TerminalText.of(t.name()))
                        + (t.note() == null ? "" : " (" + t.note() + ")"));
            }
        } else {
            s = Shapes.parse(shape);
        }
        if (png != null || svg != null) {
            picture(out, s);
        } else {
            draw(out, s, "");
        }
        out.flush();
        return ExitStatus.OK;
    }

    private void picture(PrintWriter out, Shape s) {
        ArrayShape a = switch (s) {
            case ArrayShape x -> x;
            case BufferShape b -> b.array();
            default -> throw new BadInputException("--png/--svg draw one array; " + s
                    + " is not an array (map a tuple's elements one by one)");
        };
        if (!a.isStaticOrBounded()) {
            throw new BadInputException(a + " has an unbounded dimension (?): it has no fixed slots to map");
        }
        long[] lead = new long[Math.max(0, a.rank() - 2)];
        if (slice != null) {
            try {
                lead = GridPicture.parseSlice(slice, a.rank());
                GridPicture.checkSlice(lead, a);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(TerminalText.message(e.getMessage()));
            }
        }
        // pictures use 32 cells a side unless --max says otherwise
        boolean maxGiven = spec.commandLine().getParseResult().hasMatchedOption("--max");
        int asked = maxGiven ? max : PICTURE_MAX;
        // a cell is at least MIN_CELL_PIXELS a side: start from what can fit, then shrink until the picture does
        int cells = Math.min(asked, MAX_PICTURE_SIDE / MIN_CELL_PIXELS);
        LayoutGrid grid = new LayoutGrid(a);
        LayoutGrid.Figure figure;
        MapRenderer renderer;
        while (true) {
            figure = grid.figure(lead, cells, cells, tiles);
            renderer = new MapRenderer(figure);
            double w = renderer.width();
            double h = renderer.height();
            double shrink = Math.min(Math.min(MAX_PICTURE_SIDE / w, MAX_PICTURE_SIDE / h),
                    Math.sqrt(MAX_PICTURE_PIXELS / (w * h)));
            if (shrink >= 1 || cells == 1) {
                break;
            }
            cells = Math.max(1, Math.min(cells - 1, (int) (cells * shrink)));
        }
        String what = (figure.elementLevel() ? "one cell per element" : "one cell per tile")
                + (figure.isCut() ? ", " + figure.cellRows() + " x " + figure.cellColumns() + " cells shown" : "")
                + (cells < asked && figure.isCut() ? "; fewer cells than --max " + asked + " to keep the picture"
                        + " within " + MAX_PICTURE_SIDE + " px a side and " + (MAX_PICTURE_PIXELS >> 20) + " M pixels" : "");
        if (svg != null) {
            write(renderer.drawOn(SvgCanvas::new), svg);
            out.println("wrote " + TerminalText.of(svg.toString()) + " (SVG, " + renderer.width() + " x " + renderer.height() + " px, " + what + ")");
        }
        if (png != null) {
            write(renderer.drawOn(PngCanvas::new), png);
            out.println("wrote " + TerminalText.of(png.toString()) + " (PNG, " + renderer.width() + " x " + renderer.height() + " px, " + what + ")");
        }
    }

    private static void write(Canvas canvas, Path file) {
        try {
            canvas.write(file);
        } catch (IOException e) {
            throw FileErrors.cannotWrite(file, e);
        }
    }

    private void draw(PrintWriter out, Shape s, String path) {
        switch (s) {
            case ArrayShape a -> drawArray(out, a, path);
            case BufferShape b -> drawArray(out, b.array(), path);
            case TupleShape t -> {
                if (t.size() == 0) {
                    throw new BadInputException("the empty tuple () has no elements to map");
                }
                for (int i = 0; i < t.size(); i++) {
                    draw(out, t.element(i), path + "{" + i + "}");
                }
            }
            case TokenShape t -> throw new BadInputException("token[] holds no data: nothing to map");
            case OpaqueShape o -> throw new BadInputException("opaque[] is a pointer XLA does not look into: nothing to map");
        }
    }

    private void drawArray(PrintWriter out, ArrayShape a, String path) {
        if (!path.isEmpty()) {
            out.println("tuple element " + path + ":");
        }
        if (!a.isStaticOrBounded()) {
            throw new BadInputException(a + " has an unbounded dimension (?): it has no fixed slots to map");
        }
        long[] lead = null;
        if (slice != null) {
            try {
                lead = GridPicture.parseSlice(slice, a.rank());
                GridPicture.checkSlice(lead, a);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(TerminalText.message(e.getMessage()));
            }
        }
        LayoutGrid g = new LayoutGrid(a);
        out.println(a);
        boolean elementLevel = !tiles && GridPicture.fitsElements(g, max, (long) max * max);
        if (elementLevel) {
            out.println("slot of each element (" + GridPicture.axes(g) + "; " + GridPicture.tileNote(g) + ")");
            out.print(GridPicture.elements(g, legend, lead));
        } else {
            if (a.elementCount() > 0 && lead == null) {
                lead = g.sliceIndex(0);
            }
            out.println("tile map (" + GridPicture.axes(g) + ")");
            out.print(GridPicture.tiles(g, lead == null ? new long[0] : lead, max));
        }
        if (legend) {
            out.println(key(a, elementLevel, g));
        }
    }

    private static String key(ArrayShape a, boolean elementLevel, LayoutGrid g) {
        long bits = a.slotBits();
        String where = bits % 8 == 0
                ? "byte offset = slot x " + (bits / 8)
                : "byte offset = slot x " + bits + " / 8 (" + (8 / bits) + " slots per byte, the lowest slot in the low bits)";
        return "key: a slot is an element-sized position in the buffer (" + where + "); "
                + (elementLevel ? "each number is the slot of the element at that row and column"
                        : "each number is the slot of the top-left element of that cell")
                + (g.hasTileBoundaries() && elementLevel ? "; | and - are tile boundaries" : "")
                + "; padding slots hold no element (bufferSize " + ByteCounts.text(a.bufferSize()) + ")";
    }
}
