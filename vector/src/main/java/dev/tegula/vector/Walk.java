package dev.tegula.vector;

import java.util.Arrays;

/**
 * One way to walk a {@link LoopNest}: the order of its loops, the loop whose range is shared
 * between threads, and for a transposing nest the blocked transpose's parameters. The candidates
 * of one nest visit the same index set with the same kernels and differ only in order and blocking,
 * so each is correct by construction. Immutable.
 *
 * <p>Its text form ({@link #toString()}, read back by {@link #parse}) names the loops by their
 * position in the normalised nest ({@link LoopNest#normalise}, destination order), e.g.
 * {@code order=1,0,2 split=1 tile=16 block=512x64 strips=staged bands=source stage=4194304}, or for a
 * walk with panels ({@link PanelKernels}) {@code order=2,1,0,3 split=0 tile=16 panel=8x8}.
 *
 * @param nest     the nest with its loops in walk order (outermost first)
 * @param order    {@code order[k]}: the normalised nest's loop that is walked at depth {@code k}
 * @param split    the loop (a depth in {@code nest}) whose range threads share
 * @param tile     edge of the square register tiles of a transpose: 16 or 8 (0 for other nests)
 * @param blockI   elements of each source row one transpose block covers (its destination rows)
 * @param blockJ   source rows one transpose block covers (elements of each destination row)
 * @param strips   how a transpose block is walked and written
 * @param bands    which side's rows a transpose's blocks follow first
 * @param stage    bytes of destination staged at a time (0: none): the split loop's range is cut into
 *                 pieces whose destination region is one contiguous block of about this size; each
 *                 piece is walked into a per-thread buffer and leaves it in one bulk copy (large
 *                 enough that the JDK's bulk copy streams it out without reading the destination
 *                 lines first)
 * @param panelOuter indices of the outer panel loop in one panel (0: no panels), see {@link #panelLoops()}
 * @param panelInner indices of the inner panel loop in one panel (0 where {@code panelOuter} is)
 */
