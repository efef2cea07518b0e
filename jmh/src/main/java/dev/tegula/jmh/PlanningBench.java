package dev.tegula.jmh;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.Wisdom;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What planning costs. {@code measure}: one {@code MEASURE} plan of a transpose case (64–256 MiB) on
 * buffers that exist already, in a fresh cache with no wisdom, wall time of single shots (each in a
 * JVM where planning ran before only in the warm-up shots; the first shot of a fork, JIT compilation
 * included, is the warm-up). {@code fromWisdom}: the same plan when wisdom holds the choice (a fresh
 * cache each time, so the wisdom entry is looked up and its walk read and checked every time).
 * Targets: {@code measure} of a 256 MiB relayout within 2 s; {@code fromWisdom} under 1 ms.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
    "-Xmx2g"})
public class PlanningBench {

    /** A transpose case of {@link RelayoutCases} by name. */
    @Param({"f32_8192x8192_T", "f32_3d_210", "f32_4d_3210"})
    public String relayoutCase;

    private Arena arena;
    private Array src;
    private Array dst;
    private Wisdom wisdom;

    @Setup(Level.Trial)
    public void setUp() {
        RelayoutCases.Case c = RelayoutCases.parse(RelayoutBench.resolve(relayoutCase));
        arena = Arena.ofShared();
        MemorySegment s = HostMemory.allocate(arena, c.from().bufferSize(), 4096);
        MemorySegment d = HostMemory.allocate(arena, c.to().bufferSize(), 4096);
        s.fill((byte) 7);
        d.fill((byte) 0);
        src = Array.wrap(s, c.from());
        dst = Array.wrap(d, c.to());
        wisdom = Wisdom.inMemory();
        RelayoutPlan p = new PlanCache(1, wisdom).plan(src, dst, Planning.MEASURE, 1, null);
        System.out.println("# wisdom holds: " + p.walks());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public RelayoutPlan measure() {
        return new PlanCache(1, null).plan(src, dst, Planning.MEASURE, 1, null);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public RelayoutPlan fromWisdom() {
        return new PlanCache(1, wisdom).plan(src, dst, Planning.MEASURE, 1, null);
    }
}
