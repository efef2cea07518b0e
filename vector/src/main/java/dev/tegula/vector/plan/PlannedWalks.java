package dev.tegula.vector.plan;

import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.Planning;
import java.util.List;

/**
 * What the planner chose: the strategy, one walk per nest of a {@link RelayoutStrategy.Nests}
 * strategy (each naming its kernel), how they were chosen and where they come from, and the timings
 * a measuring planner made. Immutable.
 *
 * @param strategy     how the elements move
 * @param walks        the walk of each nest (empty for other strategies)
 * @param planning     how the walks were chosen: {@link Planning#ESTIMATE}, {@link Planning#MEASURE} or
 *                     {@link Planning#EXHAUSTIVE}
 * @param origin       where the walks come from
 * @param measurements every timing the planner made (empty unless it measured)
 */
public record PlannedWalks(RelayoutStrategy strategy, List<Walk> walks, Planning planning, PlanOrigin origin,
                           List<PlanMeasurement> measurements) {
    public PlannedWalks {
        walks = List.copyOf(walks);
        measurements = List.copyOf(measurements);
    }

    /** {@return the walks chosen by rule} */
    static PlannedWalks estimate(RelayoutStrategy strategy, List<Walk> walks) {
        return new PlannedWalks(strategy, walks, Planning.ESTIMATE, PlanOrigin.ESTIMATE, List.of());
    }
}
