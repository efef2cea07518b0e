package dev.tegula.cli.commands;

import dev.tegula.io.internal.ByteCounts;
import dev.tegula.cli.TerminalText;
import dev.tegula.cli.pictures.GridPicture;
import dev.tegula.cli.pictures.LayoutGrid;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.BufferShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.OpaqueShape;
import dev.tegula.core.Shape;
import dev.tegula.core.SplitConfig;
import dev.tegula.core.Tile;
import dev.tegula.core.TokenShape;
import dev.tegula.core.TupleShape;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of {@code tegula inspect}: what a shape's text says, field by field, in words, with its
 * sizes and, for small arrays, a picture of where each element sits. Stateless.
 */
final class ShapeReport {
    /** Pictures are drawn when each side of the grid is at most this. */
    static final long PICTURE_MAX_SIDE = 16;
    /** ... and the array has at most this many elements. */
    static final long PICTURE_MAX_ELEMENTS = 256;

    private static final int KEY = 16;
    /** Tuples and buffers nested deeper than this are summarised in one line, not described. */
    static final int MAX_DETAIL_DEPTH = 4;
    /** Elements of one tuple described; the rest are counted. */
    static final int MAX_TUPLE_ELEMENTS = 32;
    /** Shape text longer than this is cut, with a count of what was left out. */
    static final int MAX_SHAPE_CHARS = 300;

    private ShapeReport() {
    }

    private static String shapeText(Shape s) {
        return TerminalText.of(s.toString(), MAX_SHAPE_CHARS);
    }

    /** {@return the report for any shape} */
    static String of(Shape shape) {
        StringBuilder sb = new StringBuilder();
        append(sb, shape, "");
        return sb.toString();
    }

    private static void append(StringBuilder sb, Shape shape, String indent) {
        if (indent.length() >= 2 * MAX_DETAIL_DEPTH && !(shape instanceof ArrayShape)) {
            line(sb, indent, "shape", shapeText(shape));
            line(sb, indent, "", "(nested more than " + MAX_DETAIL_DEPTH + " levels deep: not described here;"
                    + " inspect it on its own)");
            return;
        }
        switch (shape) {
            case ArrayShape a -> array(sb, a, indent);
            case TupleShape t -> tuple(sb, t, indent);
            case BufferShape b -> {
                line(sb, indent, "shape", b.toString());
                line(sb, indent, "kind", "buffer: a buffer holding one array (XLA's b(...)); the array:");
                array(sb, b.array(), indent + "  ");
            }
            case TokenShape t -> {
                line(sb, indent, "shape", t.toString());
                line(sb, indent, "kind", "token: orders side effects between operations; holds no data");
                line(sb, indent, "byteSize", "0 B");
            }
            case OpaqueShape o -> {
                line(sb, indent, "shape", o.toString());
                line(sb, indent, "kind", "opaque: a pointer-sized value XLA does not look into");
                line(sb, indent, "byteSize", OpaqueShape.POINTER_SIZE + " B (a pointer)");
            }
        }
    }

    private static void tuple(StringBuilder sb, TupleShape t, String indent) {
        line(sb, indent, "shape", shapeText(t));
        int n = t.size();
        line(sb, indent, "kind", "tuple of " + n + (n == 1 ? " element" : " elements"));
        line(sb, indent, "byteSize", t.byteSize() + " B (XLA's ByteSizeOf of a tuple: its index table, 8 B per element)");
        for (int i = 0; i < Math.min(n, MAX_TUPLE_ELEMENTS); i++) {
            sb.append(indent).append("element ").append(i).append(":\n");
            append(sb, t.element(i), indent + "  ");
        }
        if (n > MAX_TUPLE_ELEMENTS) {
            sb.append(indent).append("... ").append(n - MAX_TUPLE_ELEMENTS).append(" more elements, not described\n");
        }
    }

