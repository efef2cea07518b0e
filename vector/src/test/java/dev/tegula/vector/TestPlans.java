package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.plan.PlanRequest;
import dev.tegula.vector.plan.PlannedWalks;
import dev.tegula.vector.plan.Planner;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Walk;
import java.util.List;

/** Plans for tests of the planner and the kernels: the estimate, and plans of walks a test chose. */
public final class TestPlans {
    private TestPlans() {
    }

    /** {@return the estimate's plan from {@code from} to {@code to} for {@code threads} threads, not cached} */
    public static RelayoutPlan estimate(ArrayShape from, ArrayShape to, int threads) {
        PlanRequest r = new PlanRequest(from, to, null, null, Planning.ESTIMATE, threads, null, null, null, null, null, null);
        return new RelayoutPlan(from, to, null, null, threads, Planner.plan(r));
    }

    /** {@return a plan that runs {@code walks} (one per nest of {@code nests}), as a measured plan for {@code threads} threads} */
    public static RelayoutPlan of(ArrayShape from, ArrayShape to, RelayoutStrategy.Nests nests, List<Walk> walks,
                                  int threads) {
        PlannedWalks chosen = new PlannedWalks(nests, walks, Planning.EXHAUSTIVE, PlanOrigin.MEASURED, List.of());
        return new RelayoutPlan(from, to, null, null, threads, chosen);
    }

    /** Runs the plan on {@code threads} tasks of {@code executor} (null: this thread), splitting nests of any size. */
    public static void execute(RelayoutPlan p, java.lang.foreign.MemorySegment src, java.lang.foreign.MemorySegment dst,
                               java.util.concurrent.ExecutorService executor, int threads) {
        p.execute(src, dst, executor, threads, 0);
    }

    /** {@return the plan's strategy} */
    public static RelayoutStrategy strategy(RelayoutPlan p) {
        return p.strategy();
    }

    /** {@return the plan's loop nests} */
    public static RelayoutStrategy.Nests nests(RelayoutPlan p) {
        return (RelayoutStrategy.Nests) p.strategy();
    }

    /** {@return the plan's walks, one per nest} */
    public static List<Walk> walks(RelayoutPlan p) {
        return p.walkList();
    }
}
