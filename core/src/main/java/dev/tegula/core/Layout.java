package dev.tegula.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An XLA layout: how the elements of an array are placed in its buffer.
 *
 * <p>Fields, with their XLA defaults: {@code minor_to_major} (a permutation of the logical
 * dimensions, fastest varying first), tiles ({@code T(8,128)(2,1)}, none by default), tail padding
 * alignment in elements ({@code L(n)}, 1), index and pointer primitive types ({@code #(t)},
 * {@code *(t)}, sparse only, unset), element size in bits ({@code E(n)}, 0 = the type's own width),
 * memory space ({@code S(n)}, 0), split configs ({@code SC(d:i,j)}), physical shape
 * ({@code P(shape)}, sparse only), dynamic shape metadata prefix bytes ({@code M(n)}, 0), and
 * the 2017 layout's {@code padded_dimensions} with its {@link PaddingValue}, written
 * {@code PAD(3,5:zero)} (Tegula's text, see {@code docs/legacy-padding.md}).
 *
 * <p>Immutable and thread-safe. The factories and withers check the field they set and throw
 * {@link IllegalArgumentException} naming it; checks that need the shape (rank, dimension sizes)
 * happen when the layout is attached to an {@link ArrayShape}. {@link #equals} compares every
 * field, {@code M(n)} included (XLA's {@code operator==} ignores {@code M(n)}; Tegula's equality is
 * that of the printed form).
 */
public final class Layout {
    private static final Tile[] NO_TILES = new Tile[0];
    private static final SplitConfig[] NO_SPLITS = new SplitConfig[0];

    final int[] minorToMajor;
    final Tile[] tiles;
    final long tailPaddingAlignment;
    final ElementType indexPrimitiveType;
    final ElementType pointerPrimitiveType;
    final long elementSizeInBits;
    final long memorySpace;
    final SplitConfig[] splitConfigs;
    final Shape physicalShape;
    final long dynamicShapeMetadataPrefixBytes;
    final long[] paddedDimensions;
    final PaddingValue paddingValue;

    Layout(int[] minorToMajor, Tile[] tiles, long tailPaddingAlignment, ElementType indexPrimitiveType,
           ElementType pointerPrimitiveType, long elementSizeInBits, long memorySpace, SplitConfig[] splitConfigs,
           Shape physicalShape, long dynamicShapeMetadataPrefixBytes, long[] paddedDimensions,
           PaddingValue paddingValue) {
        this.minorToMajor = minorToMajor;
        this.tiles = tiles;
        this.tailPaddingAlignment = tailPaddingAlignment;
        this.indexPrimitiveType = indexPrimitiveType;
        this.pointerPrimitiveType = pointerPrimitiveType;
        this.elementSizeInBits = elementSizeInBits;
        this.memorySpace = memorySpace;
        this.splitConfigs = splitConfigs;
        this.physicalShape = physicalShape;
        this.dynamicShapeMetadataPrefixBytes = dynamicShapeMetadataPrefixBytes;
        this.paddedDimensions = paddedDimensions;
        this.paddingValue = paddingValue;
    }

    /** A layout with only {@code minor_to_major} set and no checks (parser). */
    static Layout unchecked(int[] minorToMajor) {
        return new Layout(minorToMajor.clone(), NO_TILES, 1, null, null, 0, 0, NO_SPLITS, null, 0, null,
                PaddingValue.ZERO);
    }

    /**
     * {@return a dense layout with this {@code minor_to_major} order and every other field at its default}
     *
     * @param minorToMajor logical dimensions from fastest to slowest varying; a permutation of
     *                     {@code 0..n-1}
     * @throws IllegalArgumentException if the order is not a permutation
     */
    public static Layout of(int... minorToMajor) {
        String p = Validator.permutationProblem(minorToMajor);
        if (p != null) {
            throw new IllegalArgumentException(p + ": " + Arrays.toString(minorToMajor));
        }
        return unchecked(minorToMajor);
    }

    /** {@return the row-major (XLA default) layout of this rank: {@code minor_to_major = [n-1, ..., 0]}} */
    public static Layout rowMajor(int rank) {
        checkRank(rank);
        int[] m = new int[rank];
        for (int i = 0; i < rank; i++) {
            m[i] = rank - 1 - i;
        }
        return unchecked(m);
    }

    /** {@return the column-major layout of this rank: {@code minor_to_major = [0, ..., n-1]}} */
    public static Layout columnMajor(int rank) {
        checkRank(rank);
        int[] m = new int[rank];
        for (int i = 0; i < rank; i++) {
            m[i] = i;
        }
        return unchecked(m);
    }

    /**
     * Parses a layout on its own, in the braces of the shape text: {@code Layout.parse("{1,0:T(8,128)(2,1)}")}.
     * Its rank is the number of {@code minor_to_major} entries ({@code "{}"} is the layout of a scalar),
     * and {@code Layout.parse(l.toString()).equals(l)} for every layout that passes the checks below.
     * To give an array shape this layout, use {@link ArrayShape#withLayout(Layout)}; there is no need
     * to print a shape and parse it again.
     *
     * <p>The checks are those of {@link Validation#STRICT} that need no shape: {@code minor_to_major} is a
     * permutation, tile sizes are positive or {@code *} (not last), {@code L(n)} is positive,
     * {@code E(n)} and {@code M(n)} are not negative, {@code S(n)} is in 0..127, {@code PAD(...)} has
     * one size per dimension and no tiles beside it, and the sparse-only fields ({@code #(t)},
     * {@code *(t)}, {@code P(...)}) are absent. What depends on the shape (the rank, split indices, padded
     * sizes against the dimensions, {@code E(n)} against the element type) is checked when the layout is
     * attached to a shape.
     *
     * @param text a layout in braces, e.g. {@code "{1,0:T(8,128)(2,1)}"}; whitespace and comments
     *             around tokens are allowed, as in shape text
     * @throws ShapeParseException      if the text is not a layout (with the character offset and what was expected)
     * @throws InvalidShapeException    if the layout fails a check above (naming the field and value, with the
     *                                  character offset of the part at fault)
     */
    public static Layout parse(String text) {
        return ShapeParser.parseLayout(text);
    }

    private static void checkRank(int rank) {
        if (rank < 0) {
            throw new IllegalArgumentException("rank: must be >= 0, got " + rank);
        }
    }

    private Layout copy(Tile[] tiles, long tail, ElementType idx, ElementType ptr, long bits, long space,
                        SplitConfig[] splits, Shape physical, long prefix, long[] padded, PaddingValue pv) {
        return new Layout(minorToMajor, tiles, tail, idx, ptr, bits, space, splits, physical, prefix, padded, pv);
    }

    // ---- withers --------------------------------------------------------------------------------------

    /**
     * {@return this layout with these tiles, applied in order} An empty argument list removes tiling.
     *
     * @throws IllegalArgumentException if a tile is null
     */
    public Layout withTiles(Tile... tiles) {
        for (Tile t : tiles) {
            Objects.requireNonNull(t, "tiles: null tile");
        }
        return copy(tiles.clone(), tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType,
                elementSizeInBits, memorySpace, splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes,
                paddedDimensions, paddingValue);
    }

    /** Like {@link #withTiles(Tile...)}, from a list. */
    public Layout withTiles(List<Tile> tiles) {
        return withTiles(tiles.toArray(NO_TILES));
    }

    /**
     * {@return this layout with the tail padding alignment {@code L(n)}}
     *
     * @param elements the total (tiled) element count is rounded up to a multiple of this; &gt; 0
     * @throws IllegalArgumentException if {@code elements <= 0}
     */
    public Layout withTailPaddingAlignment(long elements) {
        if (elements <= 0) {
            throw new IllegalArgumentException("tailPaddingAlignment: must be > 0, got " + elements);
        }
        return copy(tiles, elements, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits, memorySpace,
                splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /**
     * {@return this layout with {@code E(bits)}: each element stored in this many bits (0 = the type's width)}
     *
     * @throws IllegalArgumentException if {@code bits < 0}
     */
    public Layout withElementSizeInBits(long bits) {
        if (bits < 0) {
            throw new IllegalArgumentException("elementSizeInBits: must be >= 0, got " + bits);
        }
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, bits, memorySpace,
                splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /**
     * {@return this layout in memory space {@code S(id)}} Ids are backend-specific: 0 is device main
     * memory, 1 XLA's alternate (fast) memory, 5 pinned host, 6 unpinned host.
     *
     * @throws IllegalArgumentException if {@code id} is outside {@code 0..127} (XLA stores it in 8 bits)
     */
    public Layout withMemorySpace(long id) {
        if (id < 0 || id > 127) {
            throw new IllegalArgumentException("memorySpace: must be in 0..127, got " + id);
        }
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits, id,
                splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /** {@return this layout with the sparse index primitive type {@code #(t)} (null to clear); dense shapes reject it} */
    public Layout withIndexPrimitiveType(ElementType type) {
        return copy(tiles, tailPaddingAlignment, type, pointerPrimitiveType, elementSizeInBits, memorySpace,
                splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /** {@return this layout with the sparse pointer primitive type {@code *(t)} (null to clear); dense shapes reject it} */
    public Layout withPointerPrimitiveType(ElementType type) {
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, type, elementSizeInBits, memorySpace,
                splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /** {@return this layout with these split configs ({@code SC(d:i,j)...}); checked against the shape when attached} */
    public Layout withSplitConfigs(SplitConfig... splits) {
        for (SplitConfig s : splits) {
            Objects.requireNonNull(s, "splitConfigs: null split config");
        }
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits,
                memorySpace, splits.clone(), physicalShape, dynamicShapeMetadataPrefixBytes, paddedDimensions,
                paddingValue);
    }

    /** {@return this layout with the sparse physical shape {@code P(shape)} (null to clear); dense shapes reject it} */
    public Layout withPhysicalShape(Shape shape) {
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits,
                memorySpace, splitConfigs, shape, dynamicShapeMetadataPrefixBytes, paddedDimensions, paddingValue);
    }

    /**
     * {@return this layout with {@code M(bytes)}: bytes of dynamic-size metadata in front of the data}
     *
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Layout withDynamicShapeMetadataPrefixBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("dynamicShapeMetadataPrefixBytes: must be >= 0, got " + bytes);
        }
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits,
                memorySpace, splitConfigs, physicalShape, bytes, paddedDimensions, paddingValue);
    }

    /**
     * {@return this layout with the 2017 {@code padded_dimensions}: each logical dimension padded at its
     * end to the given size, the padding filled with {@code value}}
     * Pass no sizes to remove the legacy padding.
     *
     * @param value            what padding slots hold
     * @param paddedDimensions one size per logical dimension, each at least that dimension's size
     * @throws IllegalArgumentException if a size is negative
     */
    public Layout withPaddedDimensions(PaddingValue value, long... paddedDimensions) {
        Objects.requireNonNull(value, "paddingValue");
        for (int i = 0; i < paddedDimensions.length; i++) {
            if (paddedDimensions[i] < 0) {
                throw new IllegalArgumentException("paddedDimensions[" + i + "]: must be >= 0, got "
                        + paddedDimensions[i]);
            }
        }
        long[] padded = paddedDimensions.length == 0 ? null : paddedDimensions.clone();
        return copy(tiles, tailPaddingAlignment, indexPrimitiveType, pointerPrimitiveType, elementSizeInBits,
                memorySpace, splitConfigs, physicalShape, dynamicShapeMetadataPrefixBytes, padded,
                padded == null ? PaddingValue.ZERO : value);
    }

    // ---- getters --------------------------------------------------------------------------------------

    /** {@return the minor-to-major order (a copy): entry 0 is the fastest-varying logical dimension} */
    public int[] minorToMajor() {
        return minorToMajor.clone();
    }

    /** {@return the number of entries of {@code minor_to_major}} */
    public int rank() {
        return minorToMajor.length;
    }

    /** {@return entry {@code k} of {@code minor_to_major}} */
    public int minorToMajor(int k) {
        return minorToMajor[k];
    }

    /**
     * {@return the logical dimension at physical position {@code p}, 0 being the most major}
     * (XLA's {@code LayoutUtil::Major}).
     */
    public int major(int p) {
        return minorToMajor[minorToMajor.length - 1 - p];
    }

    /**
     * {@return true if {@code minor_to_major} is {@code {rank-1, ..., 1, 0}}: the last logical
     * dimension varies fastest} Looks at the dimension order only (tiles, padding and {@code E(n)}
     * are not considered); every layout of rank 0 or 1 is row-major.
     */
    public boolean isRowMajor() {
        for (int p = 0; p < minorToMajor.length; p++) {
            if (major(p) != p) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return true if {@code minor_to_major} is {@code {0, 1, ..., rank-1}}: the first logical
     * dimension varies fastest} Looks at the dimension order only; every layout of rank 0 or 1 is
     * column-major.
     */
    public boolean isColumnMajor() {
        for (int k = 0; k < minorToMajor.length; k++) {
            if (minorToMajor[k] != k) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return the logical dimensions that a tile of {@code tileRank} dimensions covers, most major
     * first}: the {@code tileRank} most minor physical dimensions (all of them when the tile is
     * longer than the rank; XLA then counts the shape as having leading size-1 dimensions). The
     * {@code *} combined-dimension marker is not considered.
     *
     * @throws IllegalArgumentException if {@code tileRank} is negative
     */
    public int[] coveredDimensions(int tileRank) {
        if (tileRank < 0) {
            throw new IllegalArgumentException("tileRank: must be >= 0, got " + tileRank);
        }
        int rank = minorToMajor.length;
        int from = Math.max(0, rank - tileRank);
        int[] out = new int[rank - from];
        for (int p = from; p < rank; p++) {
            out[p - from] = major(p);
        }
        return out;
    }

    /** {@return the tiles, in the order they apply (an unmodifiable list)} */
    public List<Tile> tiles() {
        return List.of(tiles);
    }

    /** {@return true if the layout has at least one tile} */
    public boolean isTiled() {
        return tiles.length > 0;
    }

    /** {@return the tail padding alignment in elements ({@code L(n)}; 1 by default)} */
    public long tailPaddingAlignment() {
        return tailPaddingAlignment;
    }

    /** {@return the sparse index primitive type ({@code #(t)}), or null} */
    public ElementType indexPrimitiveType() {
        return indexPrimitiveType;
    }

    /** {@return the sparse pointer primitive type ({@code *(t)}), or null} */
    public ElementType pointerPrimitiveType() {
        return pointerPrimitiveType;
    }

    /** {@return the element size in bits ({@code E(n)}); 0 means the element type's own width} */
    public long elementSizeInBits() {
        return elementSizeInBits;
    }

    /** {@return the memory space id ({@code S(n)}; 0 = default device memory)} */
    public long memorySpace() {
        return memorySpace;
    }

    /** {@return the split configs (an unmodifiable list)} */
    public List<SplitConfig> splitConfigs() {
        return List.of(splitConfigs);
    }

    /** {@return the sparse physical shape ({@code P(...)}), or null} */
    public Shape physicalShape() {
        return physicalShape;
    }

    /** {@return bytes of dynamic-shape metadata in front of the data ({@code M(n)}; 0 by default)} */
    public long dynamicShapeMetadataPrefixBytes() {
        return dynamicShapeMetadataPrefixBytes;
    }

    /** {@return true if the layout has the 2017 {@code padded_dimensions}} */
    public boolean hasPaddedDimensions() {
        return paddedDimensions != null;
    }

    /** {@return the 2017 padded dimension sizes (a copy), or an empty array if there are none} */
    public long[] paddedDimensions() {
        return paddedDimensions == null ? new long[0] : paddedDimensions.clone();
    }

    /** {@return what legacy padding slots hold ({@link PaddingValue#ZERO} when there are no padded dimensions)} */
    public PaddingValue paddingValue() {
        return paddingValue;
    }

    /** {@return true if every field but {@code minor_to_major} has its default (the braces then hold only the order)} */
    public boolean hasOnlyMinorToMajor() {
        return tiles.length == 0 && tailPaddingAlignment == 1 && indexPrimitiveType == null
                && pointerPrimitiveType == null && elementSizeInBits == 0 && memorySpace == 0
                && splitConfigs.length == 0 && physicalShape == null && dynamicShapeMetadataPrefixBytes == 0
                && paddedDimensions == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Layout l
                && Arrays.equals(minorToMajor, l.minorToMajor)
                && Arrays.equals(tiles, l.tiles)
                && tailPaddingAlignment == l.tailPaddingAlignment
                && indexPrimitiveType == l.indexPrimitiveType
                && pointerPrimitiveType == l.pointerPrimitiveType
                && elementSizeInBits == l.elementSizeInBits
                && memorySpace == l.memorySpace
                && Arrays.equals(splitConfigs, l.splitConfigs)
                && Objects.equals(physicalShape, l.physicalShape)
                && dynamicShapeMetadataPrefixBytes == l.dynamicShapeMetadataPrefixBytes
                && Arrays.equals(paddedDimensions, l.paddedDimensions)
                && paddingValue == l.paddingValue;
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(minorToMajor);
        h = 31 * h + Arrays.hashCode(tiles);
        h = 31 * h + Long.hashCode(tailPaddingAlignment);
        h = 31 * h + Long.hashCode(elementSizeInBits);
        h = 31 * h + Long.hashCode(memorySpace);
        h = 31 * h + Arrays.hashCode(paddedDimensions);
        return h;
    }

    /** {@return the XLA text of the layout in braces, e.g. {@code {1,0:T(8,128)(2,1)S(1)}}} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        ShapePrinter.appendLayout(sb, this);
        return sb.toString();
    }
}