record Walk(LoopNest nest, int[] order, int split, int tile, long blockI, long blockJ, Strips strips, Bands bands,
            long stage, long panelOuter, long panelInner) {

    /** How the tiles of one transpose block are walked and where they are stored. */
    enum Strips {
        /** Strips of {@code T} source rows across the block, tiles stored straight into the destination. */
        SOURCE,
        /** Strips of {@code T} destination rows, tiles stored straight into the destination. */
        DESTINATION,
        /** Source strips into a per-thread staging buffer, then one bulk copy per destination row piece. */
        STAGED
    }

    /** The order of a transpose's blocks. */
    enum Bands {
        /** All blocks of a band of source rows, then the next band. */
        SOURCE,
        /** All blocks of a band of destination rows, then the next band. */
        DESTINATION
    }

    /** Largest block edge a walk may have, in elements. */
    static final long MAX_BLOCK = 1 << 16;

    Walk {
        order = order.clone();
    }

    /** A walk without panels. */
    Walk(LoopNest nest, int[] order, int split, int tile, long blockI, long blockJ, Strips strips, Bands bands,
         long stage) {
        this(nest, order, split, tile, blockI, blockJ, strips, bands, stage, 0, 0);
    }

    /** {@return whether the walk goes panel by panel ({@link PanelKernels})} */
    boolean paneled() {
        return panelOuter > 0;
    }

    /**
     * {@return the panel loops of a transposing nest: its two innermost walked loops other than the
     * transpose's own two (the source-contiguous loop I and the innermost loop J), outer first}, or
     * null where the nest has fewer than two such loops
     */
    static int[] panelLoops(LoopNest nest) {
        int d = nest.depth();
        int q = nest.sourceContiguousLoop();
        int inner = -1;
        for (int k = d - 2; k >= 0; k--) {
            if (k != q) {
                if (inner < 0) {
                    inner = k;
                } else {
                    return new int[] {k, inner};
                }
            }
        }
        return null;
    }

    /** {@return the kind of kernel the nest runs} */
    Kernels.Mode mode() {
        return Kernels.mode(nest);
    }

    /** {@return the walk with its destination offset moved by {@code slots} (a staged piece writes its buffer from 0)} */
    Walk shiftDestination(long slots) {
        LoopNest n = new LoopNest(nest.extents(), nest.srcStrides(), nest.dstStrides(), nest.srcOffset(),
                nest.dstOffset() + slots);
        return new Walk(n, order, split, tile, blockI, blockJ, strips, bands, stage, panelOuter, panelInner);
    }

    /** {@return the extent of the split loop: how many parts threads can share} */
    long splitExtent() {
        return nest.extents()[split];
    }

    /**
     * {@return the extent of one transpose block along the split loop}: {@code blockI} where the
     * threads share the source-contiguous loop, {@code blockJ} where they share the innermost; for a
     * walk with panels, the panel's extent where the threads share a panel loop; 1 for other loops
     * and walks without blocks
     */
    long splitBlock() {
        if (paneled()) {
            int[] loops = panelLoops(nest);
            return split == loops[0] ? panelOuter : split == loops[1] ? panelInner : 1;
        }
        if (tile == 0 || !nest.isTranspose()) {
            return 1;
        }
        if (split == nest.sourceContiguousLoop()) {
            return Math.max(1, blockI);
        }
        return split == nest.depth() - 1 ? Math.max(1, blockJ) : 1;
    }

    /** {@return the parameters in text, without the nest: the form wisdom files keep} */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("order=");
        for (int k = 0; k < order.length; k++) {
            b.append(k == 0 ? "" : ",").append(order[k]);
        }
        b.append(" split=").append(split);
        if (paneled()) {
            b.append(" tile=").append(tile).append(" panel=").append(panelOuter).append('x').append(panelInner);
        } else if (tile > 0) {
            b.append(" tile=").append(tile).append(" block=").append(blockI).append('x').append(blockJ)
                    .append(" strips=").append(strips.name().toLowerCase(java.util.Locale.ROOT))
                    .append(" bands=").append(bands.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (stage > 0) {
            b.append(" stage=").append(stage);
        }
        return b.toString();
    }

    /**
     * {@return the walk that {@code text} describes for the normalised nest {@code base}} Every field
     * is checked against the nest: a permutation of its loops that keeps the innermost loop innermost,
     * a split loop that exists, a tile the machine's kernels have, blocks within bounds.
     *
     * @throws IllegalArgumentException naming the field and value, if the text does not fit the nest
     */
    static Walk parse(String text, LoopNest base, int elementBytes) {
        String[] fields = text.trim().split(" +");
        int[] order = null;
        int split = -1;
        int tile = 0;
        long blockI = 0;
        long blockJ = 0;
        Strips strips = Strips.SOURCE;
        Bands bands = Bands.SOURCE;
        long stage = 0;
        long[] panel = {0, 0};
        for (String f : fields) {
            int eq = f.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("walk: field '" + f + "' has no '='");
            }
            String key = f.substring(0, eq);
            String value = f.substring(eq + 1);
            try {
                switch (key) {
                    case "order" -> order = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                    case "split" -> split = Integer.parseInt(value);
                    case "tile" -> tile = Integer.parseInt(value);
                    case "block" -> {
                        long[] ij = pair(key, value);
                        blockI = ij[0];
                        blockJ = ij[1];
                    }
                    case "panel" -> panel = pair(key, value);
                    case "strips" -> strips = Strips.valueOf(value.toUpperCase(java.util.Locale.ROOT));
                    case "bands" -> bands = Bands.valueOf(value.toUpperCase(java.util.Locale.ROOT));
                    case "stage" -> stage = Long.parseLong(value);
                    default -> throw new IllegalArgumentException("walk: unknown field '" + key + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("walk: " + key + " '" + value + "' is not a number");
            }
        }
        if (order == null) {
            throw new IllegalArgumentException("walk: no order");
        }
        Walk w = Candidates.of(base, order, split, tile, blockI, blockJ, strips, bands, stage, panel[0], panel[1],
                elementBytes);
        if (w == null) {
            throw new IllegalArgumentException("walk: '" + text + "' does not fit the nest " + base);
        }
        return w;
    }

    /** {@return the two numbers of a field {@code AxB}} */
    private static long[] pair(String key, String value) {
        int x = value.indexOf('x');
        if (x < 0) {
            throw new IllegalArgumentException("walk: " + key + " '" + value + "' is not AxB");
        }
        return new long[] {Long.parseLong(value.substring(0, x)), Long.parseLong(value.substring(x + 1))};
    }
}
