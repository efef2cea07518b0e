package dev.tegula.vector.kernels;

/** The order of the blocked transpose's blocks ({@link TransposeKernels}). */
public enum Bands {
    /** All blocks of a band of source rows, then the next band. */
    SOURCE,
    /** All blocks of a band of destination rows, then the next band. */
    DESTINATION
}
