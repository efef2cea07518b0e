package dev.tegula.vector.plan;

import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import java.util.Arrays;
import java.util.Locale;

/**
 * One way to walk a {@link LoopNest}: the {@link Step} that runs it (its kernel with that kernel's
 * parameters, chosen once when the walk is made, {@link WalkRules#make}), and the walk's
 * {@link Spec}: the order of its loops, the loop whose range is shared between threads, its
 * {@link Form} (how a transpose's tiles are walked, the text of the step's parameters) and its
 * staging. The candidates of one nest visit the same index set and differ only in order, blocking
 * and kernel, so each is correct by construction. Immutable.
 *
 * <p>Its text form ({@link #toString()}, read back by {@link #parse}) is the spec's, with the loops
 * named by their position in the normalised nest ({@link LoopNest#normalise}, destination order),
 * e.g. {@code order=1,0,2 split=1 tile=16 block=512x64 strips=staged bands=source stage=4194304}, or
 * for a walk with panels {@code order=2,1,0,3 split=0 tile=16 panel=8x8}; a walk without blocks whose
 * stores stream adds {@code stores=streamed} (a blocked one says {@code strips=streamed}); a blocked walk that touches the next strip's rows
 * adds {@code touch=next}.
 *
 * @param nest     the nest with its loops in walk order (outermost first)
 * @param elements the elements it moves
 * @param step     the kernel that runs it, with its parameters
 * @param spec     the walk's parameters
 */
public record Walk(LoopNest nest, Elements elements, Step step, Spec spec) {

    /** Largest block edge a walk may have, in elements. */
    public static final long MAX_BLOCK = 1 << 16;

    /** How a walk goes through its nest's innermost loops: one of three shapes. */
    public sealed interface Form permits Plain, Blocked, Paneled {
        /** {@return the edge of the transpose tiles (0: none)} */
        int tile();

        /**
         * {@return whether the walk writes its destination with streaming stores
         * ({@code dev.tegula.vector.kernels.StreamStores}): whole lines written without being read first}
         */
        boolean streamed();
    }

    /**
     * No tiles: runs, strided lines, or a transpose by a kernel without tiles (zip, narrow, element by
     * element). {@code streamed}: runs copied with streaming stores, a 2-D block of runs per call (only
     * for runs, the loop around them walked by the kernel, no staged regions: {@link WalkRules#make}).
     */
    public record Plain(boolean streamed) implements Form {
        /** The plain form with plain stores. */
        public static final Plain PLAIN = new Plain(false);
        /** Runs copied with streaming stores. */
        public static final Plain STREAMED = new Plain(true);

        @Override
        public int tile() {
            return 0;
        }
    }

    /**
     * The blocked transpose: square tiles of edge {@code tile} in blocks of {@code blockI} elements
     * of each source row (its destination rows) by {@code blockJ} source rows, walked and stored as
     * {@code strips} says, in the order {@code bands} says; where {@code touch}, each strip of source
     * rows first loads one element of each row of the next strip of the block (source strips only), so
     * that the reads of those rows are under way before their tiles need them.
     */
    public record Blocked(int tile, long blockI, long blockJ, Strips strips, Bands bands, boolean touch) implements Form {
        /** A blocked form without touches. */
        public Blocked(int tile, long blockI, long blockJ, Strips strips, Bands bands) {
            this(tile, blockI, blockJ, strips, bands, false);
        }

        /** {@return this form with touches or without} */
        public Blocked withTouch(boolean t) {
            return new Blocked(tile, blockI, blockJ, strips, bands, t);
        }

        /** {@return this form with tiles of edge {@code t}} */
        public Blocked withTile(int t) {
            return new Blocked(t, blockI, blockJ, strips, bands, touch);
        }

        /** {@return this form with blocks of {@code i} by {@code j}} */
        public Blocked withBlocks(long i, long j) {
            return new Blocked(tile, i, j, strips, bands, touch);
        }

        /** {@return this form walking and storing its blocks as {@code s} and {@code b} say} */
        public Blocked withStrips(Strips s, Bands b) {
            return new Blocked(tile, blockI, blockJ, s, b, touch);
        }

        @Override
        public boolean streamed() {
            return strips == Strips.STREAMED;
        }
    }

    /**
     * Panel by panel: the transposed pair times {@code outer × inner} indices of the two panel loops
     * ({@link Walk#panelLoops}), in tiles of edge {@code tile}; each panel leaves its buffer with
     * streaming stores where {@code streamed}, else with bulk copies.
     */
    public record Paneled(int tile, long outer, long inner, boolean streamed) implements Form {
        /** A panel form that leaves its buffer with bulk copies. */
        public Paneled(int tile, long outer, long inner) {
            this(tile, outer, inner, false);
        }

