package dev.tegula.ffm;

import java.lang.foreign.MemorySegment;

/**
 * A device buffer range mapped into host memory by {@link MemorySpaceProvider#map}: a host segment
 * over the same bytes until {@link #unmap()}. On devices that share memory with the host (CPUs,
 * integrated GPUs, PoCL) the segment is the buffer itself; on a discrete GPU it is a pinned staging
 * area that the map and the unmap fill and drain.
 *
 * <p>The segment belongs to an arena of the mapping: after {@code unmap} any access to it throws
 * {@link IllegalStateException}. A mapping is used by one thread at a time; {@code unmap} is called once.
 */
public interface Mapping {
    /** {@return the host view of the mapped range, {@code byteSize} bytes as mapped} */
    MemorySegment segment();

    /**
     * Ends the mapping: the host's writes (for {@link MapMode#WRITE} and {@link MapMode#READ_WRITE})
     * become the device's when the returned operation completes; the segment is closed at once.
     *
     * @return the completion of the unmap
     */
    Completion unmap();
}
