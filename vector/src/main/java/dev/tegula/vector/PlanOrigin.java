package dev.tegula.vector;

import java.util.Locale;

/** Where a {@link RelayoutPlan}'s walks come from ({@link PlanReport#origin()}). */
public enum PlanOrigin {
    /** The engine's rules, no timing. */
    ESTIMATE,
    /** Timed here, when the plan was made. */
    MEASURED,
    /** Timed before, on this machine, and kept in {@link Wisdom}. */
    WISDOM;

    /** {@return the name in lower case, as the plan's description and the command line print it: {@code estimate}, {@code measured}, {@code wisdom}} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