        /** {@return this form with streaming stores or without} */
        public Paneled withStreamed(boolean s) {
            return new Paneled(tile, outer, inner, s);
        }

        /** {@return this form with tiles of edge {@code t}} */
        public Paneled withTile(int t) {
            return new Paneled(t, outer, inner, streamed);
        }
    }

    /**
     * A walk's parameters, before they are checked against a nest ({@link WalkRules#make}).
     *
     * @param order {@code order[k]}: the normalised nest's loop that is walked at depth {@code k}
     * @param split the loop (a depth in the walk's nest) whose range threads share
     * @param form  how the innermost loops are walked
     * @param stage bytes of destination staged at a time (0: none): the split loop's range is cut into
     *              staged regions, each one contiguous block of the destination of about this size; each
     *              region is walked into a per-thread buffer and leaves it in one bulk copy (large
     *              enough that the JDK's bulk copy streams it out without reading the destination
     *              lines first)
     */
    public record Spec(int[] order, int split, Form form, long stage) {
        public Spec {
            order = order.clone();
        }

        @Override
        public int[] order() {
            return order.clone();
        }

        /** {@return the spec with loop order {@code o}} */
        public Spec withOrder(int[] o) {
            return new Spec(o, split, form, stage);
        }

        /** {@return the spec with split loop {@code s}} */
        public Spec withSplit(int s) {
            return new Spec(order, s, form, stage);
        }

        /** {@return the spec with form {@code f}} */
        public Spec withForm(Form f) {
            return new Spec(order, split, f, stage);
        }

        /** {@return the spec with staged regions of {@code bytes} (0: none)} */
        public Spec withStage(long bytes) {
            return new Spec(order, split, form, bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Spec s && Arrays.equals(order, s.order) && split == s.split && form.equals(s.form)
                    && stage == s.stage;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(order) * 31 + toString().hashCode();
        }

        /** {@return the parameters in text: the form wisdom files keep} */
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("order=");
            for (int k = 0; k < order.length; k++) {
                b.append(k == 0 ? "" : ",").append(order[k]);
            }
            b.append(" split=").append(split);
            switch (form) {
                case Plain p -> {
                    if (p.streamed()) {
                        b.append(" stores=streamed");
                    }
                }
                case Blocked x -> b.append(" tile=").append(x.tile()).append(" block=").append(x.blockI()).append('x')
                        .append(x.blockJ()).append(" strips=").append(x.strips().name().toLowerCase(Locale.ROOT))
                        .append(" bands=").append(x.bands().name().toLowerCase(Locale.ROOT))
                        .append(x.touch() ? " touch=next" : "");
                case Paneled x -> {
                    b.append(" tile=").append(x.tile()).append(" panel=").append(x.outer()).append('x').append(x.inner());
                    if (x.streamed()) {
                        b.append(" stores=streamed");
                    }
                }
            }
            if (stage > 0) {
                b.append(" stage=").append(stage);
            }
            return b.toString();
        }
    }

    /** {@return the kernel that runs the walk (its step's)} */
    public Kernel kernel() {
        return step.kernel();
    }

    /** {@return the loop order (see {@link Spec#order})} */
    public int[] order() {
        return spec.order();
    }

    /** {@return the loop threads share (see {@link Spec#split})} */
    public int split() {
        return spec.split();
    }

    /** {@return the form} */
    public Form form() {
        return spec.form();
    }

    /** {@return the staged bytes (see {@link Spec#stage})} */
    public long stage() {
        return spec.stage();
    }

    /** {@return the tile edge of a transpose (0 for a walk without tiles)} */
    public int tile() {
        return spec.form().tile();
    }

    /** {@return whether the walk goes panel by panel} */
    public boolean paneled() {
        return spec.form() instanceof Paneled;
    }

