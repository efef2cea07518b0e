package dev.tegula.core;

/**
 * XLA's shape and layout validation ({@code ShapeUtil::ValidateShape},
 * {@code LayoutUtil::ValidateLayoutForShape}), in XLA's check order and with XLA's messages, plus
 * Tegula's strict checks. Returns the first problem as a message, or null.
 */
final class Validator {
    private Validator() {
    }

    static String problem(Shape shape, boolean strict) {
        return switch (shape) {
            case ArrayShape a -> arrayProblem(a, strict);
            case TupleShape t -> {
                for (int i = 0; i < t.size(); i++) {
                    String p = problem(t.element(i), strict);
                    if (p != null) {
                        yield "tuple element " + i + ": " + p;
                    }
                }
                yield null;
            }
            case BufferShape b -> problem(b.array(), strict);
            case TokenShape tk -> null;
            case OpaqueShape o -> null;
        };
    }

    /** {@return null if {@code m} is a permutation of 0..n-1, else what is wrong} */
    static String permutationProblem(int[] m) {
        boolean[] seen = new boolean[m.length];
        for (int v : m) {
            if (v < 0 || v >= m.length) {
                return "layout minor_to_major field has out-of-bounds value " + v;
            }
            if (seen[v]) {
                return "layout minor_to_major field has duplicate values";
            }
            seen[v] = true;
        }
        return null;
    }

