package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Runs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
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
 * {@code y += a·x} on two 1024×1024 f32 arrays of one layout, written once with the Vector API over
 * {@link Runs} ({@code runs}: memory order; {@code runsRowMajor}: logical row-major order, where a
 * {@code T(8,128)} array gives runs of 128 elements), against the same kernel over two {@code float[]}
 * ({@code floatArray}). The goal: {@code runs} within 1.3× of {@code floatArray} on every layout, in a
 * fresh JVM and in a used one.
 *
 * <p>{@code bufferedMixed} is the buffered inner loop ({@link Runs#blocks}): a row-major {@code y}
 * and a column-major {@code x}, walked in blocks of {@value #BUFFER} elements with a stride each, the
 * strided operand copied into a native buffer before the same Vector API loop; {@code bufferedRowMajor}
 * is the same kernel on two row-major arrays (unit strides: no copy). The goal: {@code bufferedMixed}
 * within 3× of {@code bufferedRowMajor}. Both ignore {@code layout} (run them with
 * {@code -p layout=rowMajor}).
 *
 * <p>{@code used} first runs the same kernels over arrays of other layouts and views (strided, sliced,
 * permuted, {@code T(2,2)}, {@code T(8,128)(2,1)} of bf16 slots walked beside f32, pairs of different
 * layouts whose runs are one element long), so that the profiles of {@link Runs#next()} and of the
 * kernel's loops have seen every kind of run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RunsBench {
    static final int N = 1024;
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    @Param({"rowMajor", "columnMajor", "tiled"})
    public String layout;

    @Param({"false", "true"})
    public boolean used;

    private Arena arena;
    private Array x;
    private Array y;
    private float[] xa;
    private float[] ya;
    private Array rowY;
    private Array rowX;
    private Array colX;
    private MemorySegment bufferX;
    private MemorySegment bufferY;

    /** Elements of one block of the buffered inner loop, and of its buffers. */
    static final int BUFFER = 1024;

    @Setup
    public void setup() {
        arena = Arena.ofShared();
        String text = ArrayReadBench.shapeOf(layout);
        x = Array.allocate(arena, ArrayShape.parse(text));
        y = Array.allocate(arena, ArrayShape.parse(text));
        x.fill(1.0);
        xa = new float[N * N];
        ya = new float[N * N];
        java.util.Arrays.fill(xa, 1f);
        rowY = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{1,0}"));
        rowX = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{1,0}"));
        colX = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{0,1}"));
        rowX.fill(1.0);
        colX.fill(1.0);
        bufferX = arena.allocate(4L * BUFFER, 64);
        bufferY = arena.allocate(4L * BUFFER, 64);
        if (used) {
            use();
        }
    }

    /** Runs the kernels over other layouts, views and pairs, so that their profiles are not one layout's. */
    private void use() {
        String[] others = {"f32[64,64]{1,0}", "f32[64,64]{0,1}", "f32[64,64]{1,0:T(8,128)}", "f32[64,256]{1,0:T(8,128)(2,1)}",
            "f32[30,70]{0,1:T(2,2)}", "f32[8,64,64]{2,1,0}", "f32[8,64,64]{0,2,1}", "f32[20,300]{1,0:T(8,128)}"};
        for (int round = 0; round < 100; round++) {
            for (String t : others) {
                Array a = Array.allocate(arena, ArrayShape.parse(t));
                Array b = Array.allocate(arena, ArrayShape.parse(t));
                Array c = Array.allocate(arena, a.shape().withLayout(dev.tegula.core.Layout.rowMajor(a.shape().rank())));
                axpy(0.5f, Runs.of(a, b));
                axpy(0.5f, Runs.of(a, c));    // different layouts: short runs
                axpy(0.5f, Runs.of(a, b, rowMajorOrder(a.shape().rank()), Runs.Padding.SKIP));
                if (a.shape().rank() == 3) {
                    axpy(0.5f, Runs.of(a.select(1, 3), b.select(2, 5)));   // strided views
                } else if (!a.shape().layout().isTiled()) {
                    axpy(0.5f, Runs.of(a.slice(1, 0, 64, 2), b.slice(1, 32, 64)));
                }
                axpyBuffered(0.5f, Runs.blocks(BUFFER, a, c), bufferX, bufferY);
                axpyBuffered(0.5f, Runs.blocks(BUFFER, c, a), bufferX, bufferY);
                axpyBuffered(0.5f, Runs.blocks(BUFFER, a, b), bufferX, bufferY);
                float[] p = new float[64 * 64 + round];
                axpy(0.5f, p, p.clone());
            }
        }
    }

    static int[] rowMajorOrder(int rank) {
        int[] o = new int[rank];
        for (int d = 0; d < rank; d++) {
            o[d] = d;
        }
        return o;
    }

    /** {@code y += a·x} over the runs of two f32 arrays: one Vector API loop per run. */
    static void axpy(float a, Runs r) {
        FloatVector va = FloatVector.broadcast(S, a);
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = S.loopBound(n); i < bound; i += S.length()) {
                FloatVector vx = FloatVector.fromMemorySegment(S, xs, xo + 4 * i, NATIVE);
                FloatVector vy = FloatVector.fromMemorySegment(S, ys, yo + 4 * i, NATIVE);
                vx.fma(va, vy).intoMemorySegment(ys, yo + 4 * i, NATIVE);
            }
            for (; i < n; i++) {
                float v = xs.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, xo + 4 * i);
                long at = yo + 4 * i;
                ys.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at,
                        Math.fma(v, a, ys.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at)));
            }
        }
    }

    /**
     * {@code y += a·x} over strided blocks ({@code y} operand 0, {@code x} operand 1): a strided
     * operand is copied into its buffer of {@link #BUFFER} floats (and {@code y} back after), so the
     * Vector API loop is the unit-stride one of {@link #axpy(float, Runs)} whatever the layouts.
     */
    static void axpyBuffered(float a, Runs r, MemorySegment bx, MemorySegment by) {
        FloatVector va = FloatVector.broadcast(S, a);
        while (r.next()) {
            long n = r.length();
            MemorySegment ys = r.segment(0);
            MemorySegment xs = r.segment(1);
            long yo = r.offset(0);
            long xo = r.offset(1);
            long yStride = r.stride(0);
            long xStride = r.stride(1);
            if (xStride != 4) {
                for (long i = 0; i < n; i++) {
                    bx.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * i,
                            xs.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, xo + i * xStride));
                }
                xs = bx;
                xo = 0;
            }
            MemorySegment yw = ys;
            long yw0 = yo;
            if (yStride != 4) {
                for (long i = 0; i < n; i++) {
                    by.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * i,
                            ys.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, yo + i * yStride));
                }
                yw = by;
                yw0 = 0;
            }
            long i = 0;
            for (long bound = S.loopBound(n); i < bound; i += S.length()) {
                FloatVector vx = FloatVector.fromMemorySegment(S, xs, xo + 4 * i, NATIVE);
                FloatVector vy = FloatVector.fromMemorySegment(S, yw, yw0 + 4 * i, NATIVE);
                vx.fma(va, vy).intoMemorySegment(yw, yw0 + 4 * i, NATIVE);
            }
            for (; i < n; i++) {
                float v = xs.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, xo + 4 * i);
                long at = yw0 + 4 * i;
                yw.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at,
                        Math.fma(v, a, yw.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at)));
            }
            if (yStride != 4) {
                for (long k = 0; k < n; k++) {
                    ys.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, yo + k * yStride,
                            by.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * k));
                }
            }
        }
    }

    /** The same kernel over two {@code float[]}. */
    static void axpy(float a, float[] x, float[] y) {
        FloatVector va = FloatVector.broadcast(S, a);
        int n = x.length;
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += S.length()) {
            FloatVector.fromArray(S, x, i).fma(va, FloatVector.fromArray(S, y, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = Math.fma(x[i], a, y[i]);
        }
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public Array runs() {
        axpy(1e-6f, Runs.of(x, y));
        return y;
    }

    @Benchmark
    public Array runsRowMajor() {
        axpy(1e-6f, Runs.of(x, y, ROW_MAJOR, Runs.Padding.SKIP));
        return y;
    }

    @Benchmark
    public Array bufferedMixed() {
        axpyBuffered(1e-6f, Runs.blocks(BUFFER, rowY, colX), bufferX, bufferY);
        return rowY;
    }

    @Benchmark
    public Array bufferedRowMajor() {
        axpyBuffered(1e-6f, Runs.blocks(BUFFER, rowY, rowX), bufferX, bufferY);
        return rowY;
    }

    @Benchmark
    public float[] floatArray() {
        axpy(1e-6f, xa, ya);
        return ya;
    }

    private static final int[] ROW_MAJOR = {0, 1};
}
