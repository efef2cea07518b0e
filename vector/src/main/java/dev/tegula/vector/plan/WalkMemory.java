package dev.tegula.vector.plan;

/**
 * Where a measuring planner keeps the walks it chose and finds those chosen before (the public
 * {@code Wisdom} files, seen from the planner). Implementations are thread-safe.
 */
public interface WalkMemory {
    /** {@return the walks kept for this request on this machine, in {@link Planner#toText}'s form, or null} */
    String recall(PlanRequest request);

    /** Keeps {@code walks} (in {@link Planner#toText}'s form) as the choice for this request on this machine. */
    void remember(PlanRequest request, String walks);

    /** Reports a kept choice that could not be used (it is then planned again). */
    void warn(String message);
}
