package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.code;
import static dev.tegula.ffm.TestArrays.forEachIndex;
import static dev.tegula.ffm.TestArrays.rawAt;
import static dev.tegula.ffm.TestArrays.shape;
import static dev.tegula.ffm.TestArrays.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The assertions every kind of {@link Array} must pass, over every layout family. A subclass
 * supplies the kind: {@link #create} and, for views, where an element really lives.
 */
abstract class ArrayContract {
    protected Arena arena;

    @BeforeEach
    void openArena() {
        arena = Arena.ofShared();
    }

    @AfterEach
    void closeArena() {
        arena.close();
    }

    /** {@return a zeroed array of {@code shape} of this kind, living in {@link #arena}} */
    protected abstract Array create(ArrayShape shape) throws Exception;

    /** {@return the memory where the element at {@code index} of {@code a} lives} */
    protected MemorySegment rawMemory(Array a) {
        return a.segment();
    }

    /** {@return the slot of {@link #rawMemory} that holds the element at {@code index}} */
    protected long rawSlot(Array a, long[] index) {
        return a.shape().linearIndex(index);
    }

    static Stream<String> families() {
        return TestArrays.FAMILIES.stream();
    }

    static Stream<String> typedShapes() {
        return Arrays.stream(ElementType.values()).filter(ElementType::isArrayType).flatMap(t -> {
            String n = t.hloName();
            Stream<String> s = Stream.of(n + "[3,5]{1,0}", n + "[3,5]{0,1:T(2,2)}", n + "[2,3,4]{0,2,1}");
            return t.bitWidth() < 8 ? Stream.concat(s, Stream.of(n + "[3,5]{1,0:E(" + t.bitWidth() + ")}")) : s;
        });
    }

    @ParameterizedTest
    @MethodSource("families")
    void everyElementLandsAtItsLinearIndex(String text) throws Exception {
        ArrayShape s = shape(text);
        Array a = create(s);
        long bits = s.slotBits();
        forEachIndex(s.dimensions(), (o, idx) -> a.setRawBits(idx, code(o, bits)));
        forEachIndex(s.dimensions(), (o, idx) -> {
            assertEquals(code(o, bits), rawAt(rawMemory(a), rawSlot(a, idx), bits), () -> Arrays.toString(idx));
            assertEquals(code(o, bits), a.getRawBits(idx));
        });
    }

    @ParameterizedTest
    @MethodSource("families")
    void rankSpecialisedAccessorsAgreeWithMultiIndex(String text) throws Exception {
        ArrayShape s = shape(text);
        Array a = create(s);
        double[] v = values(s.elementType());
        forEachIndex(s.dimensions(), (o, idx) -> set(a, idx, v[(int) (o % v.length)]));
        forEachIndex(s.dimensions(), (o, idx) -> {
            double expect = v[(int) (o % v.length)];
            assertEquals(expect, a.getDouble(idx));
            assertEquals(expect, get(a, idx));
            assertEquals((float) expect, a.getFloat(idx));
            assertEquals((long) expect, a.getLong(idx));
            assertEquals(expect != 0, a.getBoolean(idx));
        });
    }

    @ParameterizedTest
    @MethodSource("typedShapes")
    void everyElementTypeRoundTrips(String text) throws Exception {
        ArrayShape s = shape(text);
        ElementType t = s.elementType();
        Array a = create(s);
        double[] v = values(t);
        forEachIndex(s.dimensions(), (o, idx) -> {
            double x = v[(int) (o % v.length)];
            if (t.isComplex()) {
                a.setComplex(idx, x, -x);
            } else if (t == ElementType.PRED) {
                a.setBoolean(idx, x != 0);
            } else if (t.isIntegral()) {
                a.setLong(idx, t == ElementType.U64 && x == 0x1p63 ? Long.MIN_VALUE : (long) x);
            } else {
                a.setDouble(idx, x);
            }
        });
        forEachIndex(s.dimensions(), (o, idx) -> {
            double x = v[(int) (o % v.length)];
            if (t.isComplex()) {
                assertEquals(x, a.getReal(idx));
                assertEquals(-x, a.getImaginary(idx));
            } else if (t == ElementType.U64 && x == 0x1p63) {
                assertEquals(Long.MIN_VALUE, a.getLong(idx));   // raw pattern
                assertEquals(0x1p63, a.getDouble(idx));           // unsigned value
            } else {
                assertEquals(x, a.getDouble(idx), () -> t + " " + Arrays.toString(idx));
                assertEquals(x != 0, a.getBoolean(idx));
            }
            if (t != ElementType.C128) {
                long bits = s.slotBits();
                assertEquals(a.getRawBits(idx), rawAt(rawMemory(a), rawSlot(a, idx), bits));
            }
        });
    }

    @ParameterizedTest
    @MethodSource("families")
    void copiesFromAndToJavaArraysInRowMajorOrder(String text) throws Exception {
        ArrayShape s = shape(text);
        Array a = create(s);
        int n = (int) s.elementCount();
        double[] v = values(s.elementType());
        double[] d = new double[n];
        for (int o = 0; o < n; o++) {
            d[o] = v[o % v.length];
        }
        a.copyFrom(d);
        assertArrayEquals(d, a.toDoubleArray());
        forEachIndex(s.dimensions(), (o, idx) -> assertEquals(d[(int) (long) o], a.getDouble(idx)));
        float[] f = new float[n];
        long[] l = new long[n];
        int[] i = new int[n];
        for (int o = 0; o < n; o++) {
            f[o] = (float) d[n - 1 - o];
            l[o] = (long) d[o];
            i[o] = (int) d[n - 1 - o];
        }
        a.copyFrom(f);
        assertArrayEquals(f, a.toFloatArray());
        a.copyFrom(l);
        assertArrayEquals(l, a.toLongArray());
        a.copyFrom(i);
        assertArrayEquals(i, a.toIntArray());
        boolean[] b = new boolean[n];
        for (int o = 0; o < n; o++) {
            b[o] = o % 3 == 0;
        }
        a.copyFrom(b);
        assertArrayEquals(b, a.toBooleanArray());
    }

    @ParameterizedTest
    @MethodSource("families")
    void fillSetsEveryElement(String text) throws Exception {
        ArrayShape s = shape(text);
        Array a = create(s);
        a.fill(1.0);
        forEachIndex(s.dimensions(), (o, idx) -> assertEquals(1.0, a.getDouble(idx)));
        a.fill(0L);
        forEachIndex(s.dimensions(), (o, idx) -> assertEquals(0L, a.getLong(idx)));
        a.fill(true);
        forEachIndex(s.dimensions(), (o, idx) -> assertTrue(a.getBoolean(idx)));
    }

    @ParameterizedTest
    @MethodSource("families")
    void contentEqualsWhateverTheLayouts(String text) throws Exception {
        ArrayShape s = shape(text);
        Array a = create(s);
        Array rowMajor = Array.allocate(arena, s.withDefaultLayout().withLayout(
                dev.tegula.core.Layout.rowMajor(s.rank()).withElementSizeInBits(s.layout().elementSizeInBits())));
        long bits = s.slotBits();
        forEachIndex(s.dimensions(), (o, idx) -> {
            a.setRawBits(idx, code(o, bits));
            rowMajor.setRawBits(idx, code(o, bits));
        });
        assertTrue(a.contentEquals(rowMajor));
        assertTrue(rowMajor.contentEquals(a));
        assertEquals(a.toString().lines().skip(1).toList(), rowMajor.toString().lines().skip(1).toList());
        assertTrue(a.toString().startsWith(a.shape().toString()));
        assertEquals(s.dimensions().length, a.shape().rank());
        if (s.elementCount() > 0) {
            long[] last = s.dimensions();
            for (int d = 0; d < last.length; d++) {
                last[d]--;
            }
            rowMajor.setRawBits(last, ~a.getRawBits(last));
            assertFalse(a.contentEquals(rowMajor));
        }
    }

    // ---- rank-specialised dispatch -------------------------------------------------------------

    /** Writes {@code v} through every setter that represents it exactly, rank-specialised where the rank allows. */
    static void set(Array a, long[] i, double v) {
        setDouble(a, i, v);
        if ((float) v == v) {
            switch (i.length) {
                case 1 -> a.setFloat(i[0], (float) v);
                case 2 -> a.setFloat(i[0], i[1], (float) v);
                case 3 -> a.setFloat(i[0], i[1], i[2], (float) v);
                case 4 -> a.setFloat(i[0], i[1], i[2], i[3], (float) v);
                default -> a.setFloat(i, (float) v);
            }
        }
        if (v == (long) v) {
            long l = (long) v;
            switch (i.length) {
                case 1 -> a.setLong(i[0], l);
                case 2 -> a.setLong(i[0], i[1], l);
                case 3 -> a.setLong(i[0], i[1], i[2], l);
                case 4 -> a.setLong(i[0], i[1], i[2], i[3], l);
                default -> a.setLong(i, l);
            }
        }
        if (v == (int) v) {
            int n = (int) v;
            switch (i.length) {
                case 1 -> a.setInt(i[0], n);
                case 2 -> a.setInt(i[0], i[1], n);
                case 3 -> a.setInt(i[0], i[1], i[2], n);
                case 4 -> a.setInt(i[0], i[1], i[2], i[3], n);
                default -> a.setInt(i, n);
            }
        }
        if (v == 0 || v == 1) {
            boolean b = v == 1;
            switch (i.length) {
                case 1 -> a.setBoolean(i[0], b);
                case 2 -> a.setBoolean(i[0], i[1], b);
                case 3 -> a.setBoolean(i[0], i[1], i[2], b);
                case 4 -> a.setBoolean(i[0], i[1], i[2], i[3], b);
                default -> a.setBoolean(i, b);
            }
        }
    }

    private static void setDouble(Array a, long[] i, double v) {
        switch (i.length) {
            case 1 -> a.setDouble(i[0], v);
            case 2 -> a.setDouble(i[0], i[1], v);
            case 3 -> a.setDouble(i[0], i[1], i[2], v);
            case 4 -> a.setDouble(i[0], i[1], i[2], i[3], v);
            default -> a.setDouble(i, v);
        }
    }

    /** Reads through every rank-specialised getter and checks they agree with each other. */
    static double get(Array a, long[] i) {
        boolean integral = !a.shape().elementType().isFloating();
        return switch (i.length) {
            case 1 -> check(integral, a.getDouble(i[0]), a.getFloat(i[0]), a.getLong(i[0]), a.getInt(i[0]),
                    a.getBoolean(i[0]));
            case 2 -> check(integral, a.getDouble(i[0], i[1]), a.getFloat(i[0], i[1]), a.getLong(i[0], i[1]),
                    a.getInt(i[0], i[1]), a.getBoolean(i[0], i[1]));
            case 3 -> check(integral, a.getDouble(i[0], i[1], i[2]), a.getFloat(i[0], i[1], i[2]),
                    a.getLong(i[0], i[1], i[2]), a.getInt(i[0], i[1], i[2]), a.getBoolean(i[0], i[1], i[2]));
            case 4 -> check(integral, a.getDouble(i[0], i[1], i[2], i[3]), a.getFloat(i[0], i[1], i[2], i[3]),
                    a.getLong(i[0], i[1], i[2], i[3]), a.getInt(i[0], i[1], i[2], i[3]),
                    a.getBoolean(i[0], i[1], i[2], i[3]));
            default -> check(integral, a.getDouble(i), a.getFloat(i), a.getLong(i), a.getInt(i), a.getBoolean(i));
        };
    }

    private static double check(boolean integral, double d, float f, long l, int i, boolean b) {
        assertEquals((float) d, f);
        assertEquals((long) d, l);
        assertEquals(integral ? (int) l : (int) d, i);
        assertEquals(d != 0, b);
        return d;
    }
}
