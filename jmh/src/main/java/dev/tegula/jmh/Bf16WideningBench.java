package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.Planning;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * bf16 {@code [8192,8192]{1,0}} to f32 {@code {1,0}} through the relayout engine against the
 * one-line Java loop a user writes ({@code dst[i] = Float.intBitsToFloat(src[i] << 16)}), over
 * segments and over {@code short[]}/{@code float[]}, and against {@code MemorySegment.copy} of the f32 buffer (256 MiB);
 * and transposed, bf16 {@code {1,0}} to f32 {@code {0,1}}, through the engine against the one-line
 * transposing loop over the arrays ({@code dst[i·n + j] = f32(src[j·n + i])}). One thread; buffers of the segment forms on huge pages where the system gives them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
    "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class Bf16WideningBench {
    private static final int EDGE = 8192;
    private static final long N = (long) EDGE * EDGE;

    private Arena arena;
    private MemorySegment src;
    private MemorySegment dst;
    private MemorySegment copySrc;
    private short[] srcArray;
    private float[] dstArray;
    private RelayoutPlan plan;
    private RelayoutPlan transposed;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        src = HostMemory.allocate(arena, 2 * N, 4096);
        dst = HostMemory.allocate(arena, 4 * N, 4096);
        copySrc = HostMemory.allocate(arena, 4 * N, 4096);
        RelayoutBench.fillSource(src);
        dst.fill((byte) 1);
        copySrc.fill((byte) 3);
        srcArray = src.toArray(ValueLayout.JAVA_SHORT);
        dstArray = new float[(int) N];
        plan = Relayout.plan(ArrayShape.parse("bf16[8192,8192]{1,0}"), ArrayShape.parse("f32[8192,8192]{1,0}"),
                Planning.ESTIMATE, 1);
        System.out.println("# plan: " + plan);
        transposed = Relayout.plan(ArrayShape.parse("bf16[8192,8192]{1,0}"), ArrayShape.parse("f32[8192,8192]{0,1}"),
                Planning.ESTIMATE, 1);
        System.out.println("# transposed plan: " + transposed);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment relayout() {
        plan.execute(src, dst);
        return dst;
    }

    @Benchmark
    public MemorySegment segmentLoop() {
        for (long i = 0; i < N; i++) {
            dst.setAtIndex(ValueLayout.JAVA_INT, i, src.getAtIndex(ValueLayout.JAVA_SHORT, i) << 16);
        }
        return dst;
    }

    @Benchmark
    public float[] arrayLoop() {
        short[] s = srcArray;
        float[] d = dstArray;
        for (int i = 0; i < d.length; i++) {
            d[i] = Float.intBitsToFloat(s[i] << 16);
        }
        return d;
    }

    @Benchmark
    public MemorySegment relayoutTransposed() {
        transposed.execute(src, dst);
        return dst;
    }

    @Benchmark
    public float[] arrayLoopTransposed() {
        short[] s = srcArray;
        float[] d = dstArray;
        for (int i = 0; i < EDGE; i++) {
            for (int j = 0; j < EDGE; j++) {
                d[i * EDGE + j] = Float.intBitsToFloat(s[j * EDGE + i] << 16);
            }
        }
        return d;
    }

    @Benchmark
    public MemorySegment copy() {
        MemorySegment.copy(copySrc, 0, dst, 0, 4 * N);
        return dst;
    }
}
