package dev.tegula.vector.plan;

import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.WideningKernels;
import dev.tegula.vector.plan.Walk.Blocked;
import dev.tegula.vector.plan.Walk.Paneled;

/**
 * What a walk runs at its innermost loops: its kernel together with that kernel's parameters, one
 * value made once with the walk ({@link WalkRules#make}) from the kernel the rules chose and the
 * walk's form, so that the two cannot disagree, and running it ({@link WalkRunner#kernel}) is one
 * {@code switch} over these cases with no cast. XLA's {@code TransposePlan} is the model: the plan
 * holds the kernel it chose, execution only runs it. Immutable.
 */
public sealed interface Step permits Step.Simple, Step.Tiles, Step.ConvertTiles, Step.Panels, Step.WidenTranspose {

    /** {@return the kernel that runs} */
    Kernel kernel();

    /**
     * A kernel that takes nothing but the loops it is handed: runs (with streaming stores where
     * {@code streamed}, {@link Kernel#COPY_RUNS} only), strided lines, zips, narrow transposes, element
     * loops and the conversions without tiles. Its constructor throws {@link IllegalArgumentException}
     * if the kernel takes parameters of its own (tiles, panels, the widening transpose, packing), or
     * streams and is not {@link Kernel#COPY_RUNS}.
     */
    record Simple(Kernel kernel, boolean streamed) implements Step {
        public Simple {
            switch (kernel) {
                case TILES_32, TILES_16, TILES_8, CONVERT_TILES_16, PANELS, WIDEN_TRANSPOSE, PACK_4, UNPACK_4 ->
                        throw new IllegalArgumentException("kernel " + kernel + " takes parameters: not a simple step");
                default -> {
                }
            }
            if (streamed && kernel != Kernel.COPY_RUNS) {
                throw new IllegalArgumentException("kernel " + kernel + " does not stream its stores");
            }
        }
    }

    /** The blocked same-type transpose in the kernel's tiles ({@link Kernel#TILES_32}, {@link Kernel#TILES_16}, {@link Kernel#TILES_8}). */
    record Tiles(Kernel kernel, long blockI, long blockJ, Strips strips, Bands bands, boolean touch) implements Step {
        public Tiles {
            if (kernel != Kernel.TILES_32 && kernel != Kernel.TILES_16 && kernel != Kernel.TILES_8) {
                throw new IllegalArgumentException("kernel " + kernel + " is not a tile kernel");
            }
        }
    }

    /** f32 to bf16 transposed in 16x16 tiles, in blocks of {@code blockI} by {@code blockJ} ({@link Kernel#CONVERT_TILES_16}). */
    record ConvertTiles(long blockI, long blockJ) implements Step {
        @Override
        public Kernel kernel() {
            return Kernel.CONVERT_TILES_16;
        }
    }

    /** Panel by panel ({@link Kernel#PANELS}): {@code outer} by {@code inner} indices of the panel loops, tiles of edge {@code tile}. */
    record Panels(int tile, long outer, long inner, boolean streamed) implements Step {
        @Override
        public Kernel kernel() {
            return Kernel.PANELS;
        }
    }

    /** A widening transpose ({@link Kernel#WIDEN_TRANSPOSE}) with the plan of its blocks, chosen when the walk was made. */
    record WidenTranspose(WideningKernels.TransposePlan plan) implements Step {
        @Override
        public Kernel kernel() {
            return Kernel.WIDEN_TRANSPOSE;
        }
    }

    /**
     * {@return the step of kernel {@code k} with the parameters of {@code form}} for a nest whose
     * transposed pair (where {@code k} transposes) is {@code nI} by {@code nJ}, destination stride
     * {@code tI}, source stride {@code sJ}
     *
     * @throws IllegalArgumentException if the form does not carry what the kernel needs (a tile
     *                                  kernel without blocks, panels without a panel form)
     */
    public static Step of(Kernel k, Walk.Form form, dev.tegula.vector.kernels.Elements elements, long nI, long nJ, long tI,
                   long sJ) {
        return switch (k) {
            case TILES_32, TILES_16, TILES_8 -> {
                Blocked x = blocked(k, form);
                yield new Tiles(k, x.blockI(), x.blockJ(), x.strips(), x.bands(), x.touch());
            }
            case CONVERT_TILES_16 -> {
                Blocked x = blocked(k, form);
                yield new ConvertTiles(x.blockI(), x.blockJ());
            }
            case PANELS -> {
                if (!(form instanceof Paneled p)) {
                    throw new IllegalArgumentException("kernel PANELS needs a panel form, not " + form);
                }
                yield new Panels(p.tile(), p.outer(), p.inner(), p.streamed());
            }
            case WIDEN_TRANSPOSE -> new WidenTranspose(WideningKernels.planTranspose(elements.conversion(), nI, nJ, tI, sJ));
            default -> new Simple(k, form.streamed());
        };
    }

    private static Blocked blocked(Kernel k, Walk.Form form) {
        if (!(form instanceof Blocked x)) {
            throw new IllegalArgumentException("kernel " + k + " needs blocks, not " + form);
        }
        return x;
    }
}