    private static void array(StringBuilder sb, ArrayShape a, String indent) {
        Layout l = a.layout();
        ElementType type = a.elementType();
        line(sb, indent, "shape", a.toString());
        line(sb, indent, "element type", elementType(type));
        line(sb, indent, "dimensions", dimensions(a));
        if (a.rank() > 0) {
            line(sb, indent, "physical order", physicalOrder(a));
        }
        if (l.isTiled()) {
            line(sb, indent, "tiling", tilesText(l.tiles()));
            List<String> meanings = tileMeanings(a);
            for (String m : meanings) {
                line(sb, indent, "", m);
            }
        } else {
            line(sb, indent, "tiling", "none");
        }
        line(sb, indent, "element size", elementSize(a));
        line(sb, indent, "tail padding", l.tailPaddingAlignment() == 1 ? "none (L(1))"
                : "L(" + l.tailPaddingAlignment() + "): the slot count is rounded up to a multiple of "
                        + l.tailPaddingAlignment() + (l.isTiled() ? "" : " (ignored: the layout is untiled, as in XLA)"));
        line(sb, indent, "memory space", memorySpace(l.memorySpace()));
        line(sb, indent, "legacy padding", legacyPadding(a));
        if (!l.splitConfigs().isEmpty()) {
            line(sb, indent, "splits", splits(l.splitConfigs()));
        }
        if (l.dynamicShapeMetadataPrefixBytes() != 0) {
            line(sb, indent, "metadata", "M(" + l.dynamicShapeMetadataPrefixBytes()
                    + "): bytes of dynamic-size metadata in front of the data (not in the sizes below)");
        }
        if (!a.isStaticOrBounded()) {
            line(sb, indent, "sizes", "undefined: an unbounded dimension (?) has no size");
            line(sb, indent, "addressing", "none (needs every dimension sized)");
            return;
        }
        long bytes = a.byteSize();
        long buffer = a.bufferSize();
        line(sb, indent, "elements", Long.toString(a.elementCount()));
        line(sb, indent, "byteSize", ByteCounts.text(bytes) + "  logical bytes, no tile padding (XLA ByteSizeOf)");
        line(sb, indent, "bufferSize", ByteCounts.text(buffer) + "  bytes a buffer in this layout needs, padding included");
        long xla = a.xlaArraySize();
        if (xla != buffer) {
            line(sb, indent, "XLA ArraySize", ByteCounts.text(xla) + "  (XLA applies only the first tile and the largest split)");
        }
        line(sb, indent, "padding", paddingText(bytes, buffer));
        line(sb, indent, "slots", a.slotCount() + " (" + a.elementCount() + (a.elementCount() == 1 ? " element + " : " elements + ")
                + (a.slotCount() - a.elementCount()) + " padding), " + a.slotBits() + " bits each");
        Addressing addr = Addressing.of(a);
        line(sb, indent, "addressing", addressing(addr));
        picture(sb, a, indent);
    }

    private static void picture(StringBuilder sb, ArrayShape a, String indent) {
        LayoutGrid g = new LayoutGrid(a);
        if (a.elementCount() == 0) {
            line(sb, indent, "picture", "none: the array has no elements");
            return;
        }
        if (!GridPicture.fitsElements(g, PICTURE_MAX_SIDE, a.rank() <= 2 ? Long.MAX_VALUE : PICTURE_MAX_ELEMENTS)) {
            line(sb, indent, "picture", "too large to draw here (a picture needs at most " + PICTURE_MAX_SIDE + " x "
                    + PICTURE_MAX_SIDE + " per grid and " + PICTURE_MAX_ELEMENTS + " elements);"
                    + " `tegula map` draws it one tile per cell");
            return;
        }
        sb.append('\n').append(indent).append("slot of each element (").append(GridPicture.axes(g)).append("; ")
                .append(GridPicture.tileNote(g)).append("):\n");
        String pic = GridPicture.elements(g, false);
        for (String lineText : pic.split("\n", -1)) {
            if (!lineText.isEmpty()) {
                sb.append(indent).append("  ").append(lineText);
            }
            sb.append('\n');
        }
        sb.setLength(sb.length() - 1);
    }

    // ---- fields in words -------------------------------------------------------------------------------

    static String elementType(ElementType t) {
        String kind;
        if (t.isPred()) {
            kind = "boolean";
        } else if (t.isComplex()) {
            kind = "complex (real, imaginary pair of " + t.componentType() + ")";
        } else if (t.isFloating()) {
            kind = "floating point";
        } else if (t.isUnsigned()) {
            kind = "unsigned integer";
        } else {
            kind = "signed integer";
        }
        String extra = t == ElementType.BF16 ? ", bfloat16"
                : t.isSubByte() ? ", sub-byte (stored one per byte unless the layout packs it with E(n))"
                : t == ElementType.PRED ? ", stored one per byte" : "";
        return t.hloName() + ": " + kind + extra + "; " + t.bitWidth() + (t.bitWidth() == 1 ? " bit, " : " bits, ")
                + t.byteWidth() + (t.byteWidth() == 1 ? " byte" : " bytes");
    }