    /**
     * {@return the panel loops of a transposing nest: its two innermost walked loops other than the
     * transpose's own two (the source-contiguous loop I and the innermost loop J), outer first}, or
     * null where the nest has fewer than two such loops
     */
    public static int[] panelLoops(LoopNest nest) {
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

    /** {@return the walk with its destination offset moved by {@code slots} (a staged region writes its buffer from 0)} */
    public Walk shiftDestination(long slots) {
        LoopNest n = new LoopNest(nest.extents(), nest.srcStrides(), nest.dstStrides(), nest.srcOffset(),
                nest.dstOffset() + slots);
        return new Walk(n, elements, step, spec);
    }

    /** {@return the extent of the split loop: how many parts threads can share} */
    public long splitExtent() {
        return nest.extents()[split()];
    }

    /**
     * {@return the extent of one transpose block along the split loop}: {@code blockI} where the
     * threads share the source-contiguous loop, {@code blockJ} where they share the innermost; for a
     * walk with panels, the panel's extent where the threads share a panel loop; 1 for other loops
     * and walks without blocks
     */
    public long splitBlock() {
        int split = split();
        return switch (spec.form()) {
            case Paneled p -> {
                int[] loops = panelLoops(nest);
                yield split == loops[0] ? p.outer() : split == loops[1] ? p.inner() : 1;
            }
            case Blocked x -> split == nest.sourceContiguousLoop() ? Math.max(1, x.blockI())
                    : split == nest.depth() - 1 ? Math.max(1, x.blockJ()) : 1;
            case Plain p -> 1;
        };
    }

    /**
     * {@return the multiple that share and chunk boundaries on the split loop keep}: whole panels
     * along a panel loop (a chunk cut inside a panel runs a smaller panel than the walk's), whole
     * tile rows (and a narrow transpose's whole vectors) along a transpose's own loops
     */
    public long alignment() {
        if (paneled()) {
            return splitBlock();
        }
        int inner = nest.depth() - 1;
        boolean pair = split() == inner || split() == nest.sourceContiguousLoop();
        return pair && kernel().transposes() ? 64 : 1;
    }

    /** {@return the parameters in text, without the nest: the form wisdom files keep} */
    @Override
    public String toString() {
        return spec.toString();
    }

    /**
     * {@return the walk that {@code text} describes for the normalised nest {@code base}} Every field
     * is checked against the nest: a permutation of its loops that keeps the innermost loop innermost,
     * a split loop that exists, a tile the machine's kernels have, blocks within bounds.
     *
     * @throws IllegalArgumentException naming the field and value, if the text does not fit the nest
     */
    public static Walk parse(String text, LoopNest base, Elements elements) {
        String[] fields = text.trim().split(" +");
        int[] order = null;
        int split = -1;
        int tile = 0;
        long[] block = null;
        Strips strips = Strips.SOURCE;
        Bands bands = Bands.SOURCE;
        long stage = 0;
        long[] panel = null;
        boolean blocked = false;
        boolean streamedStores = false;
        boolean touch = false;
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
                        block = pair(key, value);
                        blocked = true;
                    }
                    case "panel" -> panel = pair(key, value);
                    case "strips" -> {
                        strips = Strips.valueOf(value.toUpperCase(Locale.ROOT));
                        blocked = true;
                    }
                    case "bands" -> {
                        bands = Bands.valueOf(value.toUpperCase(Locale.ROOT));
                        blocked = true;
                    }
                    case "stage" -> stage = Long.parseLong(value);
                    case "touch" -> {
                        touch = switch (value) {
                            case "next" -> true;
                            case "none" -> false;
                            default -> throw new IllegalArgumentException("walk: touch '" + value
                                    + "' is neither next nor none");
                        };
                        blocked = true;
                    }
                    case "stores" -> streamedStores = switch (value) {
                        case "streamed" -> true;
                        case "plain" -> false;
                        default -> throw new IllegalArgumentException("walk: stores '" + value
                                + "' is neither streamed nor plain");
                    };
                    default -> throw new IllegalArgumentException("walk: unknown field '" + key + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("walk: " + key + " '" + value + "' is not a number");
            }
        }
        if (order == null) {
            throw new IllegalArgumentException("walk: no order");
        }
        Form form;
        if (panel != null) {
            if (blocked) {
                throw new IllegalArgumentException("walk: '" + text + "' has both panels and blocks");
            }
            form = new Paneled(tile, panel[0], panel[1], streamedStores);
        } else if (tile != 0 || blocked) {
            if (streamedStores) {
                throw new IllegalArgumentException("walk: '" + text + "' has blocks and stores=streamed (blocks say strips=streamed)");
            }
            form = new Blocked(tile, block == null ? 0 : block[0], block == null ? 0 : block[1], strips, bands, touch);
        } else {
            form = streamedStores ? Plain.STREAMED : Plain.PLAIN;
        }
        Walk w = WalkRules.make(base, elements, new Spec(order, split, form, stage));
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
