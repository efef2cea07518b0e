package dev.tegula.vector;

import dev.tegula.vector.plan.CandidateFamilies;
import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.LoopNest;
import dev.tegula.vector.plan.MeasuredSearch;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Tasks;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRules;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.CandidateTimer;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shapes, plans and measures the planner's tests share. */
public final class PlannerFixtures {
    private PlannerFixtures() {
    }

    public static final ArrayShape FROM = shape("f32[16,256,256]{2,1,0}");
    public static final ArrayShape TO = shape("f32[16,256,256]{0,1,2}");

    public static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    public static long parts(RelayoutPlan plan) {
        return plan.report().measurements().stream().filter(m -> !m.finalRound()).count();
    }

    public static double perByte(PlanMeasurement m) {
        return (double) m.nanos() / m.bytes();
    }

    /** An f32 4-D reversal, its nests, its estimate's walk and the panel walks of that walk's panel family. */
    public record Reversal(ArrayShape from, ArrayShape to, RelayoutStrategy.Nests nests, Walk estimate,
                            List<Walk> panels) {
    }

    public static Reversal reversal(String source) {
        ArrayShape from = shape(source);
        ArrayShape to = from.withLayout(dev.tegula.core.Layout.of(0, 1, 2, 3));
        RelayoutPlan estimate = TestPlans.estimate(from, to, 1);
        RelayoutStrategy.Nests nests = (RelayoutStrategy.Nests) TestPlans.strategy(estimate);
        List<Walk> panels = CandidateFamilies.panels(nests.nests().get(0), TestPlans.walks(estimate).get(0))
                .stream().filter(Walk::paneled).toList();
        return new Reversal(from, to, nests, TestPlans.walks(estimate).get(0), panels);
    }

}
