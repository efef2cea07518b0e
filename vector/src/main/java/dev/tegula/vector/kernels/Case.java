package dev.tegula.vector.kernels;

/**
 * What a walk asks of a kernel, the facts {@link Kernel#applies} reads: the elements, the shape of
 * the nest's innermost loops, for a transpose the extents and strides of its pair of loops (I,
 * contiguous in the source; J, the innermost, contiguous in the destination; in elements), whether
 * every call sees the whole of I and of J (false where threads share that loop), and the tile edge
 * and panels the walk asks for. Immutable.
 *
 * @param elements the elements moved
 * @param shape    the shape of the nest
 * @param nI       extent of I (0 unless a transpose)
 * @param nJ       extent of J (0 unless a transpose)
 * @param tI       destination stride of I (0 unless a transpose)
 * @param sJ       source stride of J (0 unless a transpose)
 * @param wholeI   whether each call sees all of I
 * @param wholeJ   whether each call sees all of J
 * @param tile     the tile edge the walk asks for (0: none)
 * @param panels   whether the walk goes panel by panel
 */
public record Case(Elements elements, Shape shape, long nI, long nJ, long tI, long sJ, boolean wholeI, boolean wholeJ,
                   int tile, boolean panels) {

    /** The shape of a nest's innermost loops, as the kernels see it. */
    public enum Shape {
        /** The innermost loop is contiguous on both sides. */
        RUNS,
        /** The innermost loop is contiguous in the destination and another loop (I) in the source. */
        TRANSPOSE,
        /** Neither: the innermost loop is strided on at least one side. */
        STRIDED,
        /** 4-bit elements packed or unpacked, no loop nest. */
        NIBBLES
    }

    /** {@return the case of a nest that is not a transpose} */
    public static Case of(Elements elements, Shape shape) {
        return new Case(elements, shape, 0, 0, 0, 0, true, true, 0, false);
    }

    /** {@return the case of a transpose with this pair, whole, untiled} */
    public static Case transpose(Elements elements, long nI, long nJ, long tI, long sJ) {
        return new Case(elements, Shape.TRANSPOSE, nI, nJ, tI, sJ, true, true, 0, false);
    }

    /** {@return this case with calls that see all of I ({@code wholeI}) and of J ({@code wholeJ}) or not} */
    public Case whole(boolean wholeI, boolean wholeJ) {
        return new Case(elements, shape, nI, nJ, tI, sJ, wholeI, wholeJ, tile, panels);
    }

    /** {@return this case asking for tiles of edge {@code t} (0: none), with or without panels} */
    public Case tiled(int t, boolean withPanels) {
        return new Case(elements, shape, nI, nJ, tI, sJ, wholeI, wholeJ, t, withPanels);
    }
}
