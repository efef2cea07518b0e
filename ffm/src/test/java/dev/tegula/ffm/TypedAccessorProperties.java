package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.BFloat16;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.codec.Float16;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * Every typed accessor ({@link FloatAccessor}, {@link DoubleAccessor}, ..., {@link Float8Accessor})
 * reads and writes the slot that the layout defines for each index: core's
 * {@link ArrayShape#linearIndex} of the allocated parent (row-major, column-major, permuted, legacy
 * padded, tiled {@code T(8,128)}, {@code T(8,128)(2,1)}, {@code T(2,1)}, random power-of-two tiles),
 * or the caller's strides for a {@link Array#wrapStrided} array, followed through views (permute,
 * slice with steps, select). The test writes codes into raw memory at those slots and reads them
 * back through the accessor, then writes values through the accessor and reads the raw codes; the
 * expected values come from the codecs, not from the accessors' tables.
 */
class TypedAccessorProperties {

    /** One accessor class: how to get it from an array, and its values' codec. */
    record Kind(String name, Class<?> accessor, Class<?> value, List<ElementType> types,
                Function<Array, Object> factory) {
    }

    static final List<ElementType> FLOAT8 = Arrays.stream(ElementType.values())
            .filter(t -> t.isFloating() && t.bitWidth() == 8).toList();

    static final List<Kind> KINDS = List.of(
            new Kind("f64", DoubleAccessor.class, double.class, List.of(ElementType.F64), Array::doubleAccessor),
            new Kind("f32", FloatAccessor.class, float.class, List.of(ElementType.F32), Array::floatAccessor),
            new Kind("s64", LongAccessor.class, long.class, List.of(ElementType.S64), Array::longAccessor),
            new Kind("s32", IntAccessor.class, int.class, List.of(ElementType.S32), Array::intAccessor),
            new Kind("s16", ShortAccessor.class, short.class, List.of(ElementType.S16), Array::shortAccessor),
            new Kind("s8", ByteAccessor.class, byte.class, List.of(ElementType.S8), Array::byteAccessor),
            new Kind("u8", UnsignedByteAccessor.class, int.class, List.of(ElementType.U8), Array::unsignedByteAccessor),
            new Kind("bf16", BFloat16Accessor.class, float.class, List.of(ElementType.BF16), Array::bfloat16Accessor),
            new Kind("f16", Float16Accessor.class, float.class, List.of(ElementType.F16), Array::float16Accessor),
            new Kind("fp8", Float8Accessor.class, float.class, FLOAT8, Array::float8Accessor));

    // ---- the reference: slots the layouts define ---------------------------------------------------

    /** An array under test, the segment its slots are counted in, and each of its indices' slot there. */
    record Case(Array view, MemorySegment base, Function<long[], Long> slot, String how) {
    }

