package dev.tegula.core;

import java.util.Arrays;

/**
 * One tile of a tiled layout: sizes listed major to minor for a suffix of the (current) physical
 * dimensions, written {@code (8,128)} in the text form. A size of {@link #COMBINE} ({@code *} in
 * text) merges that dimension into the next more-minor one before tiling.
 *
 * <p>Immutable and thread-safe. {@link #of} accepts only sizes that are positive or
 * {@code COMBINE}; the parser can build other tiles in {@link Validation#NONE} mode so that the
 * validator can report them as XLA does.
 */
public final class Tile {
    /** XLA's {@code kCombineDimension} ({@code INT64_MIN}), written {@code *}. */
    public static final long COMBINE = Long.MIN_VALUE;

    private final long[] dims;

    private Tile(long[] dims) {
        this.dims = dims;
    }

    /**
     * {@return a tile with these sizes, major to minor}
     *
     * @param dims tile sizes, each positive or {@link #COMBINE}; at least one
     * @throws IllegalArgumentException if there are no sizes or a size is zero or negative
     */
    public static Tile of(long... dims) {
        Tile t = new Tile(dims.clone());
        String problem = t.problem();
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return t;
    }

    /** Builds a tile without checks (parser, {@link Validation#NONE}). */
    static Tile unchecked(long[] dims) {
        return new Tile(dims.clone());
    }

    /** {@return null if the tile is well formed, else XLA's message for it} */
    String problem() {
        if (dims.length == 0) {
            return "layout has invalid tiles: tile has no dimensions";
        }
        for (int k = 0; k < dims.length; k++) {
            if (dims[k] <= 0 && dims[k] != COMBINE) {
                return "layout has invalid tiles: tile dimension " + dims[k] + " at index " + k + " of tile T"
                        + this + " must be positive or * (combine dimensions)";
            }
        }
        return null;
    }

    /** {@return the tile sizes, major to minor (a copy); {@link #COMBINE} for {@code *}} */
    public long[] dimensions() {
        return dims.clone();
    }

    /** {@return the number of tile sizes} */
    public int rank() {
        return dims.length;
    }

    /** {@return tile size {@code i} (major to minor)} */
    public long dimension(int i) {
        return dims[i];
    }

    /** {@return true if any size is {@code *}} */
    public boolean hasCombinedDimensions() {
        for (long d : dims) {
            if (d == COMBINE) {
                return true;
            }
        }
        return false;
    }

    /** {@return the product of the non-{@code *} sizes (the elements of one tile)} */
    public long elementCount() {
        long n = 1;
        for (long d : dims) {
            if (d != COMBINE) {
                n = Math.multiplyExact(n, d);
            }
        }
        return n;
    }

    long[] dimsUnsafe() {
        return dims;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tile t && Arrays.equals(dims, t.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    /** {@return the text form, e.g. {@code (8,128)} or {@code (*,2)}} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (dims[i] == COMBINE) {
                sb.append('*');
            } else {
                sb.append(dims[i]);
            }
        }
        return sb.append(')').toString();
    }
}