    static String dimensions(ArrayShape a) {
        int rank = a.rank();
        StringBuilder sb = new StringBuilder("[");
        int dynamic = 0;
        for (int d = 0; d < rank; d++) {
            if (d > 0) {
                sb.append(", ");
            }
            if (a.isUnboundedDimension(d)) {
                sb.append('?');
            } else if (a.isDynamicDimension(d)) {
                sb.append("<=").append(a.dimension(d));
            } else {
                sb.append(a.dimension(d));
            }
            if (a.isDynamicDimension(d)) {
                dynamic++;
            }
        }
        sb.append("]  rank ").append(rank);
        if (rank == 0) {
            sb.append(" (a scalar)");
        }
        if (dynamic > 0) {
            sb.append("; ").append(dynamic).append(" dynamic (<=N: at most N, sized by the bound; ?: unbounded)");
        }
        return sb.toString();
    }

    static String physicalOrder(ArrayShape a) {
        Layout l = a.layout();
        int rank = a.rank();
        StringBuilder order = new StringBuilder();
        StringBuilder sizes = new StringBuilder();
        for (int p = 0; p < rank; p++) {
            if (p > 0) {
                order.append(", ");
                sizes.append(',');
            }
            int d = l.major(p);
            order.append(d);
            sizes.append(a.isUnboundedDimension(d) ? "?" : Long.toString(a.dimension(d)));
        }
        String kind = l.rank() < 2 ? "" : l.isRowMajor() ? " (row-major)" : l.isColumnMajor() ? " (column-major)" : "";
        return "dims " + order + ", major to minor" + kind + "; physical sizes [" + sizes + "]";
    }

    static String tilesText(List<Tile> tiles) {
        StringBuilder sb = new StringBuilder("T");
        for (Tile t : tiles) {
            sb.append(t);
        }
        return sb.toString();
    }

    /** {@return one sentence per tile saying what it does, e.g. "(8,128): 8x128 tiles of the two most minor physical dims"} */
    static List<String> tileMeanings(ArrayShape a) {
        Layout l = a.layout();
        List<Tile> tiles = l.tiles();
        int rank = a.rank();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tiles.size(); i++) {
            Tile t = tiles.get(i);
            int k = t.rank();
            StringBuilder sb = new StringBuilder().append(t).append(": ");
            if (i == 0) {
                sb.append(sizesX(t)).append(k == 1 ? "-element chunks of the most minor physical dim"
                        : " tiles of the " + countWord(k) + " most minor physical dims");
                if (!t.hasCombinedDimensions()) {
                    sb.append(" (");
                    if (rank > 0) {
                        sb.append("logical ").append(coveredDims(l, k)).append("; ");
                    }
                    long tilesCount = tileCount(a, t);
                    sb.append(tilesCount).append(tilesCount == 1 ? " tile" : " tiles").append(')');
                }
                if (k > rank) {
                    sb.append("; the tile is longer than the rank, so the shape counts as having ").append(k - rank)
                            .append(" more leading size-1 dim").append(k - rank == 1 ? "" : "s");
                }
                if (t.hasCombinedDimensions()) {
                    sb.append("; each * merges that dim into the next more minor one before tiling");
                }
            } else if (isPairing(t)) {
                long c = t.dimension(0);
                sb.append(c == 2 ? "pairs" : "groups of " + c).append(" of rows inside each tile: elements (")
                        .append(c).append("i+j, col) for j < ").append(c).append(" are adjacent")
                        .append(" (").append(sizesX(t)).append(" sub-tiles of each ").append(sizesX(tiles.get(i - 1)))
                        .append(" tile)");
            } else if (k <= tiles.get(i - 1).rank()) {
                sb.append(sizesX(t)).append(" sub-tiles of the most minor dims inside each ")
                        .append(sizesX(tiles.get(i - 1))).append(" tile");
            } else {
                sb.append("reaches past the ").append(sizesX(tiles.get(i - 1)))
                        .append(" tile into the grid of tiles (its major sizes group whole tiles)");
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static boolean isPairing(Tile t) {
        if (t.rank() < 2 || t.dimension(0) <= 1 || t.hasCombinedDimensions()) {
            return false;
        }
        for (int i = 1; i < t.rank(); i++) {
            if (t.dimension(i) != 1) {
                return false;
            }
        }
        return t.rank() == 2;
    }

    private static String coveredDims(Layout l, int k) {
        int[] covered = l.coveredDimensions(k);
        StringBuilder sb = new StringBuilder(covered.length == 1 ? "dim " : "dims ");
        for (int i = 0; i < covered.length; i++) {
            if (i > 0) {
                sb.append(i == covered.length - 1 ? " and " : ", ");
            }
            sb.append(covered[i]);
        }
        return sb.toString();
    }

    private static long tileCount(ArrayShape a, Tile t) {
        int rank = a.rank();
        int k = t.rank();
        Layout l = a.layout();
        long n = 1;
        for (int i = 0; i < k; i++) {
            int p = rank - k + i;
            long size = p < 0 ? 1 : a.dimension(l.major(p));
            long td = t.dimension(i);
            n = Math.multiplyExact(n, size == 0 ? 0 : (size - 1) / td + 1);
        }
        for (int p = 0; p < rank - k; p++) {
            n = Math.multiplyExact(n, a.dimension(l.major(p)));
        }
        return n;
    }

    private static String sizesX(Tile t) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.rank(); i++) {
            if (i > 0) {
                sb.append('x');
            }
            sb.append(t.dimension(i) == Tile.COMBINE ? "*" : Long.toString(t.dimension(i)));
        }
        return sb.toString();
    }

