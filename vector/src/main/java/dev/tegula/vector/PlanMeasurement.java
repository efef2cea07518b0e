package dev.tegula.vector;

/**
 * One candidate that a measuring planner timed: which walk it was, on how many bytes, how long it
 * took. Immutable.
 *
 * @param nest      the loop nest of the plan the candidate walks (0 for most plans; tiles that do
 *                  not divide their dimensions give a plan several nests)
 * @param candidate the candidate in the text form of wisdom files, e.g.
 *                  {@code order=1,0,2 split=1 tile=16 block=512x64 strips=staged bands=source}
 * @param bytes     bytes the timed part reads and writes (source and destination together)
 * @param nanos     the fastest of the timed runs of that part, in nanoseconds
 * @param chosen    true for the candidate the plan kept
 */
public record PlanMeasurement(int nest, String candidate, long bytes, long nanos, boolean chosen) {
    /** {@return bytes read and written per second, in GB/s (10^9 bytes)} */
    public double gigabytesPerSecond() {
        return nanos <= 0 ? 0 : (double) bytes / nanos;
    }
}
