package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.vector.bulk.EngineBulkCopier;
import dev.tegula.ffm.internal.BulkCopier;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * With module vector present, {@link Array}'s bulk methods run through the relayout engine: every
 * {@code to*Array} (new and into a caller's array at an offset) and {@code copyFrom} (whole and from an
 * offset) and {@code toRowMajor}, on layouts with tiles and padding, transposed, legacy padded, packed
 * sub-byte, rank 0, empty, and on strided views, computes what the element accessors compute one by one
 * (the oracle), bit for bit, and leaves the rest of a caller's array and of a view's parent untouched.
 */
class ArrayBulkEngineTest {
    /** Element types, layouts and views; each entry makes a fresh array (or view) in an arena. */
    private static final List<String> SHAPES = List.of(
            "f32[37,45]{1,0}", "f32[37,45]{0,1}", "f32[20,300]{1,0:T(8,128)}", "bf16[20,300]{1,0:T(8,128)(2,1)}",
            "bf16[33,17]{1,0}", "f16[3,4,5]{0,2,1}", "f64[6,7]{0,1}", "f64[9,130]{1,0:T(8,128)}",
            "s8[9,33]{0,1}", "u8[9,140]{1,0:T(8,128)}", "s16[10,11]{0,1}", "u16[10,11]{1,0:T(2,2)}",
            "s32[5,6]{0,1}", "u32[5,6]{0,1}", "s64[4,5]{0,1}", "u64[4,5]{0,1}", "s4[5,260]{1,0:T(2,128)E(4)}",
            "u4[3,5]{0,1:E(4)}", "s4[6,9]{0,1}", "f8e4m3fn[9,17]{0,1}", "f8e5m2[4,40]{1,0}", "f4e2m1fn[6,8]{0,1}",
            "pred[5,6]{0,1}", "c64[3,4]{0,1}", "f32[2,3]{0,1:PAD(3,5:zero)}", "f32[]", "f32[0,5]{1,0}",
            "slice f32[40,50]{1,0}", "slice bf16[40,50]{0,1}", "permute s16[12,7]{1,0}", "select f32[6,8,10]{2,1,0}",
            "rows f32[16,24]{1,0}");

    private static Array make(Arena arena, String spec) {
        String[] parts = spec.split(" ");
        if (parts.length == 1) {
            return Array.allocate(arena, ArrayShape.parse(spec));
        }
        Array parent = Array.allocate(arena, ArrayShape.parse(parts[1]));
        return switch (parts[0]) {
            case "slice" -> parent.slice(1, 3, 47, 2).slice(0, 1, 40, 3);
            case "permute" -> parent.permute(1, 0);
            case "select" -> parent.select(1, 5).permute(1, 0);
            case "rows" -> parent.slice(0, 4, 11);
            default -> throw new IllegalArgumentException(spec);
        };
    }

    /** Random stored bits in every element: NaNs, infinities, subnormals and every integer pattern included. */
    private static void randomCodes(Array a, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        forEachIndex(a, i -> {
            if (a.shape().elementType().isComplex()) {
                a.setComplex(i, r.nextDouble(-9, 9), r.nextDouble(-9, 9));
            } else {
                a.setRawBits(i, r.nextLong());
            }
        });
    }

    private static void forEachIndex(Array a, java.util.function.Consumer<long[]> visit) {
        long[] dims = a.shape().dimensions();
        long n = Arrays.stream(dims).reduce(1, (x, y) -> x * y);
        long[] idx = new long[dims.length];
        for (long o = 0; o < n; o++) {
            visit.accept(idx.clone());
            for (int d = dims.length - 1; d >= 0 && ++idx[d] == dims[d]; d--) {
                idx[d] = 0;
            }
        }
    }

    /** One Java array type: the bulk read (into an array at an offset), the element read, the bulk and element writes. */
    private record Kind(String name, Function<Integer, Object> make, Reader bulkRead, Function<Array, Object> newRead,
                        ElementRead elementRead, Writer bulkWrite, ElementWrite elementWrite, ValueSource values) {
    }

    private interface Reader { void read(Array a, Object dst, int offset); }
    private interface ElementRead { void read(Array a, long[] index, Object dst, int at); }
    private interface Writer { void write(Array a, Object src, int offset); }
    private interface ElementWrite { void write(Array a, long[] index, Object src, int at); }
    private interface ValueSource { void fill(Object values, SplittableRandom r); }

    private static final float[] SPECIAL_FLOATS = {Float.NaN, Float.intBitsToFloat(0x7fc12345), Float.intBitsToFloat(0xffa00001),
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, Float.MIN_VALUE, 1e-40f, 3.4e38f, 65520f, 65504f,
        448f, 464f, 1.00390625f, 1.01171875f, -2.5f, 6f, 7f};

