package dev.tegula.vector;

/**
 * How a {@link RelayoutPlan} chooses among its candidate walks (loop orders, block sizes, staging,
 * tile kernel, the loop threads split). Every candidate gives the same result; they differ only in
 * speed.
 *
 * <ul>
 *   <li>{@link #ESTIMATE}: the engine's rules, no timing; planning is arithmetic on the two
 *       shapes, negligible beside a relayout.</li>
 *   <li>{@link #MEASURE}: times a bounded set of likely candidates (one family of parameters after
 *       the other, each starting from the best so far) on a part of the buffers, and keeps the
 *       fastest; it takes far less time than timing every candidate, and is paid once per shape
 *       pair (see {@code docs/relayout.md} for what it costs).</li>
 *   <li>{@link #EXHAUSTIVE}: times every candidate (up to a few thousand); for offline tuning.</li>
 *   <li>{@link #AUTO}: {@link #ESTIMATE} below {@value #AUTO_MEASURE_BYTES} bytes,
 *       {@link #MEASURE} at or above it, once per shape pair, views and thread count in a process
 *       (a plan cache holds the result, and wisdom keeps it).</li>
 *   <li>{@link #RECALL}: what {@link Relayout#copy}, {@link Relayout#to} and
 *       {@link Relayout#plan(dev.tegula.ffm.Array, dev.tegula.ffm.Array)} do unless the application
 *       chose otherwise ({@link PlanCache#setDefaultPlanning}, or the system property
 *       {@value PlanCache#PLANNING_PROPERTY}): the walk wisdom holds for this machine and relayout
 *       where it holds one, else the estimate. It never times anything, so a library that embeds
 *       Tegula never spends seconds measuring on a user's first call.</li>
 * </ul>
 *
 * <p>Wisdom (see {@link Wisdom}) that holds a choice for the same machine, JDK, thread count and
 * shapes answers every mode but {@link #ESTIMATE} without timing anything.
 */
public enum Planning {
    /** The engine's rules, no timing. */
    ESTIMATE,
    /**
     * Times a bounded set of likely candidates and keeps the fastest (the estimate's walk unless
     * another ran at least 5% faster on the whole relayout).
     */
    MEASURE,
    /** Times every candidate and keeps the fastest, as {@link #MEASURE} does. */
    EXHAUSTIVE,
    /** {@link #ESTIMATE} for small relayouts, {@link #MEASURE} for large ones. */
    AUTO,
    /** Wisdom's choice where it holds one, else the estimate; never times anything. */
    RECALL;

    /** Bytes (of the larger buffer) from which {@link #AUTO} measures: {@value}. */
    public static final long AUTO_MEASURE_BYTES = 64L << 20;

    /** {@return the mode {@code this} stands for with a relayout of {@code bytes}: never {@link #AUTO}} */
    Planning resolve(long bytes) {   // RECALL stays RECALL: it never measures
        return this != AUTO ? this : bytes >= AUTO_MEASURE_BYTES ? MEASURE : ESTIMATE;
    }
}
