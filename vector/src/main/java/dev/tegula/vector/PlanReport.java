package dev.tegula.vector;

import dev.tegula.vector.plan.CandidateTimer;
import java.util.List;

/**
 * How a {@link RelayoutPlan}'s walks were chosen: where they come from and, for a measured plan,
 * every timing the planner made, in the order it made them (each candidate's fastest run on the
 * parts, then the final round's runs on the whole relayout, the chosen one marked there). Apart
 * from the plan: the plan is what runs, the report what was seen once while choosing it.
 * Immutable.
 *
 * @param origin       where the walks come from
 * @param measurements every timing the planner made; empty unless it measured
 */
public record PlanReport(PlanOrigin origin, List<PlanMeasurement> measurements) {
    public PlanReport {
        java.util.Objects.requireNonNull(origin, "origin");
        measurements = List.copyOf(measurements);
    }

    /** {@return the report in words, e.g. {@code measured: fastest of 40 timed candidates, 4 of them on the whole relayout, 2 threads}} */
    String describe(int threads) {
        String t = threads + (threads == 1 ? " thread" : " threads");
        return switch (origin) {
            case MEASURED -> "measured: fastest of " + timedCandidates() + " timed candidates" + finalRoundText() + ", " + t;
            case WISDOM -> "from wisdom, " + t;
            case ESTIMATE -> "estimate";
        };
    }

    private long timedCandidates() {
        return measurements.stream().map(m -> m.nest() + ":" + m.candidate()).distinct().count();
    }

    private String finalRoundText() {
        List<PlanMeasurement> finals = measurements.stream().filter(PlanMeasurement::finalRound).toList();
        if (finals.isEmpty()) {
            return "";
        }
        double fastest = finals.stream().mapToDouble(PlanMeasurement::gigabytesPerSecond).max().orElse(0);
        boolean kept = finals.stream().anyMatch(m -> m.chosen() && m.gigabytesPerSecond() < fastest);
        return ", " + finals.size() + " of them on the whole relayout"
                + (kept ? ", the estimate kept (no walk ran " + Math.round(CandidateTimer.MARGIN * 100) + "% faster)" : "");
    }
}
