package dev.tegula.vector.kernels;

import java.nio.ByteOrder;

/**
 * The kernels of the relayout engine, each with what it can do: the one record of which kernel
 * takes which loop nest. A walk's kernel is chosen once, when the walk is made
 * ({@link #choose(Case)}: the first constant, in declaration order, that {@linkplain #applies applies}),
 * and execution runs the named kernel (one {@code switch} on it), whatever part of the nest a call
 * covers. Adding a kernel is one constant here (its rule) and one case in the switch that runs
 * walks ({@code dev.tegula.vector.plan.WalkRunner}).
 *
 * <p>A kernel takes the innermost loop of a nest ({@link Case.Shape#RUNS}, {@link Case.Shape#STRIDED})
 * or, for a transpose, the pair of loops I (contiguous in the source) and J (the innermost, contiguous
 * in the destination): {@code dst[dO + i·tI + j] = src[so + i + j·sJ]}, {@code i < nI}, {@code j < nJ}.
 */
public enum Kernel {
    /** The innermost loop contiguous on both sides: one bulk copy per run. */
    COPY_RUNS(Case.Shape.RUNS, 0) {
        @Override
        boolean takes(Case c) {
            return !c.elements().converts();
        }
    },
    /** Anything else that is not a transpose: element by element. */
    COPY_ELEMENTS(Case.Shape.STRIDED, 0) {
        @Override
        boolean takes(Case c) {
            return !c.elements().converts();
        }
    },
    /**
     * Panels of a transpose whose pair is small ({@link PanelKernels}): the pair times a few indices
     * of the two loops around it, through a per-thread buffer, in the tiles of the walk's edge. The
     * threads share neither I nor J.
     */
    PANELS(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            int b = c.elements().dstBytes();
            return c.panels() && !c.elements().converts() && (b == 2 || b == 4) && c.wholeI() && c.wholeJ()
                    && tiles(c.tile()) != null && tiles(c.tile()).takesTiles(c);
        }
    },
    /** The blocked transpose in 32x32 tiles of 2-byte elements ({@link TransposeKernels}; 512-bit vectors). */
    TILES_32(Case.Shape.TRANSPOSE, 32) {
        @Override
        boolean takes(Case c) {
            return !c.panels() && c.tile() == 32 && takesTiles(c);
        }
    },
    /**
     * The blocked transpose in 16x16 tiles ({@link TransposeKernels}): of 2- or 4-byte elements with
     * 512-bit vectors; of 2-byte elements with 256-bit ones on little-endian machines, as 8x8 tiles of
     * element pairs ({@code TransposeKernels.tile16Pairs}).
     */
    TILES_16(Case.Shape.TRANSPOSE, 16) {
        @Override
        boolean takes(Case c) {
            return !c.panels() && c.tile() == 16 && takesTiles(c);
        }
    },
    /** The blocked transpose in 8x8 tiles of 2- or 4-byte elements ({@link TransposeKernels}). */
    TILES_8(Case.Shape.TRANSPOSE, 8) {
        @Override
        boolean takes(Case c) {
            return !c.panels() && c.tile() == 8 && takesTiles(c);
        }
    },
    /** Two 2-byte source rows interleaved into one destination run (the bf16 {@code (2,1)} sub-tile, {@link ZipKernels}). */
    ZIP_2(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiledSame(c) && Tuning.VECTOR && c.elements().dstBytes() == 2 && c.nJ() == 2 && c.tI() == 2
                    && c.wholeJ();
        }
    },
    /** One run of 2-byte pairs split into two destination rows ({@link ZipKernels}). */
    UNZIP_2(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiledSame(c) && Tuning.VECTOR && c.elements().dstBytes() == 2 && c.nI() == 2 && c.sJ() == 2
                    && c.wholeI();
        }
    },
    /** Narrow destination rows side by side: the source rows interleaved into one run ({@link NarrowKernels}). */
    INTERLEAVE(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiledSame(c) && c.tI() == c.nJ() && NarrowKernels.takes(c.elements().dstBytes(), c.nJ()) && c.wholeJ();
        }
    },
    /** Narrow source rows side by side: one source run split into long destination rows ({@link NarrowKernels}). */
    DEINTERLEAVE(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiledSame(c) && c.sJ() == c.nI() && NarrowKernels.takes(c.elements().dstBytes(), c.nI()) && c.wholeI();
        }
    },
    /** Any transpose, element by element in cache-sized blocks ({@link CopyKernels#transpose}). */
    TRANSPOSE_ELEMENTS(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiledSame(c);
        }
    },
    /** f32 to bf16, runs contiguous on both sides: a vector at a time ({@link ConvertKernels}). */
    CONVERT_RUNS(Case.Shape.RUNS, 0) {
        @Override
        boolean takes(Case c) {
            return c.elements().conversion() == Conversion.F32_TO_BF16;
        }
    },
    /** f32 to bf16, anything else that is not a transpose: element by element. */
    CONVERT_ELEMENTS(Case.Shape.STRIDED, 0) {
        @Override
        boolean takes(Case c) {
            return c.elements().conversion() == Conversion.F32_TO_BF16;
        }
    },
    /** f32 to bf16 transposed: 32 source rows of 16 rounded as loaded into 16x16 tiles of pairs ({@link ConvertKernels}). */
    CONVERT_TILES_16(Case.Shape.TRANSPOSE, 16) {
        @Override
        boolean takes(Case c) {
            return !c.panels() && c.tile() == 16 && c.elements().conversion() == Conversion.F32_TO_BF16
                    && Tuning.TILE == 16 && LITTLE_ENDIAN && c.nI() >= 16 && c.nJ() >= 32;
        }
    },
    /** f32 to bf16, two source rows into interleaved pairs (the {@code (2,1)} sub-tile, {@link ConvertKernels}). */
    CONVERT_ZIP_2(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiled(c) && c.elements().conversion() == Conversion.F32_TO_BF16
                    && ConvertKernels.RUN_VECTOR && LITTLE_ENDIAN && c.nJ() == 2 && c.tI() == 2 && c.wholeJ();
        }
    },
    /** f32 to bf16, any transpose, element by element. */
    CONVERT_TRANSPOSE_ELEMENTS(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiled(c) && c.elements().conversion() == Conversion.F32_TO_BF16;
        }
    },
    /** A widening conversion, runs contiguous on both sides: a vector at a time ({@link WideningKernels}). */
    WIDEN_RUNS(Case.Shape.RUNS, 0) {
        @Override
        boolean takes(Case c) {
            return c.elements().widens();
        }
    },
    /** A widening conversion, anything else that is not a transpose: element by element ({@link WideningKernels}). */
    WIDEN_ELEMENTS(Case.Shape.STRIDED, 0) {
        @Override
        boolean takes(Case c) {
            return c.elements().widens();
        }
    },
    /**
     * bf16 to f32, one run of pairs (the {@code (2,1)} sub-tile) into two destination rows, no
     * buffer: each pair read as one 32-bit lane is both values ({@link WideningKernels}).
     */
    WIDEN_PAIRS(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiled(c) && c.elements().widens() && c.elements().conversion().kind == Conversion.Kind.BF16_F32
                    && !c.elements().conversion().toF64 && WideningKernels.VECTOR && LITTLE_ENDIAN && c.nI() == 2
                    && c.sJ() == 2 && c.wholeI();
        }
    },
    /**
     * A widening conversion, any transpose: in blocks through a per-thread buffer, transposed in the
     * source's or the destination's type with that type's tiles where they take the block
     * ({@link WideningKernels}).
     */
    WIDEN_TRANSPOSE(Case.Shape.TRANSPOSE, 0) {
        @Override
        boolean takes(Case c) {
            return untiled(c) && c.elements().widens();
        }
    },
    /** 4-bit elements from one per byte to {@code E(4)} ({@link PackKernels}): named by the pack strategy, no walk. */
    PACK_4(Case.Shape.NIBBLES, 0) {
        @Override
        boolean takes(Case c) {
            return false;
        }
    },
    /** 4-bit elements from {@code E(4)} to one per byte ({@link PackKernels}): named by the pack strategy, no walk. */
    UNPACK_4(Case.Shape.NIBBLES, 0) {
        @Override
        boolean takes(Case c) {
            return false;
        }
    };

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final Kernel[] ALL = values();

    private final Case.Shape shape;
    private final int tile;

    Kernel(Case.Shape shape, int tile) {
        this.shape = shape;
        this.tile = tile;
    }

    /** {@return the shape of nest this kernel takes} */
    public Case.Shape shape() {
        return shape;
    }

    /** {@return the edge of this kernel's square tiles (0: none, or the walk's, for {@link #PANELS})} */
    public int tile() {
        return tile;
    }

    /** {@return whether this kernel transposes (takes the loops I and J together)} */
    public boolean transposes() {
        return shape == Case.Shape.TRANSPOSE;
    }

    /** The kernel's own rule, given that the case has the kernel's shape. */
    abstract boolean takes(Case c);

    /** {@return whether this kernel takes the case} */
    public boolean applies(Case c) {
        return c.shape() == shape && takes(c);
    }

    /** {@return the kernel that runs the case: the first that applies, or null where none does} */
    public static Kernel choose(Case c) {
        for (Kernel k : ALL) {
            if (k.applies(c)) {
                return k;
            }
        }
        return null;
    }

    /** {@return the same-type tile kernel of edge {@code t}, or null} */
    public static Kernel tiles(int t) {
        return switch (t) {
            case 32 -> TILES_32;
            case 16 -> TILES_16;
            case 8 -> TILES_8;
            default -> null;
        };
    }

    /**
     * {@return the tile edges the transpose kernels have on this machine, the largest first}: 32 (for
     * 2-byte elements), 16 and 8 with 512-bit vectors; 16 (for 2-byte elements, little-endian) and 8
     * with 256-bit ones; none without vectors
     */
    public static int[] tileEdges() {
        return Tuning.TILE == 16 ? new int[] {32, 16, 8} : Tuning.TILE == 8 ? LITTLE_ENDIAN ? new int[] {16, 8} : new int[] {8}
                : new int[0];
    }

    /** {@return whether the case has no tile and no panels (the kernels without tiles)} */
    private static boolean untiled(Case c) {
        return c.tile() == 0 && !c.panels();
    }

    /** {@return whether the case moves elements unchanged, untiled (the same-type kernels without tiles)} */
    private static boolean untiledSame(Case c) {
        return untiled(c) && !c.elements().converts();
    }

    /**
     * {@return whether the same-type tiles of this constant's edge take the case}: 8 or 16 up to the
     * machine's {@link Tuning#TILE}, 32 for 2-byte elements where it is 16, or 16 for 2-byte elements
     * where it is 8 (little-endian); at least a tile of
     * source rows and whole 64-byte lines of destination rows
     */
    boolean takesTiles(Case c) {
        int b = c.elements().dstBytes();
        int t = tile;
        boolean edge = t > 0 && t <= Tuning.TILE || t == 32 && b == 2 && Tuning.TILE == 16
                || t == 16 && b == 2 && Tuning.TILE == 8 && LITTLE_ENDIAN;
        return edge && !c.elements().converts() && (b == 4 || b == 2) && c.nI() >= t && c.nJ() >= Math.max(t, 64 / b);
    }
}
