package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.FloatAccessor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * Reads a 1024×1024 f32 array by index through {@link Array#getFloat(long, long)} ({@code accessor})
 * and, over the same segment, through a hand-written index formula for its layout ({@code hand});
 * {@code writer} and {@code writeHand} do the same for {@link Array#setFloat(long, long, float)};
 * {@code floatAccessor} and {@code floatAccessorWriter} read and write through
 * {@link Array#floatAccessor()}, the one accessor class for f32 arrays of every layout.
 * The goal: row-major and column-major within 1.5× of the hand-written loop,
 * {@code T(8,128)} within 2×. Both loops visit elements in logical row-major order, and both go
 * through the segment's own checks (bounds, liveness); the hand-written loop has no index checks
 * against the shape, the accessor has them.
 *
 * <p>{@code polluted} first runs the same reading and writing methods over arrays of other layout
 * families (row-major, column-major, {@code T(8,128)}, {@code T(8,128)(2,1)}, {@code T(2,2)},
 * {@code T(8,128)(4,1)}, strided, sliced and selected views) and element types (f32, f64, bf16, f16, s32, s8, packed
 * s4, u8, f8e4m3fn, pred) in the same JVM, so that the profile of every call site on the way is
 * polluted: a megamorphic call, a call that is not inlined or a path that cannot be hoisted would
 * show up as a slowdown. The {@link FloatAccessor} loops run there too, over every f32 array and
 * view of the mix. (Not in the mix: the general nested-tiling fallback and the out-of-line
 * element types u64, c64, c128, and tiles that are not powers of two: each puts an out-of-line
 * call into the loop; see {@code docs/benchmarks.md}.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ArrayReadBench {
    static final int N = 1024;

    @Param({"rowMajor", "columnMajor", "tiled"})
    public String layout;

    @Param({"false", "true"})
    public boolean polluted;

    private Arena arena;
    private Array array;
    private FloatAccessor accessor;
    private MemorySegment segment;
    private float value;

    @Setup
    public void setup() {
        arena = Arena.ofShared();
        String text = shapeOf(layout);
        array = Array.allocate(arena, ArrayShape.parse(text));
        float[] v = new float[N * N];
        for (int i = 0; i < v.length; i++) {
            v[i] = i & 1023;
        }
        array.copyFrom(v);
        segment = array.segment();
        accessor = array.floatAccessor();
        if (polluted) {
            pollute();
        }
    }

    /** {@return the 1024×1024 f32 shape of a {@code layout} parameter: rowMajor, columnMajor or tiled ({@code T(8,128)})} */
    static String shapeOf(String layout) {
        return switch (layout) {
            case "rowMajor" -> "f32[1024,1024]{1,0}";
            case "columnMajor" -> "f32[1024,1024]{0,1}";
            default -> "f32[1024,1024]{1,0:T(8,128)}";
        };
    }

    /** Runs the accessors over other layouts and types so that their call sites see many kinds. */
    private void pollute() {
        String[] others = {"f32[64,64]{1,0}", "f32[64,64]{0,1}", "f32[64,64]{1,0:T(8,128)}",
            "f32[64,256]{1,0:T(8,128)(2,1)}", "f32[64,64]{0,1:T(2,2)}", "f32[8,64,64]{2,1,0}",
            "f64[64,64]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}", "f16[64,64]{0,1:T(2,2)}",
            "s32[64,64]{0,1}", "s8[64,64]{1,0:T(8,128)(4,1)}", "s4[64,64]{1,0:E(4)}", "u8[8,64,64]{2,1,0}",
            "f8e4m3fn[64,64]{1,0}", "pred[64,64]{0,1}"};
        double sink = 0;
        for (int round = 0; round < 200; round++) {
            for (String t : others) {
                Array a = Array.allocate(arena, ArrayShape.parse(t));
                // rank 3: a selected (strided, offset) view; rank 2: a view through two transposes
                Array b = a.shape().rank() == 3 ? a.select(0, 1) : a.permute(1, 0).permute(1, 0);
                Array c = a.shape().rank() == 3 ? a.select(2, 3)
                        : a.shape().layout().isTiled() ? a.slice(a.shape().layout().minorToMajor()[1], 0, 24)
                        : a.slice(0, 0, 32, 2);
                write(b, round);
                sink += (a.shape().rank() == 2 ? sum(a) : 0) + sum(b) + sum(c);
                if (a.shape().rank() == 2) {
                    write(a, round);
                }
                for (Array f : new Array[] {a, b, c}) {   // the f32 accessor's loops, over every f32 layout and view
                    if (f.shape().rank() == 2 && f.shape().elementType() == dev.tegula.core.ElementType.F32) {
                        write(f.floatAccessor(), round);
                        sink += sum(f.floatAccessor());
                    }
                }
            }
        }
        if (sink == 42) {
            System.out.println(sink);
        }
    }

    private static float sum(Array a) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        float s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.getFloat(i, j);
            }
        }
        return s;
    }

    private static void write(Array a, float v) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.setFloat(i, j, v);
            }
        }
    }

    private static float sum(FloatAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        float s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(FloatAccessor a, float v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public float accessor() {
        return sum(array);
    }

    /** {@link #accessor()} through {@link Array#floatAccessor()}. */
    @Benchmark
    public float floatAccessor() {
        return sum(accessor);
    }

    /** {@link #writer()} through {@link Array#floatAccessor()}. */
    @Benchmark
    public void floatAccessorWriter() {
        write(accessor, value++);
    }

    @Benchmark
    public void writer() {
        write(array, value++);
    }

    @Benchmark
    public void writeHand() {
        MemorySegment seg = segment;
        float v = value++;
        switch (layout) {
            case "rowMajor" -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {
                        seg.setAtIndex(ValueLayout.JAVA_FLOAT, i * N + j, v);
                    }
                }
            }
            case "columnMajor" -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {
                        seg.setAtIndex(ValueLayout.JAVA_FLOAT, j * N + i, v);
                    }
                }
            }
            default -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {   // T(8,128): 8 tiles across, 1024 slots a tile
                        seg.setAtIndex(ValueLayout.JAVA_FLOAT,
                                ((i >> 3) * 8 + (j >> 7)) * 1024 + (i & 7) * 128 + (j & 127), v);
                    }
                }
            }
        }
    }

    @Benchmark
    public float hand() {
        MemorySegment seg = segment;
        float s = 0;
        switch (layout) {
            case "rowMajor" -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {
                        s += seg.getAtIndex(ValueLayout.JAVA_FLOAT, i * N + j);
                    }
                }
            }
            case "columnMajor" -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {
                        s += seg.getAtIndex(ValueLayout.JAVA_FLOAT, j * N + i);
                    }
                }
            }
            default -> {
                for (long i = 0; i < N; i++) {
                    for (long j = 0; j < N; j++) {   // T(8,128): 8 tiles across, 1024 slots a tile
                        s += seg.getAtIndex(ValueLayout.JAVA_FLOAT,
                                ((i >> 3) * 8 + (j >> 7)) * 1024 + (i & 7) * 128 + (j & 127));
                    }
                }
            }
        }
        return s;
    }
}