    private static float randomFloat(SplittableRandom r) {
        return switch (r.nextInt(3)) {
            case 0 -> SPECIAL_FLOATS[r.nextInt(SPECIAL_FLOATS.length)];
            case 1 -> Float.intBitsToFloat(r.nextInt());
            default -> (float) r.nextDouble(-600, 600);
        };
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("float", float[]::new, (a, d, o) -> a.toFloatArray((float[]) d, o), Array::toFloatArray,
                    (a, i, d, at) -> ((float[]) d)[at] = a.getFloat(i), (a, s, o) -> a.copyFrom((float[]) s, o),
                    (a, i, s, at) -> a.setFloat(i, ((float[]) s)[at]),
                    (v, r) -> { float[] f = (float[]) v; for (int k = 0; k < f.length; k++) f[k] = randomFloat(r); }),
            new Kind("double", double[]::new, (a, d, o) -> a.toDoubleArray((double[]) d, o), Array::toDoubleArray,
                    (a, i, d, at) -> ((double[]) d)[at] = a.getDouble(i), (a, s, o) -> a.copyFrom((double[]) s, o),
                    (a, i, s, at) -> a.setDouble(i, ((double[]) s)[at]),
                    (v, r) -> { double[] f = (double[]) v; for (int k = 0; k < f.length; k++) f[k] = r.nextBoolean()
                            ? randomFloat(r) + r.nextDouble() * 1e-9 : Double.longBitsToDouble(r.nextLong()); }),
            new Kind("long", long[]::new, (a, d, o) -> a.toLongArray((long[]) d, o), Array::toLongArray,
                    (a, i, d, at) -> ((long[]) d)[at] = a.getLong(i), (a, s, o) -> a.copyFrom((long[]) s, o),
                    (a, i, s, at) -> a.setLong(i, ((long[]) s)[at]),
                    (v, r) -> { long[] f = (long[]) v; for (int k = 0; k < f.length; k++) f[k] = r.nextLong(); }),
            new Kind("int", int[]::new, (a, d, o) -> a.toIntArray((int[]) d, o), Array::toIntArray,
                    (a, i, d, at) -> ((int[]) d)[at] = a.getInt(i), (a, s, o) -> a.copyFrom((int[]) s, o),
                    (a, i, s, at) -> a.setInt(i, ((int[]) s)[at]),
                    (v, r) -> { int[] f = (int[]) v; for (int k = 0; k < f.length; k++) f[k] = r.nextInt(); }),
            new Kind("short", short[]::new, (a, d, o) -> a.toShortArray((short[]) d, o), Array::toShortArray,
                    (a, i, d, at) -> ((short[]) d)[at] = (short) a.getLong(i), (a, s, o) -> a.copyFrom((short[]) s, o),
                    (a, i, s, at) -> a.setLong(i, ((short[]) s)[at]),
                    (v, r) -> { short[] f = (short[]) v; for (int k = 0; k < f.length; k++) f[k] = (short) r.nextInt(); }),
            new Kind("byte", byte[]::new, (a, d, o) -> a.toByteArray((byte[]) d, o), Array::toByteArray,
                    (a, i, d, at) -> ((byte[]) d)[at] = (byte) a.getLong(i), (a, s, o) -> a.copyFrom((byte[]) s, o),
                    (a, i, s, at) -> a.setLong(i, ((byte[]) s)[at]),
                    (v, r) -> { byte[] f = (byte[]) v; for (int k = 0; k < f.length; k++) f[k] = (byte) r.nextInt(); }),
            new Kind("boolean", boolean[]::new, (a, d, o) -> a.toBooleanArray((boolean[]) d, o), Array::toBooleanArray,
                    (a, i, d, at) -> ((boolean[]) d)[at] = a.getBoolean(i), (a, s, o) -> a.copyFrom((boolean[]) s, o),
                    (a, i, s, at) -> a.setBoolean(i, ((boolean[]) s)[at]),
                    (v, r) -> { boolean[] f = (boolean[]) v; for (int k = 0; k < f.length; k++) f[k] = r.nextBoolean(); }));