    @Property(tries = 250)
    void everyAccessorUsesTheSlotsTheLayoutDefines(@ForAll @IntRange(max = 9) int kindIndex,
                                                   @ForAll @LongRange(max = 1L << 40) long seed) {
        Kind kind = KINDS.get(kindIndex);
        Random r = new Random(seed);
        ElementType type = kind.types().get(r.nextInt(kind.types().size()));
        try (Arena arena = Arena.ofConfined()) {
            Case c = randomCase(r, arena, type);
            Array v = c.view();
            String what = kind.name() + " " + type + " " + c.how() + " -> " + v.shape();
            Object x = kind.factory().apply(v);
            assertSame(x, kind.factory().apply(v), "one accessor per array: " + what);
            long[] dims = v.shape().dimensions();
            int rank = dims.length;
            MethodHandle get = getter(kind, rank);
            MethodHandle set = setter(kind, rank);
            long bytes = type.byteWidth();
            // raw codes at the layout's slots, read through the accessor
            TestArrays.forEachIndex(dims, (o, idx) -> writeRaw(c.base(), c.slot().apply(idx) * bytes, bytes,
                    TestArrays.code(o, bytes * 8)));
            TestArrays.forEachIndex(dims, (o, idx) -> {
                long code = TestArrays.code(o, bytes * 8);
                Object got = invoke(get, x, idx, null);
                assertEquals(bits(decode(type, code)), bits(got), what + " read at " + Arrays.toString(idx));
            });
            // values through the accessor, read as raw codes at the layout's slots
            TestArrays.forEachIndex(dims, (o, idx) -> invoke(set, x, idx, valueFor(kind, type, o)));
            TestArrays.forEachIndex(dims, (o, idx) -> {
                long raw = readRaw(c.base(), c.slot().apply(idx) * bytes, bytes);
                assertEquals(encode(type, valueFor(kind, type, o)), raw, what + " written at " + Arrays.toString(idx));
            });
            // and the typed getters of Array agree with the accessor
            TestArrays.forEachIndex(dims, (o, idx) -> assertEquals(v.getDouble(idx),
                    ((Number) invoke(get, x, idx, null)).doubleValue(), what + " getDouble at " + Arrays.toString(idx)));
            long[] out = dims.clone();
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> invoke(get, x, out, null));
            assertTrue(e.getMessage().contains(Arrays.toString(out)), e.getMessage());
        }
    }

    /**
     * A parent of a random layout family, allocated (its slots by {@code linearIndex}) or wrapped with
     * strides (its slots by those strides), then up to two random views, each followed to the parent.
     */
    static Case randomCase(Random r, Arena arena, ElementType type) {
        int rank = 1 + r.nextInt(4);
        long[] dims = new long[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = 1 + r.nextInt(rank > 2 ? 6 : 17);
        }
        String t = type.hloName();
        String ds = Arrays.stream(dims).mapToObj(Long::toString).collect(Collectors.joining(","));
        String rowMajor = order(reversed(rank));
        int family = r.nextInt(9);
        Array parent;
        MemorySegment base;
        Function<long[], Long> slot;
        String how;
        if (family == 8) {   // strided: the caller's strides and offset define the slots
            // strides in a random order, each at least the reach of the ones inside it (no two
            // indices share a slot), with random gaps
            long[] strides = new long[rank];
            long reach = 0;
            long step = 1 + r.nextInt(3);
            for (int d : shuffled(r, rank)) {
                strides[d] = step;
                reach += (dims[d] - 1) * step;
                step = step * dims[d] + r.nextInt(3);
            }
            long offset = r.nextInt(5);
            base = arena.allocate((offset + reach + 1) * type.byteWidth());
            parent = Array.wrapStrided(base, ArrayShape.parse(t + "[" + ds + "]{" + rowMajor + "}"), offset, strides, null);
            slot = idx -> {
                long s = offset;
                for (int d = 0; d < idx.length; d++) {
                    s += idx[d] * strides[d];
                }
                return s;
            };
            how = "wrapStrided(" + offset + ", " + Arrays.toString(strides) + ")";
        } else {
            String layout = switch (family) {
                case 0 -> rowMajor;
                case 1 -> order(identity(rank));
                case 2 -> order(shuffled(r, rank));
                case 3 -> rowMajor + ":PAD(" + Arrays.stream(dims).mapToObj(n -> Long.toString(n + r.nextInt(3)))
                        .collect(Collectors.joining(",")) + ":zero)";
                case 4 -> rank < 2 ? rowMajor + ":T(128)" : rowMajor + ":T(8,128)";
                case 5 -> rank < 2 ? rowMajor + ":T(256)(2)" : rowMajor + ":T(8,128)(2,1)";
                case 6 -> rank < 2 ? rowMajor + ":T(2)" : rowMajor + ":T(2,1)";
                default -> {
                    int tr = 1 + r.nextInt(rank);
                    List<String> tile = new ArrayList<>();
                    for (int k = 0; k < tr; k++) {
                        tile.add(Integer.toString(1 << r.nextInt(4)));
                    }
                    yield order(shuffled(r, rank)) + ":T(" + String.join(",", tile) + ")" + (r.nextInt(3) == 0 ? "(2,1)" : "");
                }
            };
            ArrayShape shape = ArrayShape.parse(t + "[" + ds + "]{" + layout + "}");
            parent = Array.allocate(arena, shape);
            base = parent.segment();
            slot = shape::linearIndex;
            how = shape.toString();
        }
        // views: each maps the view's index to its parent's
        Array v = parent;
        UnaryOperator<long[]> toParent = UnaryOperator.identity();
        for (int n = r.nextInt(3); n > 0; n--) {
            int vr = v.shape().rank();
            long[] vd = v.shape().dimensions();
            int op = r.nextInt(3);
            try {
                if (op == 0) {
                    int[] perm = shuffled(r, vr);
                    Array next = v.permute(perm);
                    UnaryOperator<long[]> inner = toParent;
                    toParent = idx -> {
                        long[] p = new long[idx.length];
                        for (int k = 0; k < idx.length; k++) {
                            p[perm[k]] = idx[k];
                        }
                        return inner.apply(p);
                    };
                    v = next;
                    how += " permute" + Arrays.toString(perm);
                } else if (op == 1) {
                    int dim = r.nextInt(vr);
                    long start = r.nextInt((int) vd[dim]);
                    long step = 1 + r.nextInt(2);
                    long end = start + 1 + r.nextInt((int) (vd[dim] - start));
                    Array next = v.slice(dim, start, end, step);
                    UnaryOperator<long[]> inner = toParent;
                    toParent = idx -> {
                        long[] p = idx.clone();
                        p[dim] = start + idx[dim] * step;
                        return inner.apply(p);
                    };
                    v = next;
                    how += " slice(" + dim + ", " + start + ", " + end + ", " + step + ")";
                } else if (vr > 1) {
                    int dim = r.nextInt(vr);
                    long at = r.nextInt((int) vd[dim]);
                    Array next = v.select(dim, at);
                    UnaryOperator<long[]> inner = toParent;
                    toParent = idx -> {
                        long[] p = new long[idx.length + 1];
                        for (int k = 0, q = 0; k < p.length; k++) {
                            p[k] = k == dim ? at : idx[q++];
                        }
                        return inner.apply(p);
                    };
                    v = next;
                    how += " select(" + dim + ", " + at + ")";
                }
            } catch (IllegalArgumentException notTileAligned) {
                // a tiled view that does not keep whole tiles: no such view, the array stays as it was
            }
        }
        UnaryOperator<long[]> map = toParent;
        Function<long[], Long> parentSlot = slot;
        return new Case(v, base, idx -> parentSlot.apply(map.apply(idx.clone())), how);
    }

    // ---- values and codes ----------------------------------------------------------------------------

    /** {@return the value the accessor of {@code type} should read for {@code code}, from the codecs} */
    static Object decode(ElementType type, long code) {
        return switch (type) {
            case F64 -> Double.longBitsToDouble(code);
            case F32 -> Float.intBitsToFloat((int) code);
            case S64 -> code;
            case S32 -> (int) code;
            case S16 -> (short) code;
            case S8 -> (byte) code;
            case U8 -> (int) code;
            case BF16 -> BFloat16.toFloat((short) code);
            case F16 -> Float16.toFloat((short) code);
            default -> ElementCodec.toFloat(type, code);
        };
    }

    /** {@return the code that writing {@code value} should store, from the codecs} */
    static long encode(ElementType type, Object value) {
        return switch (type) {
            case F64 -> Double.doubleToRawLongBits((Double) value);
            case F32 -> Float.floatToRawIntBits((Float) value) & 0xFFFF_FFFFL;
            case S64 -> (Long) value;
            case S32 -> (Integer) value & 0xFFFF_FFFFL;
            case S16 -> (Short) value & 0xFFFFL;
            case S8 -> (Byte) value & 0xFFL;
            case U8 -> (Integer) value & 0xFFL;
            case BF16 -> BFloat16.fromFloat((Float) value) & 0xFFFFL;
            case F16 -> Float16.fromFloat((Float) value) & 0xFFFFL;
            default -> ElementCodec.fromFloat(type, (Float) value) & 0xFF;
        };
    }

    /**
     * {@return a value for element {@code o} to write}: a decoded code other than the one read
     * before, and for the narrow floats sometimes a float between two codes (rounded on the write);
     * for u8, sometimes outside 0..255 (the low 8 bits are kept).
     */
    static Object valueFor(Kind kind, ElementType type, long o) {
        long bytes = type.byteWidth();
        Object v = decode(type, TestArrays.code(o + 1_000_003, bytes * 8));
        if (v instanceof Float f && type != ElementType.F32 && (o & 1) == 1 && !Float.isNaN(f)) {
            return f * 1.0625f + 0.001f;
        }
        if (type == ElementType.U8 && (o & 1) == 1) {
            return (Integer) v - 256 * (int) (1 + o % 3);
        }
        return v;
    }

    /** Floats and doubles compared by their bits (NaN payloads count), integers by value. */
    static Object bits(Object v) {
        return v instanceof Float f ? (Object) Float.floatToRawIntBits(f)
                : v instanceof Double d ? (Object) Double.doubleToRawLongBits(d) : v;
    }

    static void writeRaw(MemorySegment s, long byteOffset, long bytes, long code) {
        for (int k = 0; k < bytes; k++) {
            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, byteOffset + k, (byte) (code >>> (8 * k)));
        }
    }

    static long readRaw(MemorySegment s, long byteOffset, long bytes) {
        long v = 0;
        for (int k = 0; k < bytes; k++) {
            v |= (s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, byteOffset + k) & 0xFFL) << (8 * k);
        }
        return v;
    }

    // ---- calling an accessor of any rank -------------------------------------------------------------

    static MethodHandle getter(Kind kind, int rank) {
        Class<?>[] p = new Class<?>[rank];
        Arrays.fill(p, long.class);
        try {
            return MethodHandles.publicLookup().findVirtual(kind.accessor(), "get", MethodType.methodType(kind.value(), p));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static MethodHandle setter(Kind kind, int rank) {
        Class<?>[] p = new Class<?>[rank + 1];
        Arrays.fill(p, long.class);
        p[rank] = kind.value();
        try {
            return MethodHandles.publicLookup().findVirtual(kind.accessor(), "set", MethodType.methodType(void.class, p));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Calls {@code h} on {@code x} with the coordinates of {@code idx} (and {@code value} when not null). */
    static Object invoke(MethodHandle h, Object x, long[] idx, Object value) {
        List<Object> args = new ArrayList<>();
        args.add(x);
        for (long i : idx) {
            args.add(i);
        }
        if (value != null) {
            args.add(value);
        }
        try {
            return h.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    static String order(int[] minorToMajor) {
        return Arrays.stream(minorToMajor).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    static int[] reversed(int rank) {
        int[] o = new int[rank];
        for (int k = 0; k < rank; k++) {
            o[k] = rank - 1 - k;
        }
        return o;
    }

    static int[] identity(int rank) {
        int[] o = new int[rank];
        for (int k = 0; k < rank; k++) {
            o[k] = k;
        }
        return o;
    }

    static int[] shuffled(Random r, int rank) {
        int[] o = identity(rank);
        for (int k = rank - 1; k > 0; k--) {
            int j = r.nextInt(k + 1);
            int t = o[k];
            o[k] = o[j];
            o[j] = t;
        }
        return o;
    }

    // ---- the contract: what is refused, and how ------------------------------------------------------

    @Test
    void eachAccessorRefusesOtherElementTypesNamingTheShape() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                for (Kind other : KINDS) {
                    if (other == k) {
                        continue;
                    }
                    Array a = Array.allocate(arena, ArrayShape.parse(other.types().get(0).hloName() + "[2,3]{1,0}"));
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> k.factory().apply(a),
                            k.name() + " of " + a.shape());
                    assertTrue(e.getMessage().contains(a.shape().toString()), e.getMessage());
                }
                Array packed = Array.allocate(arena, ArrayShape.parse("s4[4,4]{1,0:E(4)}"));
                assertThrows(IllegalArgumentException.class, () -> k.factory().apply(packed), k.name());
            }
        }
    }

    @Test
    void ranksOtherThanOneToFourAndTilesThatAreNotPowersOfTwoAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                String t = k.types().get(0).hloName();
                for (String text : new String[] {t + "[]", t + "[2,1,2,1,2]{4,3,2,1,0}", t + "[6,6]{1,0:T(3,3)}"}) {
                    Array a = Array.allocate(arena, ArrayShape.parse(text));
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> k.factory().apply(a), text);
                    assertTrue(e.getMessage().contains(a.shape().toString()), e.getMessage());
                }
            }
        }
    }

    @Test
    void wrongRankOutOfBoundsAndReadOnlyWriteThrowAsArraysAccessorsDo() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array a = Array.allocate(arena, ArrayShape.parse(k.types().get(0).hloName() + "[4,8]{1,0:T(2,4)}"));
                Object x = k.factory().apply(a);
                IndexOutOfBoundsException rank = assertThrows(IndexOutOfBoundsException.class,
                        () -> invoke(getter(k, 1), x, new long[] {1}, null));
                IndexOutOfBoundsException arrays = assertThrows(IndexOutOfBoundsException.class, () -> a.getDouble(1));
                assertEquals(arrays.getMessage(), rank.getMessage());
                IndexOutOfBoundsException oob = assertThrows(IndexOutOfBoundsException.class,
                        () -> invoke(getter(k, 2), x, new long[] {4, 0}, null));
                assertEquals(assertThrows(IndexOutOfBoundsException.class, () -> a.getDouble(4, 0)).getMessage(),
                        oob.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> invoke(getter(k, 2), x, new long[] {0, -1}, null));

                Array ro = a.asReadOnly();
                Object y = k.factory().apply(ro);
                Object zero = invoke(getter(k, 2), y, new long[] {0, 0}, null);
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> invoke(setter(k, 2), y, new long[] {0, 0}, zero));
                assertTrue(e.getMessage().contains(ro.shape().toString()), e.getMessage());
                // read-only is checked before the index, as Array's setters do
                assertThrows(UnsupportedOperationException.class, () -> invoke(setter(k, 2), y, new long[] {9, 9}, zero));
            }
        }
    }

    @Test
    void afterTheArenaClosesEveryAccessorThrowsAlreadyClosed() {
        List<Object[]> kept = new ArrayList<>();
        Arena arena = Arena.ofConfined();
        for (Kind k : KINDS) {
            Array a = Array.allocate(arena, ArrayShape.parse(k.types().get(0).hloName() + "[3]{0}"));
            Object x = k.factory().apply(a);
            kept.add(new Object[] {k, x, invoke(getter(k, 1), x, new long[] {0}, null)});
        }
        arena.close();
        for (Object[] e : kept) {
            Kind k = (Kind) e[0];
            IllegalStateException get = assertThrows(IllegalStateException.class, () -> invoke(getter(k, 1), e[1], new long[] {0}, null));
            assertTrue(get.getMessage().startsWith("Already closed"), get.getMessage());
            IllegalStateException set = assertThrows(IllegalStateException.class,
                    () -> invoke(setter(k, 1), e[1], new long[] {0}, e[2]));
            assertTrue(set.getMessage().startsWith("Already closed"), set.getMessage());
        }
    }

    @Test
    void aDeviceArrayHasAccessorsOnlyThroughAMapping() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array dev = Array.allocate(arena, ArrayShape.parse(k.types().get(0).hloName() + "[2,3]{1,0:S("
                        + DeviceMemoryProvider.SPACE + ")}"));
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> k.factory().apply(dev), k.name());
                assertTrue(e.getMessage().contains("Array.map"), e.getMessage());
                try (MappedArray m = dev.map(MapMode.READ_WRITE)) {
                    Object x = k.factory().apply(m.array());
                    assertNotNull(x);
                    assertEquals(((Number) invoke(getter(k, 2), x, new long[] {1, 2}, null)).doubleValue(), 0.0);
                }
            }
        }
    }

    @Test
    void onAnotherThreadAConfinedArraysAccessorThrowsWrongThread() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            Object x = Array.allocate(arena, ArrayShape.parse("f64[3]{0}")).doubleAccessor();
            Throwable[] thrown = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    ((DoubleAccessor) x).get(0);
                } catch (Throwable e) {
                    thrown[0] = e;
                }
            });
            t.start();
            t.join();
            assertTrue(thrown[0] instanceof WrongThreadException, String.valueOf(thrown[0]));
        }
    }
}
