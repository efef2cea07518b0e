package dev.tegula.vector;

/**
 * The system properties that tune the relayout engine, one name each, all of the form
 * {@code tegula.relayout.<camelCase>}. Each is read once, when the class that uses it is
 * initialised; setting one later has no effect. They exist for testing and for tuning studies
 * (see {@code docs/relayout.md} and {@code docs/benchmarks.md}); the defaults are what Tegula
 * ships with, and no result depends on them, only speed.
 */
final class Tuning {
    private Tuning() {
    }

    /**
     * {@value}: {@code true} switches the Vector API kernels off, so only the scalar paths run
     * (what runs anyway on CPUs without 256-bit vectors). Default {@code false}. The test suite runs
     * once with it set.
     */
    static final String SCALAR = "tegula.relayout.scalar";

    /**
     * {@value}: {@code true} uses 8x8 transpose tiles even where 512-bit vectors would allow 16x16
     * ({@link TransposeKernels}). Default {@code false}.
     */
    static final String TRANSPOSE_TILE8 = "tegula.relayout.transposeTile8";

    /**
     * {@value}: elements of each source row that one block of {@link TransposeKernels} covers (the
     * destination rows of a block). Default: {@value #TRANSPOSE_BLOCK_DEFAULT}, or 128 where either
     * side's rows lie 256 KiB or more apart, or 512 in the staged blocks where the destination rows
     * do ({@link TransposeKernels#STAGED_BLOCK_I}). Set, it fixes the size for every transpose; a
     * block is staged only if it fits the staging buffer.
     */
    static final String TRANSPOSE_BLOCK_I = "tegula.relayout.transposeBlockI";

    /**
     * {@value}: source rows that one block of {@link TransposeKernels} covers (the elements of each
     * destination row). Default: as {@link #TRANSPOSE_BLOCK_I}, and 64 in the staged blocks
     * ({@link TransposeKernels#STAGED_BLOCK_J}).
     */
    static final String TRANSPOSE_BLOCK_J = "tegula.relayout.transposeBlockJ";
    static final int TRANSPOSE_BLOCK_DEFAULT = 512;
}