    private static String countWord(int k) {
        return switch (k) {
            case 2 -> "two";
            case 3 -> "three";
            case 4 -> "four";
            default -> Integer.toString(k);
        };
    }

    static String elementSize(ArrayShape a) {
        long e = a.layout().elementSizeInBits();
        int own = a.elementType().bitWidth();
        if (e == 0) {
            return a.slotBits() + " bits per element (the type's own storage; no E(n))";
        }
        String s = "E(" + e + "): each element stored in " + e + (e == 1 ? " bit" : " bits");
        if (e < 8 && 8 % e == 0) {
            s += ", " + (8 / e) + " per byte (packed; element 0 in the low bits)";
        } else if (e == 8L * a.elementType().byteWidth()) {
            s += " (the type's own storage)";
        }
        return s + "; the type is " + own + (own == 1 ? " bit" : " bits") + " wide";
    }

    static String memorySpace(long id) {
        String meaning = switch ((int) id) {
            case 0 -> "device default memory (e.g. HBM)";
            case 1 -> "alternate (fast) memory: what XLA's memory-space assignment uses (TPU: VMEM)";
            case 5 -> "pinned host memory (PJRT \"pinned_host\")";
            case 6 -> "unpinned host memory (PJRT \"unpinned_host\")";
            default -> "backend-specific memory space";
        };
        return "S(" + id + "): " + meaning;
    }

    static String legacyPadding(ArrayShape a) {
        Layout l = a.layout();
        if (!l.hasPaddedDimensions()) {
            return "none";
        }
        long[] p = l.paddedDimensions();
        StringBuilder sb = new StringBuilder("each dim padded at its end to [");
        for (int i = 0; i < p.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(p[i]);
        }
        return sb.append("] (the 2017 padded_dimensions), padding holds ").append(l.paddingValue().textName())
                .toString();
    }

    private static String splits(List<SplitConfig> splits) {
        StringBuilder sb = new StringBuilder("SC");
        for (SplitConfig s : splits) {
            sb.append(s);
        }
        return sb.append(": (physical dim : split indices), physical dim 0 the most major").toString();
    }

    static String paddingText(long bytes, long buffer) {
        long pad = buffer - bytes;
        if (bytes == 0) {
            return pad + " B";
        }
        return pad + " B (" + String.format(Locale.ROOT, "%.2f", 100.0 * pad / bytes) + "% of byteSize)";
    }

    static String addressing(Addressing a) {
        Addressing.Kind kind = a.kind();
        String what = switch (kind) {
            case STRIDED_1 -> "strided, rank 1 (untiled)";
            case STRIDED_2 -> "strided, rank 2 (untiled)";
            case STRIDED_3 -> "strided, rank 3 (untiled)";
            case STRIDED_4 -> "strided, rank 4 (untiled)";
            case STRIDED_N -> "strided, any rank (untiled)";
            case TILED_2 -> "rank 2, one 2-D tile on the physical dims (and an optional (c,1) tile)";
            case TILED_N -> "a 2-D tile on the two most minor physical dims (and an optional (c,1) tile),"
                    + " leading dims strided over whole tile grids";
            case GENERAL -> "XLA's general nested-tiling algorithm";
        };
        return "Addressing.Kind." + kind + ": " + what;
    }

    private static void line(StringBuilder sb, String indent, String key, String value) {
        sb.append(indent).append(key);
        sb.append(" ".repeat(Math.max(1, KEY - key.length())));
        sb.append(value).append('\n');
    }
}