    private static String arrayProblem(ArrayShape a, boolean strict) {
        ElementType type = a.elementType();
        if (type == null || !type.isArrayType()) {
            return "Invalid element type: " + type + " cannot be an array element type.";
        }
        long[] dims = a.dimsUnsafe();
        boolean[] dyn = a.dynamicUnsafe();
        long product = 1;
        boolean overflow = false;
        for (int i = 0; i < dims.length; i++) {
            long d = dims[i];
            if (d == ArrayShape.UNBOUNDED_SIZE) {
                if (!dyn[i]) {
                    return "Invalid dimension size " + d + ", is_dynamic=false (dimensions[" + i + "])";
                }
                continue;
            }
            if (d < 0) {
                return "Negative dimension at index " + i + ": " + d + ".";
            }
            if (!overflow) {
                long hi = Math.multiplyHigh(product, d);
                long lo = product * d;
                if (hi != 0 || lo < 0) {
                    overflow = true;
                } else {
                    product = lo;
                }
            }
        }
        if (overflow) {
            return "Dimensions overflow: the element count of " + ShapePrinter.print(a, false) + " exceeds int64.";
        }
        long w = Math.max(1, type.byteWidth());
        if (Math.multiplyHigh(product, w) != 0 || product * w < 0) {
            return "Shape " + ShapePrinter.print(a, false) + " size may overflow int64_t.";
        }
        String p = layoutProblem(a, strict);
        if (p != null) {
            return p;
        }
        if (strict && a.isStaticOrBounded()) {
            try {
                IndexPlan.of(a);
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    /** How {@link Tile}'s problems begin: for an array shape, the message then names the shape. */
    private static final String INVALID_TILES = "layout has invalid tiles";

    private static String layoutProblem(ArrayShape a, boolean strict) {
        Layout l = a.layout();
        int rank = a.rank();
        int[] m = l.minorToMajor;
        if (m.length != rank) {
            return "layout minor_to_major field contains " + m.length + " elements, but shape has " + rank
                    + " dimensions: {" + join(m) + "}; shape: " + ShapePrinter.print(a, false);
        }
        String perm = permutationProblem(m);
        if (perm != null) {
            return perm + ": {" + join(m) + "}; shape: " + ShapePrinter.print(a, false);
        }
        String f = fieldProblem(l);
        if (f != null) {
            return f.startsWith(INVALID_TILES) ? f + "; shape: " + ShapePrinter.print(a, true) : f;
        }
        boolean[] seenSplit = new boolean[rank];
        for (SplitConfig sc : l.splitConfigs) {
            int pd = sc.dimension();
            if (pd < 0 || pd >= rank) {
                return "layout split_configs: physical dimension " + pd + " is out of range for rank " + rank;
            }
            if (seenSplit[pd]) {
                return "layout split_configs: physical dimension " + pd + " is split twice";
            }
            seenSplit[pd] = true;
            long size = a.dimension(l.major(pd));
            long prev = 0;
            for (long s : sc.indicesUnsafe()) {
                if (s <= prev || s >= size) {
                    return "layout split_configs: split index " + s + " of physical dimension " + pd
                            + " must be increasing and within (0, " + size + ")";
                }
                prev = s;
            }
        }
        if (l.paddedDimensions != null) {
            if (l.paddedDimensions.length != rank) {
                return "layout has " + l.paddedDimensions.length + " padded dimensions, but shape is rank " + rank;
            }
            for (int d = 0; d < rank; d++) {
                if (a.isUnboundedDimension(d)) {
                    continue;
                }
                if (l.paddedDimensions[d] < a.dimension(d)) {
                    return "for dimension " + d + ", dimension padding (" + l.paddedDimensions[d]
                            + ") is smaller than the dimension size (" + a.dimension(d) + ")";
                }
            }
        }
        return strict ? strictProblem(l, a.elementType()) : null;
    }

    /**
     * The checks of a layout on its own ({@link Layout#parse}): those of {@link #layoutProblem(ArrayShape, boolean)}
     * at STRICT that need no shape. The rank is the number of {@code minor_to_major} entries.
     */
    static String layoutProblem(Layout l) {
        int[] m = l.minorToMajor;
        String perm = permutationProblem(m);
        if (perm != null) {
            return perm + ": {" + join(m) + "}";
        }
        String f = fieldProblem(l);
        if (f != null) {
            return f;
        }
        if (l.paddedDimensions != null) {
            if (l.paddedDimensions.length != m.length) {
                return "layout has " + l.paddedDimensions.length + " padded dimensions, but minor_to_major has "
                        + m.length + " entries";
            }
            for (int d = 0; d < m.length; d++) {
                if (l.paddedDimensions[d] < 0) {
                    return "layout padded_dimensions[" + d + "] is negative: " + l.paddedDimensions[d];
                }
            }
        }
        return strictProblem(l, null);
    }

    /** The checks of single fields, in XLA's order: tail padding, sparse-only fields, tiles, element size. */
    private static String fieldProblem(Layout l) {
        if (l.tailPaddingAlignment <= 0) {
            return "layout tail_padding_alignment_in_elements field is <= 0: " + l.tailPaddingAlignment;
        }
        if (l.indexPrimitiveType != null) {
            return "layout has a index_primitive_type (" + l.indexPrimitiveType + "), but is not a sparse array";
        }
        if (l.pointerPrimitiveType != null) {
            return "layout has a pointer_primitive_type (" + l.pointerPrimitiveType + "), but is not a sparse array";
        }
        if (l.physicalShape != null) {
            return "layout has a physical_shape, but is not a sparse array";
        }
        for (Tile t : l.tiles) {
            String tp = t.problem();
            if (tp != null) {
                return tp;
            }
        }
        if (l.elementSizeInBits < 0) {
            return "layout element_size_in_bits field is negative: " + l.elementSizeInBits;
        }
        return null;
    }

    /** Tegula's strict checks; {@code type} null (a layout on its own) skips the element size against the type. */
    private static String strictProblem(Layout l, ElementType type) {
        for (Tile t : l.tiles) {
            if (t.dimsUnsafe()[t.rank() - 1] == Tile.COMBINE) {
                return "layout has invalid tiles: tile " + t + " ends with '*', which has no more-minor "
                        + "dimension to combine with";
            }
        }
        if (l.elementSizeInBits != 0 && type != null) {
            long e = l.elementSizeInBits;
            boolean packed = (e == 1 || e == 2 || e == 4) && e >= type.bitWidth();
            if (!packed && e != 8L * type.byteWidth()) {
                return "layout element_size_in_bits field is " + e + ", but " + type + " can only be stored in "
                        + (type.bitWidth() < 8 ? "1, 2 or 4 bits (at least " + type.bitWidth() + ") or " : "")
                        + 8 * type.byteWidth() + " bits";
            }
        }
        if (l.memorySpace < 0 || l.memorySpace > 127) {
            return "layout memory_space field is " + l.memorySpace + ", outside 0..127 (XLA stores it in 8 bits)";
        }
        if (l.dynamicShapeMetadataPrefixBytes < 0) {
            return "layout dynamic_shape_metadata_prefix_bytes field is negative: " + l.dynamicShapeMetadataPrefixBytes;
        }
        if (l.paddedDimensions != null && l.tiles.length > 0) {
            return "layout has both padded_dimensions (the 2017 layout) and tiles; use one or the other";
        }
        return null;
    }

    private static String join(int[] m) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < m.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(m[i]);
        }
        return sb.toString();
    }
}
