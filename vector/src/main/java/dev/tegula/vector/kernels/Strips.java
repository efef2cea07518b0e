package dev.tegula.vector.kernels;

/** How the tiles of one block of the blocked transpose ({@link TransposeKernels}) are walked and where they are stored. */
public enum Strips {
    /** Strips of {@code T} source rows across the block, tiles stored straight into the destination. */
    SOURCE,
    /** Strips of {@code T} destination rows, tiles stored straight into the destination. */
    DESTINATION,
    /** Source strips into a per-thread staging buffer, then one bulk copy per destination row piece. */
    STAGED,
    /**
     * As {@link #STAGED}, the block then leaving the buffer in one streaming copy ({@link StreamStores}):
     * the destination lines are written without being read first (a plain copy where the streaming
     * routine is not there).
     */
    STREAMED;

    /** {@return whether the block's tiles go through the staging buffer} */
    public boolean staged() {
        return this == STAGED || this == STREAMED;
    }
}
