package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Runs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.BFloat16;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.codec.Float16;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
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
 *
 * <p><b>Every element type.</b> {@code typedRuns} is {@code y += x} over the runs of two arrays of
 * {@link Typed}'s {@code elementType} (f32, f64, s64, s32, s16, s8, u8, bf16, f16, f8e4m3fn) in the
 * benchmark's {@code layout}, and {@code typedJavaArray} the same kernel over two Java arrays of the
 * type's storage, in the same fork: a Vector API {@code add} in the type's own width for f32, f64 and
 * the integers (wrapping), and for bf16, f16 and fp8 a scalar loop that decodes both operands to
 * float, adds and encodes the sum (the same codec calls in both). In the {@code used} JVM the kernel
 * has run first over every one of these types in the layouts and pairs of the mix.
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
            for (String t : TYPES) {   // y += x over runs of every element type, and over its Java arrays
                ElementType type = ElementType.fromName(t);
                for (String l : new String[] {"{1,0}", "{0,1}", "{1,0:T(8,128)}"}) {
                    Array a = Array.allocate(arena, ArrayShape.parse(t + "[64,256]" + l));
                    Array b = Array.allocate(arena, ArrayShape.parse(t + "[64,256]" + l));
                    Array c = Array.allocate(arena, ArrayShape.parse(t + "[64,256]{1,0}"));
                    add(type, Runs.of(a, b));
                    add(type, Runs.of(a, c));
                    if (!a.shape().layout().isTiled()) {   // strided views (a tiled one must keep whole tiles)
                        add(type, Runs.of(a.slice(1, 0, 256, 2), b.slice(1, 128, 256)));
                    }
                }
                Object xs = javaArray(type, 64 * 64 + round);
                add(type, xs, javaArray(type, 64 * 64 + round));
            }
        }
    }

    /** The element types of {@link Typed}. */
    static final String[] TYPES = {"f32", "f64", "s64", "s32", "s16", "s8", "u8", "bf16", "f16", "f8e4m3fn"};

    /** Two arrays of one element type in the benchmark's layout, and two Java arrays of its storage. */
    @State(Scope.Thread)
    public static class Typed {
        @Param({"f32", "f64", "s64", "s32", "s16", "s8", "u8", "bf16", "f16", "f8e4m3fn"})
        public String elementType;

        ElementType type;
        Array x;
        Array y;
        Object xa;
        Object ya;

        @Setup
        public void setup(RunsBench bench) {
            type = ElementType.fromName(elementType);
            String text = ArrayReadBench.shapeOf(bench.layout).replace("f32", elementType);
            x = Array.allocate(bench.arena, ArrayShape.parse(text));
            y = Array.allocate(bench.arena, ArrayShape.parse(text));
            x.fill(1.0);
            xa = javaArray(type, N * N);
            ya = javaArray(type, N * N);
            if (xa instanceof short[] s) {   // bf16, f16: the code of 1
                java.util.Arrays.fill(s, type == ElementType.BF16 ? BFloat16.fromFloat(1) : Float16.fromFloat(1));
            }
        }
    }

    /** {@return a Java array of {@code n} elements of the type's storage} */
    static Object javaArray(ElementType type, int n) {
        return switch (type) {
            case F32 -> new float[n];
            case F64 -> new double[n];
            case S64 -> new long[n];
            case S32 -> new int[n];
            case S16, BF16, F16 -> new short[n];
            default -> new byte[n];
        };
    }

    static final VectorSpecies<Double> SD = DoubleVector.SPECIES_PREFERRED;
    static final VectorSpecies<Long> SL = LongVector.SPECIES_PREFERRED;
    static final VectorSpecies<Integer> SI = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Short> SS = ShortVector.SPECIES_PREFERRED;
    static final VectorSpecies<Byte> SB = ByteVector.SPECIES_PREFERRED;

    /** {@code y += x} over the runs of two arrays of {@code type} (x operand 0, y operand 1). */
    static void add(ElementType type, Runs r) {
        switch (type) {
            case F32 -> addF32(r);
            case F64 -> addF64(r);
            case S64 -> addS64(r);
            case S32 -> addS32(r);
            case S16 -> addS16(r);
            case S8, U8 -> addS8(r);
            case BF16 -> addBf16(r);
            case F16 -> addF16(r);
            default -> addF8(type, r);
        }
    }

    /** {@code y += x} over two Java arrays of the type's storage. */
    static void add(ElementType type, Object x, Object y) {
        switch (type) {
            case F32 -> addF32((float[]) x, (float[]) y);
            case F64 -> addF64((double[]) x, (double[]) y);
            case S64 -> addS64((long[]) x, (long[]) y);
            case S32 -> addS32((int[]) x, (int[]) y);
            case S16 -> addS16((short[]) x, (short[]) y);
            case S8, U8 -> addS8((byte[]) x, (byte[]) y);
            case BF16 -> addBf16((short[]) x, (short[]) y);
            case F16 -> addF16((short[]) x, (short[]) y);
            default -> addF8(type, (byte[]) x, (byte[]) y);
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

    private static void addF32(Runs r) {
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
                vy.add(vx).intoMemorySegment(ys, yo + 4 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, yo + 4 * i, (float) (ys.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, yo + 4 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, xo + 4 * i)));
            }
        }
    }

    private static void addF32(float[] x, float[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = S.loopBound(n); i < bound; i += S.length()) {
            FloatVector.fromArray(S, y, i).add(FloatVector.fromArray(S, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (float) (y[i] + x[i]);
        }
    }

    private static void addF64(Runs r) {
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = SD.loopBound(n); i < bound; i += SD.length()) {
                DoubleVector vx = DoubleVector.fromMemorySegment(SD, xs, xo + 8 * i, NATIVE);
                DoubleVector vy = DoubleVector.fromMemorySegment(SD, ys, yo + 8 * i, NATIVE);
                vy.add(vx).intoMemorySegment(ys, yo + 8 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, yo + 8 * i, (double) (ys.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, yo + 8 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, xo + 8 * i)));
            }
        }
    }

    private static void addF64(double[] x, double[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = SD.loopBound(n); i < bound; i += SD.length()) {
            DoubleVector.fromArray(SD, y, i).add(DoubleVector.fromArray(SD, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (double) (y[i] + x[i]);
        }
    }

    private static void addS64(Runs r) {
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = SL.loopBound(n); i < bound; i += SL.length()) {
                LongVector vx = LongVector.fromMemorySegment(SL, xs, xo + 8 * i, NATIVE);
                LongVector vy = LongVector.fromMemorySegment(SL, ys, yo + 8 * i, NATIVE);
                vy.add(vx).intoMemorySegment(ys, yo + 8 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, yo + 8 * i, (long) (ys.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, yo + 8 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, xo + 8 * i)));
            }
        }
    }

    private static void addS64(long[] x, long[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = SL.loopBound(n); i < bound; i += SL.length()) {
            LongVector.fromArray(SL, y, i).add(LongVector.fromArray(SL, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (long) (y[i] + x[i]);
        }
    }

    private static void addS32(Runs r) {
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = SI.loopBound(n); i < bound; i += SI.length()) {
                IntVector vx = IntVector.fromMemorySegment(SI, xs, xo + 4 * i, NATIVE);
                IntVector vy = IntVector.fromMemorySegment(SI, ys, yo + 4 * i, NATIVE);
                vy.add(vx).intoMemorySegment(ys, yo + 4 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, yo + 4 * i, (int) (ys.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, yo + 4 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, xo + 4 * i)));
            }
        }
    }

    private static void addS32(int[] x, int[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = SI.loopBound(n); i < bound; i += SI.length()) {
            IntVector.fromArray(SI, y, i).add(IntVector.fromArray(SI, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (int) (y[i] + x[i]);
        }
    }

    private static void addS16(Runs r) {
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = SS.loopBound(n); i < bound; i += SS.length()) {
                ShortVector vx = ShortVector.fromMemorySegment(SS, xs, xo + 2 * i, NATIVE);
                ShortVector vy = ShortVector.fromMemorySegment(SS, ys, yo + 2 * i, NATIVE);
                vy.add(vx).intoMemorySegment(ys, yo + 2 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, yo + 2 * i, (short) (ys.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, yo + 2 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, xo + 2 * i)));
            }
        }
    }

    private static void addS16(short[] x, short[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = SS.loopBound(n); i < bound; i += SS.length()) {
            ShortVector.fromArray(SS, y, i).add(ShortVector.fromArray(SS, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (short) (y[i] + x[i]);
        }
    }

    private static void addS8(Runs r) {
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            long i = 0;
            for (long bound = SB.loopBound(n); i < bound; i += SB.length()) {
                ByteVector vx = ByteVector.fromMemorySegment(SB, xs, xo + 1 * i, NATIVE);
                ByteVector vy = ByteVector.fromMemorySegment(SB, ys, yo + 1 * i, NATIVE);
                vy.add(vx).intoMemorySegment(ys, yo + 1 * i, NATIVE);
            }
            for (; i < n; i++) {
                ys.set(java.lang.foreign.ValueLayout.JAVA_BYTE, yo + 1 * i, (byte) (ys.get(java.lang.foreign.ValueLayout.JAVA_BYTE, yo + 1 * i) + xs.get(java.lang.foreign.ValueLayout.JAVA_BYTE, xo + 1 * i)));
            }
        }
    }

    private static void addS8(byte[] x, byte[] y) {
        int n = x.length;
        int i = 0;
        for (int bound = SB.loopBound(n); i < bound; i += SB.length()) {
            ByteVector.fromArray(SB, y, i).add(ByteVector.fromArray(SB, x, i)).intoArray(y, i);
        }
        for (; i < n; i++) {
            y[i] = (byte) (y[i] + x[i]);
        }
    }

    private static void addBf16(Runs r) {
        java.lang.foreign.ValueLayout.OfShort s16 = java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            for (long i = 0; i < n; i++) {
                float sum = Float.intBitsToFloat(ys.get(s16, yo + 2 * i) << 16) + Float.intBitsToFloat(xs.get(s16, xo + 2 * i) << 16);
                ys.set(s16, yo + 2 * i, BFloat16.fromFloat(sum));
            }
        }
    }

    private static void addBf16(short[] x, short[] y) {
        for (int i = 0; i < x.length; i++) {
            float sum = Float.intBitsToFloat(y[i] << 16) + Float.intBitsToFloat(x[i] << 16);
            y[i] = BFloat16.fromFloat(sum);
        }
    }

    private static void addF16(Runs r) {
        java.lang.foreign.ValueLayout.OfShort s16 = java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            for (long i = 0; i < n; i++) {
                float sum = Float16.toFloat(ys.get(s16, yo + 2 * i)) + Float16.toFloat(xs.get(s16, xo + 2 * i));
                ys.set(s16, yo + 2 * i, Float16.fromFloat(sum));
            }
        }
    }

    private static void addF16(short[] x, short[] y) {
        for (int i = 0; i < x.length; i++) {
            float sum = Float16.toFloat(y[i]) + Float16.toFloat(x[i]);
            y[i] = Float16.fromFloat(sum);
        }
    }

    private static void addF8(ElementType type, Runs r) {
        float[] values = ArrayReadBench.float8Values(type);
        while (r.next()) {
            MemorySegment xs = r.segment(0);
            MemorySegment ys = r.segment(1);
            long xo = r.offset(0);
            long yo = r.offset(1);
            long n = r.length();
            for (long i = 0; i < n; i++) {
                float sum = values[ys.get(java.lang.foreign.ValueLayout.JAVA_BYTE, yo + i) & 0xFF]
                        + values[xs.get(java.lang.foreign.ValueLayout.JAVA_BYTE, xo + i) & 0xFF];
                ys.set(java.lang.foreign.ValueLayout.JAVA_BYTE, yo + i, (byte) ElementCodec.fromFloat(type, sum));
            }
        }
    }

    private static void addF8(ElementType type, byte[] x, byte[] y) {
        float[] values = ArrayReadBench.float8Values(type);
        for (int i = 0; i < x.length; i++) {
            float sum = values[y[i] & 0xFF] + values[x[i] & 0xFF];
            y[i] = (byte) ElementCodec.fromFloat(type, sum);
        }
    }

    /** {@code y += x} over the runs of {@link Typed}'s two arrays, in memory order. */
    @Benchmark
    public Array typedRuns(Typed t) {
        add(t.type, Runs.of(t.x, t.y));
        return t.y;
    }

    /** The same kernel over {@link Typed}'s two Java arrays. */
    @Benchmark
    public Object typedJavaArray(Typed t) {
        add(t.type, t.xa, t.ya);
        return t.ya;
    }
}