    static Stream<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (String s : SHAPES) {
            for (Kind k : KINDS) {
                out.add(new Object[] {s, k.name()});
            }
        }
        return out.stream();
    }

    private static Kind kind(String name) {
        return KINDS.stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
    }

    private static int count(Array a) {
        return (int) Arrays.stream(a.shape().dimensions()).reduce(1, (x, y) -> x * y);
    }

    /**
     * Java arrays compared with their bits (NaN payloads and the sign of zero count), except that a
     * signalling NaN may come back quiet: the engine's widening conversions go through {@code double}.
     */
    private static void assertSameBits(Object expected, Object actual, String what) {
        if (expected instanceof float[] e) {
            int[] eb = new int[e.length], ab = new int[e.length];
            for (int k = 0; k < e.length; k++) {
                eb[k] = quiet(Float.floatToRawIntBits(e[k]));
                ab[k] = quiet(Float.floatToRawIntBits(((float[]) actual)[k]));
            }
            assertArrayEquals(eb, ab, what);
        } else if (expected instanceof double[] e) {
            long[] eb = new long[e.length], ab = new long[e.length];
            for (int k = 0; k < e.length; k++) {
                eb[k] = quiet(Double.doubleToRawLongBits(e[k]));
                ab[k] = quiet(Double.doubleToRawLongBits(((double[]) actual)[k]));
            }
            assertArrayEquals(eb, ab, what);
        } else {
            assertTrue(Arrays.deepEquals(new Object[] {expected}, new Object[] {actual}),
                    what + ": expected " + Arrays.deepToString(new Object[] {expected}) + " got "
                            + Arrays.deepToString(new Object[] {actual}));
        }
    }

    private static int quiet(int bits) {
        return Float.isNaN(Float.intBitsToFloat(bits)) ? bits | 0x0040_0000 : bits;
    }

    private static long quiet(long bits) {
        return Double.isNaN(Double.longBitsToDouble(bits)) ? bits | 0x0008_0000_0000_0000L : bits;
    }

    @Test
    void theEngineIsTheInstalledBulkCopier() {
        assertInstanceOf(EngineBulkCopier.class, BulkCopier.installed());
    }

    @ParameterizedTest(name = "{0} as {1}[]")
    @MethodSource("cases")
    void bulkReadsMatchTheElementAccessors(String spec, String kindName) {
        Kind k = kind(kindName);
        try (Arena arena = Arena.ofConfined()) {
            Array a = make(arena, spec);
            randomCodes(a, spec.hashCode() * 31L + kindName.hashCode());
            int n = count(a);
            Object expected = k.make().apply(n);
            int[] at = {0};
            forEachIndex(a, i -> k.elementRead().read(a, i, expected, at[0]++));
            assertSameBits(expected, k.newRead().apply(a), spec + " new " + kindName + "[]");

            Object dst = k.make().apply(n + 7);
            Object sentinel = k.make().apply(n + 7);
            k.values().fill(dst, new SplittableRandom(5));
            k.values().fill(sentinel, new SplittableRandom(5));
            k.bulkRead().read(a, dst, 3);
            Object middle = k.make().apply(n);
            System.arraycopy(dst, 3, middle, 0, n);
            assertSameBits(expected, middle, spec + " into " + kindName + "[] at 3");
            System.arraycopy(sentinel, 3, dst, 3, n);                     // the rest must be untouched
            assertSameBits(sentinel, dst, spec + " outside the range");
        }
    }

    @ParameterizedTest(name = "{0} from {1}[]")
    @MethodSource("cases")
    void bulkWritesMatchTheElementAccessors(String spec, String kindName) {
        Kind k = kind(kindName);
        try (Arena arena = Arena.ofConfined()) {
            Array bulk = make(arena, spec);
            Array oracle = make(arena, spec);
            int n = count(bulk);
            Object src = k.make().apply(n + 5);
            k.values().fill(src, new SplittableRandom(spec.hashCode() ^ kindName.hashCode()));
            k.bulkWrite().write(bulk, src, 2);
            int[] at = {2};
            forEachIndex(oracle, i -> k.elementWrite().write(oracle, i, src, at[0]++));
            assertTrue(oracle.contentEquals(bulk), spec + " from " + kindName + "[]: " + bulk + " vs " + oracle);
            assertTrue(Array.wrap(oracle.segment(), parentShape(oracle)).contentEquals(Array.wrap(bulk.segment(),
                    parentShape(bulk))), spec + ": memory around a view changed");
        }
    }

    /** The whole segment as bytes, for comparing what a view's parent holds. */
    private static ArrayShape parentShape(Array a) {
        return ArrayShape.of(ElementType.U8, a.segment().byteSize());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void toRowMajorCopiesThroughTheEngineOrReturnsThis(String spec) {
        try (Arena arena = Arena.ofConfined()) {
            Array a = make(arena, spec);
            randomCodes(a, spec.hashCode());
            Array rm = a.toRowMajor(arena);
            assertTrue(rm.isDenseIn(Layout.rowMajor(a.shape().rank())), spec);
            assertTrue(a.contentEquals(rm), spec);
            if (a.isDenseIn(Layout.rowMajor(a.shape().rank()))) {
                assertSame(a, rm, spec);
            }
            assertEquals(a.shape().elementType(), rm.shape().elementType());
        }
    }

    static Stream<String> shapes() {
        return SHAPES.stream();
    }
}
