package dev.tegula.vector;

/**
 * One timing of a candidate that a measuring planner made: which walk it was, on how many bytes,
 * how long it took, and in which round (a sample of the buffers, or the final round on the whole
 * relayout). Immutable.
 *
 * @param nest      the loop nest of the plan the candidate walks (0 for most plans; tiles that do
 *                  not divide their dimensions give a plan several nests)
 * @param candidate the candidate in the text form of wisdom files, e.g.
 *                  {@code order=1,0,2 split=1 tile=16 block=512x64 strips=staged bands=source}
 * @param bytes      bytes the timed run reads and writes (source and destination together)
 * @param nanos      the fastest of the timed runs, in nanoseconds
 * @param finalRound false for a run on a sample of the buffers (about 16 MiB, where every candidate is
 *                   compared); true for a run of the final round, in which the estimate and the
 *                   fastest candidates of the samples run on the whole loop nest (up to 1 GiB read
 *                   and written) and the fastest of them is kept (the estimate, unless
 *                   another ran 5% faster)
 * @param chosen     true for the timing of the candidate the plan kept (in its final round, where
 *                   there was one)
 */
public record PlanMeasurement(int nest, String candidate, long bytes, long nanos, boolean finalRound,
                              boolean chosen) {
    /** {@return bytes read and written per second, in GB/s (10^9 bytes)} */
    public double gigabytesPerSecond() {
        return nanos <= 0 ? 0 : (double) bytes / nanos;
    }
}
