package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.BFloat16Accessor;
import dev.tegula.ffm.ByteAccessor;
import dev.tegula.ffm.DoubleAccessor;
import dev.tegula.ffm.Float16Accessor;
import dev.tegula.ffm.Float8Accessor;
import dev.tegula.ffm.FloatAccessor;
import dev.tegula.ffm.IntAccessor;
import dev.tegula.ffm.LongAccessor;
import dev.tegula.ffm.ShortAccessor;
import dev.tegula.ffm.UnsignedByteAccessor;
import dev.tegula.ffm.codec.BFloat16;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.codec.Float16;
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
 *
 * <p><b>Every element type.</b> The {@code typed*} benchmarks take a second state, {@link Typed}, whose
 * {@code elementType} is one of the ten types with an accessor class (f32, f64, s64, s32, s16, s8, u8,
 * bf16, f16, f8e4m3fn), the array 1024×1024 in the same {@code layout}: {@code typedGetter} and
 * {@code typedSetter} go through {@link Array}'s typed accessor of the type's Java type
 * ({@code getFloat} for the floats narrower than f64, {@code getDouble}, {@code getLong}, {@code getInt}
 * for s32, s16, s8 and u8), {@code typedAccessor} and {@code typedAccessorWriter} through the type's
 * accessor class ({@link Array#doubleAccessor()}, ...), and {@code typedJavaArray} and
 * {@code typedJavaArrayWriter} are the hand loops they are compared with: the same index formula
 * over a Java array of the type's storage ({@code float[]}, {@code double[]}, {@code long[]},
 * {@code int[]}, {@code short[]} for s16, bf16 and f16, {@code byte[]} for s8, u8 and fp8, decoded as
 * the accessor decodes), in the same fork. {@code polluted} runs every accessor class and typed
 * getter over the mix first, the mix widened to every one of these types.
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
            "f8e4m3fn[64,64]{1,0}", "pred[64,64]{0,1}", "s64[64,64]{0,1}", "s16[64,256]{1,0:T(8,128)}",
            "f64[64,256]{1,0:T(8,128)}", "bf16[64,64]{0,1}", "f16[64,256]{1,0:T(8,128)(2,1)}", "u8[64,64]{0,1}",
            "s8[64,64]{1,0}", "s32[64,256]{1,0:T(8,128)}", "f8e5m2[64,256]{1,0:T(8,128)(4,1)}"};
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
                for (Array f : new Array[] {a, b, c}) {   // every accessor's loops, over every layout and view of its type
                    if (f.shape().rank() == 2 && f.shape().elementType() == ElementType.F32) {
                        write(f.floatAccessor(), round);
                        sink += sum(f.floatAccessor());
                    }
                    if (f.shape().rank() == 2) {
                        Object x = accessorOf(f);
                        if (x != null) {
                            writeAccessor(x, round);
                            sink += sumAccessor(x);
                        }
                        writeTyped(f, round);
                        sink += sumTyped(f);
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

    // ---- every element type --------------------------------------------------------------------------

    /** The ten element types that have an accessor class, in the {@code layout} of the benchmark. */
    @State(Scope.Thread)
    public static class Typed {
        @Param({"f32", "f64", "s64", "s32", "s16", "s8", "u8", "bf16", "f16", "f8e4m3fn"})
        public String elementType;

        Array array;
        Object accessor;
        /** 0 row-major, 1 column-major, 2 {@code T(8,128)}: the Java array loops' index formula. */
        int layout;
        Object javaArray;
        ElementType type;
        float value;

        @Setup
        public void setup(ArrayReadBench bench) {
            type = ElementType.fromName(elementType);
            array = Array.allocate(bench.arena, ArrayShape.parse(shapeOf(bench.layout).replace("f32", elementType)));
            double[] v = new double[N * N];
            for (int i = 0; i < v.length; i++) {
                v[i] = i & 63;
            }
            array.copyFrom(v);
            accessor = accessorOf(array);
            layout = switch (bench.layout) {
                case "rowMajor" -> 0;
                case "columnMajor" -> 1;
                default -> 2;
            };
            javaArray = switch (type) {
                case F32 -> array.toFloatArray();
                case F64 -> array.toDoubleArray();
                case S64 -> array.toLongArray();
                case S32 -> array.toIntArray();
                case S16 -> array.toShortArray();
                case BF16 -> codes16(v, BFloat16::fromFloat);
                case F16 -> codes16(v, Float16::fromFloat);
                case S8, U8 -> array.toByteArray();
                default -> codes8(v, type);
            };
        }

        private static short[] codes16(double[] v, java.util.function.Function<Float, Short> encode) {
            short[] c = new short[v.length];
            for (int i = 0; i < v.length; i++) {
                c[i] = encode.apply((float) v[i]);
            }
            return c;
        }

        private static byte[] codes8(double[] v, ElementType type) {
            byte[] c = new byte[v.length];
            for (int i = 0; i < v.length; i++) {
                c[i] = (byte) ElementCodec.fromDouble(type, v[i]);
            }
            return c;
        }
    }

    /** {@return the accessor object of an array's element type, or null for types without one} */
    static Object accessorOf(Array a) {
        return switch (a.shape().elementType()) {
            case F32 -> a.floatAccessor();
            case F64 -> a.doubleAccessor();
            case S64 -> a.longAccessor();
            case S32 -> a.intAccessor();
            case S16 -> a.shortAccessor();
            case S8 -> a.byteAccessor();
            case U8 -> a.unsignedByteAccessor();
            case BF16 -> a.bfloat16Accessor();
            case F16 -> a.float16Accessor();
            case F8E5M2, F8E4M3, F8E4M3FN, F8E4M3B11FNUZ, F8E3M4, F8E5M2FNUZ, F8E4M3FNUZ, F8E8M0FNU -> a.float8Accessor();
            default -> null;
        };
    }

    /** Through Array's typed getter of the element type's Java type. */
    static double sumTyped(Array a) {
        return switch (a.shape().elementType()) {
            case F64 -> sumDouble(a);
            case S64 -> sumLong(a);
            case S32, S16, S8, U8 -> sumInt(a);
            default -> sum(a);
        };
    }

    static void writeTyped(Array a, float v) {
        switch (a.shape().elementType()) {
            case F64 -> writeDouble(a, v);
            case S64 -> writeLong(a, (long) v);
            case S32, S16, S8, U8 -> writeInt(a, (int) v & 63);
            default -> write(a, v);
        }
    }

    private static double sumDouble(Array a) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        double s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.getDouble(i, j);
            }
        }
        return s;
    }

    private static long sumLong(Array a) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.getLong(i, j);
            }
        }
        return s;
    }

    private static long sumInt(Array a) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.getInt(i, j);
            }
        }
        return s;
    }

    private static void writeDouble(Array a, double v) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.setDouble(i, j, v);
            }
        }
    }

    private static void writeLong(Array a, long v) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.setLong(i, j, v);
            }
        }
    }

    private static void writeInt(Array a, int v) {
        long rows = a.shape().dimension(0);
        long cols = a.shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.setInt(i, j, v);
            }
        }
    }

    /** Through the accessor class: one loop per class, chosen once a pass. */
    static double sumAccessor(Object x) {
        return switch (x) {
            case FloatAccessor a -> sum(a);
            case DoubleAccessor a -> sum(a);
            case LongAccessor a -> sum(a);
            case IntAccessor a -> sum(a);
            case ShortAccessor a -> sum(a);
            case ByteAccessor a -> sum(a);
            case UnsignedByteAccessor a -> sum(a);
            case BFloat16Accessor a -> sum(a);
            case Float16Accessor a -> sum(a);
            case Float8Accessor a -> sum(a);
            default -> throw new IllegalArgumentException(String.valueOf(x));
        };
    }

    static void writeAccessor(Object x, float v) {
        int c = (int) v & 63;
        switch (x) {
            case FloatAccessor a -> write(a, v);
            case DoubleAccessor a -> write(a, (double) v);
            case LongAccessor a -> write(a, (long) c);
            case IntAccessor a -> write(a, c);
            case ShortAccessor a -> write(a, (short) c);
            case ByteAccessor a -> write(a, (byte) c);
            case UnsignedByteAccessor a -> write(a, c);
            case BFloat16Accessor a -> write(a, v);
            case Float16Accessor a -> write(a, (float) c);
            case Float8Accessor a -> write(a, (float) c);
            default -> throw new IllegalArgumentException(String.valueOf(x));
        }
    }

    private static double sum(DoubleAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        double s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(DoubleAccessor a, double v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static long sum(LongAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(LongAccessor a, long v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static long sum(IntAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(IntAccessor a, int v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static long sum(ShortAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(ShortAccessor a, short v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static long sum(ByteAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(ByteAccessor a, byte v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static long sum(UnsignedByteAccessor a) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        long s = 0;
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                s += a.get(i, j);
            }
        }
        return s;
    }

    private static void write(UnsignedByteAccessor a, int v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static float sum(BFloat16Accessor a) {
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

    private static void write(BFloat16Accessor a, float v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static float sum(Float16Accessor a) {
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

    private static void write(Float16Accessor a, float v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    private static float sum(Float8Accessor a) {
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

    private static void write(Float8Accessor a, float v) {
        long rows = a.array().shape().dimension(0);
        long cols = a.array().shape().dimension(1);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                a.set(i, j, v);
            }
        }
    }

    /** The slot of {@code (i, j)} in a 1024×1024 Java array of {@link Typed#layout} 0, 1 or 2 ({@code T(8,128)}). */
    private static int at(int layout, int i, int j) {
        return layout == 0 ? i * N + j
                : layout == 1 ? j * N + i
                : ((i >> 3) * 8 + (j >> 7)) * 1024 + (i & 7) * 128 + (j & 127);
    }

    /** The hand loop over the Java array: read and decode every element in logical row-major order. */
    static double sumJava(Typed t) {
        int l = t.layout;
        switch (t.type) {
            case F32 -> {
                float[] a = (float[]) t.javaArray;
                float s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case F64 -> {
                double[] a = (double[]) t.javaArray;
                double s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case S64 -> {
                long[] a = (long[]) t.javaArray;
                long s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case S32 -> {
                int[] a = (int[]) t.javaArray;
                long s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case S16 -> {
                short[] a = (short[]) t.javaArray;
                long s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case BF16 -> {
                short[] a = (short[]) t.javaArray;
                float s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += Float.intBitsToFloat(a[at(l, i, j)] << 16);
                    }
                }
                return s;
            }
            case F16 -> {
                short[] a = (short[]) t.javaArray;
                float s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += Float16.toFloat(a[at(l, i, j)]);
                    }
                }
                return s;
            }
            case S8 -> {
                byte[] a = (byte[]) t.javaArray;
                long s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)];
                    }
                }
                return s;
            }
            case U8 -> {
                byte[] a = (byte[]) t.javaArray;
                long s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += a[at(l, i, j)] & 0xFF;
                    }
                }
                return s;
            }
            default -> {   // an 8-bit float: the code's value from a table, as the accessor reads it
                byte[] a = (byte[]) t.javaArray;
                float[] values = float8Values(t.type);
                float s = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        s += values[a[at(l, i, j)] & 0xFF];
                    }
                }
                return s;
            }
        }
    }

    /** {@return the value of each code 0..255 of an 8-bit float type, from the codec} */
    static float[] float8Values(ElementType type) {
        return FLOAT8_VALUES.get(type);
    }

    private static final java.util.Map<ElementType, float[]> FLOAT8_VALUES = new java.util.concurrent.ConcurrentHashMap<>();

    static {
        for (ElementType t : ElementType.values()) {
            if (t.isFloating() && t.bitWidth() == 8) {
                float[] v = new float[256];
                for (int c = 0; c < 256; c++) {
                    v[c] = ElementCodec.toFloat(t, c);
                }
                FLOAT8_VALUES.put(t, v);
            }
        }
    }

    /** The hand loop over the Java array: store one value's code at every element, in logical row-major order. */
    static void writeJava(Typed t, float v) {
        int l = t.layout;
        int c = (int) v & 63;
        switch (t.javaArray) {
            case float[] a -> {
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = v;
                    }
                }
            }
            case double[] a -> {
                double d = v;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = d;
                    }
                }
            }
            case long[] a -> {
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = c;
                    }
                }
            }
            case int[] a -> {
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = c;
                    }
                }
            }
            case short[] a -> {
                short code = t.type == ElementType.BF16 ? BFloat16.fromFloat(v)
                        : t.type == ElementType.F16 ? Float16.fromFloat(c) : (short) c;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = code;
                    }
                }
            }
            case byte[] a -> {
                byte code = t.type.isFloating() ? (byte) ElementCodec.fromFloat(t.type, c) : (byte) c;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        a[at(l, i, j)] = code;
                    }
                }
            }
            default -> throw new IllegalStateException(String.valueOf(t.javaArray));
        }
    }

    /** Array's typed getter of the element type's Java type (getFloat, getDouble, getLong or getInt). */
    @Benchmark
    public double typedGetter(Typed t) {
        return sumTyped(t.array);
    }

    /** Array's typed setter of the element type's Java type. */
    @Benchmark
    public void typedSetter(Typed t) {
        writeTyped(t.array, t.value++);
    }

    /** The element type's accessor class. */
    @Benchmark
    public double typedAccessor(Typed t) {
        return sumAccessor(t.accessor);
    }

    /** The element type's accessor class, writing. */
    @Benchmark
    public void typedAccessorWriter(Typed t) {
        writeAccessor(t.accessor, t.value++);
    }

    /** The hand loop over a Java array of the type's storage. */
    @Benchmark
    public double typedJavaArray(Typed t) {
        return sumJava(t);
    }

    /** The hand loop over a Java array of the type's storage, writing. */
    @Benchmark
    public void typedJavaArrayWriter(Typed t) {
        writeJava(t, t.value++);
    }
}
