package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The bulk copies between a 1024×1024 array and a {@code float[]}, on four layouts: {@code toFloat}
 * ({@link Array#toFloatArray(float[], int)}, into a reused array), {@code copyFrom}
 * ({@link Array#copyFrom(float[], int)}), against {@code relayoutToArray} ({@link Relayout#to} into a
 * row-major f32 array of a reused arena, then {@code MemorySegment.toArray}: what a user writes
 * without the bulk path) and {@code accessorLoop} (a {@code getFloat(i, j)} loop into a reused
 * {@code float[]}). The goal: the bulk path within 1.2× of {@code relayoutToArray} and faster than
 * {@code accessorLoop} on every layout.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
        "-Dtegula.relayout.wisdom=off"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BulkBench {
    static final int N = 1024;

    @Param({"f32[1024,1024]{1,0}", "f32[1024,1024]{0,1}", "f32[1024,1024]{1,0:T(8,128)}",
            "bf16[1024,1024]{1,0:T(8,128)(2,1)}"})
    public String shape;

    private Arena arena;
    private Array array;
    private float[] values;

    @Setup
    public void setup() {
        arena = Arena.ofConfined();
        array = Array.allocate(arena, ArrayShape.parse(shape));
        values = new float[N * N];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i & 1023) * 0.25f;
        }
        array.copyFrom(values);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public float[] toFloat() {
        array.toFloatArray(values, 0);
        return values;
    }

    @Benchmark
    public Array copyFrom() {
        array.copyFrom(values, 0);
        return array;
    }

    @Benchmark
    public float[] relayoutToArray() {
        try (Arena scratch = Arena.ofConfined()) {
            Array rm = Relayout.to(array, ArrayShape.of(dev.tegula.core.ElementType.F32, N, N)
                    .withLayout(Layout.rowMajor(2)), scratch);
            return rm.segment().toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    @Benchmark
    public float[] accessorLoop() {
        float[] v = values;
        Array a = array;
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                v[i * N + j] = a.getFloat(i, j);
            }
        }
        return v;
    }
}
