package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.testing.Permutations;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every public entry point of {@link Array} that touches memory refuses with the documented
 * exception (docs/arrays.md, "Lifetime and threads"), over every addressing family (strided of rank
 * 1 to 5, tiled, nested tiles, general, packed, legacy padded, complex, strided views, tiled
 * views): {@link IllegalStateException} after the arena closed, {@link WrongThreadException} from
 * a thread that does not own a confined arena, {@link UnsupportedOperationException} for writes to
 * a read-only array, and {@link IndexOutOfBoundsException} naming the index and the shape for an
 * index or view out of bounds. Nothing is read or written before the refusal: the array's bytes
 * are unchanged afterwards.
 */
@Timeout(60)
class ArrayEntryPointsTest {

    /** The arrays every check runs over: a shape, and how to take a view of the allocated array (or not). */
    private record Kind(String text, Function<Array, Array> view) {
        Array make(Arena arena) {
            Array a = Array.allocate(arena, shape(text));
            long[] codes = new long[(int) a.shape().elementCount()];
            for (int i = 0; i < codes.length; i++) {
                codes[i] = i % 7;
            }
            a.copyFrom(codes);
            return view.apply(a);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("f32[6]", a -> a),
            new Kind("f32[3,5]", a -> a),
            new Kind("f64[2,3,4]{0,2,1}", a -> a),
            new Kind("s32[2,3,2,3]{3,2,1,0}", a -> a),
            new Kind("s8[2,2,2,2,3]", a -> a),
            new Kind("f32[3,5]{1,0:T(2,2)}", a -> a),
            new Kind("bf16[16,256]{1,0:T(8,128)(2,1)}", a -> a),
            new Kind("f32[2,3,2,3]{1,3,0,2:T(2,2)}", a -> a),
            new Kind("f32[8]{0:T(2,2)}", a -> a),
            new Kind("s4[5,7]{1,0:E(4)}", a -> a),
            new Kind("f32[2,3]{0,1:PAD(3,5:one)}", a -> a),
            new Kind("c64[2,3]", a -> a),
            new Kind("f32[6,8]", a -> a.slice(1, 1, 7, 2).permute(1, 0)),   // strided view
            new Kind("f32[4,8,16]{2,1,0}", a -> a.select(0, 2)),
            new Kind("f32[1,16,256]{2,1,0:T(8,128)}", a -> a.slice(1, 8, 16)));   // tiled view

    /** Reads of one element through every accessor family, at the array's first index. */
    private static final List<Consumer<Array>> READS = List.of(
            a -> a.getFloat(zero(a)), a -> a.getDouble(zero(a)), a -> a.getLong(zero(a)), a -> a.getInt(zero(a)),
            a -> a.getBoolean(zero(a)), a -> a.getReal(zero(a)), a -> a.getImaginary(zero(a)),
            a -> a.getRawBits(zero(a)), ArrayEntryPointsTest::rankedRead,
            Array::toFloatArray, Array::toDoubleArray, Array::toLongArray, Array::toIntArray, Array::toShortArray,
            Array::toByteArray, Array::toBooleanArray, a -> a.contentEquals(same(a)));

    /** Writes through every accessor family and the bulk operations. */
    private static final List<Consumer<Array>> WRITES = List.of(
            a -> a.setFloat(zero(a), 1f), a -> a.setDouble(zero(a), 1.0), a -> a.setLong(zero(a), 1L),
            a -> a.setInt(zero(a), 1), a -> a.setBoolean(zero(a), true), a -> a.setRawBits(zero(a), 1L),
            ArrayEntryPointsTest::rankedWrite, a -> a.fill(2.0), a -> a.fill(2L), a -> a.fill(true),
            a -> a.copyFrom(new float[count(a)]), a -> a.copyFrom(new double[count(a)]),
            a -> a.copyFrom(new long[count(a)]), a -> a.copyFrom(new int[count(a)]),
            a -> a.copyFrom(new short[count(a)]), a -> a.copyFrom(new byte[count(a)]),
            a -> a.copyFrom(new boolean[count(a)]));

    /** Another Array object over the same elements (contentEquals answers true for the very same object unread). */
    private static Array same(Array a) {
        int[] identity = new int[a.shape().rank()];
        for (int i = 0; i < identity.length; i++) {
            identity[i] = i;
        }
        return a.permute(identity);
    }

    private static long[] zero(Array a) {
        return new long[a.shape().rank()];
    }

    private static int count(Array a) {
        return (int) a.shape().elementCount();
    }

    private static void rankedRead(Array a) {
        switch (a.shape().rank()) {
            case 1 -> a.getFloat(0);
            case 2 -> a.getLong(0, 0);
            case 3 -> a.getDouble(0, 0, 0);
            case 4 -> a.getInt(0, 0, 0, 0);
            default -> a.getBoolean(zero(a));
        }
    }

    private static void rankedWrite(Array a) {
        switch (a.shape().rank()) {
            case 1 -> a.setFloat(0, 1f);
            case 2 -> a.setLong(0, 0, 1L);
            case 3 -> a.setDouble(0, 0, 0, 1.0);
            case 4 -> a.setInt(0, 0, 0, 0, 1);
            default -> a.setBoolean(zero(a), true);
        }
    }

    private static List<Consumer<Array>> all() {
        List<Consumer<Array>> ops = new ArrayList<>(READS);
        ops.addAll(WRITES);
        ops.add(a -> a.copyTo(same(a)));
        return ops;
    }

    @Test
    void closedArenaRefusesEveryAccess() {
        for (Kind k : KINDS) {
            Arena arena = Arena.ofConfined();
            Array a = k.make(arena);
            Array readOnly = a.asReadOnly();
            arena.close();
            List<Consumer<Array>> ops = all();
            for (int i = 0; i < ops.size(); i++) {
                Consumer<Array> op = ops.get(i);
                assertThrows(IllegalStateException.class, () -> op.accept(a), k + ", operation " + i + " of all()");
            }
            for (Consumer<Array> op : READS) {
                assertThrows(IllegalStateException.class, () -> op.accept(readOnly), k::toString);
            }
            // views taken after the close are refused at their first access, too
            Array view = a.permute(Permutations.reversed(a.shape().rank()));
            assertThrows(IllegalStateException.class, () -> view.getFloat(zero(view)), k::toString);
            assertTrue(a.toString().contains("<inaccessible"), k::toString);
        }
    }

    @Test
    void confinedArenaRefusesOtherThreads() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array a = k.make(arena);
                byte[] before = a.segment().toArray(JAVA_BYTE);
                List<Future<?>> checks = new ArrayList<>();
                for (Consumer<Array> op : all()) {
                    checks.add(other.submit(() -> assertThrows(WrongThreadException.class, () -> op.accept(a), k::toString)));
                }
                for (Future<?> f : checks) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertTrue(Arrays.equals(before, a.segment().toArray(JAVA_BYTE)), k::toString);
                // the owner still can
                for (Consumer<Array> op : READS) {
                    op.accept(a);
                }
            }
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void readOnlyArraysRefuseEveryWrite() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array a = k.make(arena);
                byte[] before = a.segment().toArray(JAVA_BYTE);
                Array fresh = Array.allocate(arena, shape(k.text()));
                for (Array ro : List.of(a.asReadOnly(), Array.wrap(fresh.segment().asReadOnly(), fresh.shape()))) {
                    assertTrue(ro.isReadOnly());
                    for (Consumer<Array> op : WRITES) {
                        assertThrows(UnsupportedOperationException.class, () -> op.accept(ro), k::toString);
                    }
                    assertThrows(UnsupportedOperationException.class, () -> a.copyTo(ro), k::toString);
                    if (ro.shape().rank() > 0) {
                        Array view = ro.permute(Permutations.reversed(ro.shape().rank()));
                        assertTrue(view.isReadOnly(), k::toString);
                        assertThrows(UnsupportedOperationException.class, () -> view.setFloat(zero(view), 1f));
                    }
                    for (Consumer<Array> op : READS) {
                        op.accept(ro);   // reads still work
                    }
                }
                assertTrue(Arrays.equals(before, a.segment().toArray(JAVA_BYTE)), k::toString);
            }
        }
    }

    @Test
    void outOfBoundsIndicesAndViewsNameIndexAndShape() {
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array a = k.make(arena);
                ArrayShape s = a.shape();
                String name = s.toStringWithoutLayout();
                int rank = s.rank();
                for (int d = 0; d < rank; d++) {
                    for (long bad : new long[] {s.dimension(d), -1, Long.MAX_VALUE, Long.MIN_VALUE}) {
                        long[] idx = zero(a);
                        idx[d] = bad;
                        for (Consumer<Array> op : indexed(idx)) {
                            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                                    () -> op.accept(a), () -> k + " " + Arrays.toString(idx));
                            assertTrue(e.getMessage().contains(Arrays.toString(idx)) && e.getMessage().contains(name),
                                    e.getMessage());
                        }
                    }
                    long size = s.dimension(d);
                    int dim = d;
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                            () -> a.slice(dim, 0, size + 1), k::toString);
                    assertTrue(e.getMessage().contains(name), e.getMessage());
                    assertThrows(IndexOutOfBoundsException.class, () -> a.slice(dim, -1, size), k::toString);
                    assertThrows(IndexOutOfBoundsException.class, () -> a.slice(dim, 1, 0), k::toString);
                    assertThrows(IndexOutOfBoundsException.class, () -> a.select(dim, size), k::toString);
                    assertThrows(IndexOutOfBoundsException.class, () -> a.select(dim, -1), k::toString);
                }
                assertThrows(IndexOutOfBoundsException.class, () -> a.slice(rank, 0, 0), k::toString);
                assertThrows(IndexOutOfBoundsException.class, () -> a.select(-1, 0), k::toString);
                // the wrong number of coordinates
                long[] tooMany = new long[rank + 1];
                for (Consumer<Array> op : indexed(tooMany)) {
                    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> op.accept(a),
                            k::toString);
                    assertTrue(e.getMessage().contains(name), e.getMessage());
                }
                assertThrows(IndexOutOfBoundsException.class, () -> a.slot(tooMany), k::toString);
                assertThrows(IllegalArgumentException.class, () -> a.copyFrom(new float[count(a) + 1]), k::toString);
            }
        }
    }

    /** Every accessor that takes an index, at {@code idx}. */
    private static List<Consumer<Array>> indexed(long[] idx) {
        List<Consumer<Array>> ops = new ArrayList<>(List.of(
                a -> a.getFloat(idx), a -> a.getDouble(idx), a -> a.getLong(idx), a -> a.getInt(idx),
                a -> a.getBoolean(idx), a -> a.getReal(idx), a -> a.getImaginary(idx), a -> a.getRawBits(idx),
                a -> a.slot(idx), a -> a.setFloat(idx, 1f), a -> a.setDouble(idx, 1.0), a -> a.setLong(idx, 1L),
                a -> a.setInt(idx, 1), a -> a.setBoolean(idx, true), a -> a.setRawBits(idx, 1L)));
        switch (idx.length) {
            case 1 -> {
                ops.add(a -> a.getFloat(idx[0]));
                ops.add(a -> a.setLong(idx[0], 1L));
            }
            case 2 -> {
                ops.add(a -> a.getFloat(idx[0], idx[1]));
                ops.add(a -> a.setDouble(idx[0], idx[1], 1.0));
            }
            case 3 -> {
                ops.add(a -> a.getLong(idx[0], idx[1], idx[2]));
                ops.add(a -> a.setInt(idx[0], idx[1], idx[2], 1));
            }
            case 4 -> {
                ops.add(a -> a.getDouble(idx[0], idx[1], idx[2], idx[3]));
                ops.add(a -> a.setBoolean(idx[0], idx[1], idx[2], idx[3], true));
            }
            default -> { }
        }
        return ops;
    }


    /**
     * Found by RelayoutFuzzTest: {@code select(0, 1)} and {@code slice(0, 1, 3)} of a tiled
     * {@code s32[3,0,6]} threw {@link IndexOutOfBoundsException} for the in-bounds index 1 (the view's
     * start was located with {@code linearIndex} of {@code [1, 0, 0]}, which has no element).
     */
    @Test
    void viewsOfTiledArraysWithoutElements() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape("s32[3,0,6]{2,1,0:T(2,2)}"));
            Array row = a.select(0, 1);
            assertEquals("s32[0,6]", row.shape().toStringWithoutLayout());
            assertEquals(0, row.toLongArray().length);
            Array rows = a.slice(0, 1, 3);
            assertEquals("s32[2,0,6]", rows.shape().toStringWithoutLayout());
            assertEquals(0, rows.segment().byteSize());
        }
    }

    @Test
    void writesAfterARefusalLeaveTheBytesAlone() {
        // the refusal comes before any memory access: an out-of-bounds write changes nothing
        try (Arena arena = Arena.ofConfined()) {
            for (Kind k : KINDS) {
                Array a = k.make(arena);
                byte[] before = a.segment().toArray(JAVA_BYTE);
                long[] idx = zero(a);
                if (idx.length == 0) {
                    continue;
                }
                idx[idx.length - 1] = a.shape().dimension(idx.length - 1);
                try {
                    a.setLong(idx, 99);
                    fail("wrote out of bounds: " + k);
                } catch (IndexOutOfBoundsException expected) {
                    assertEquals(-1, MemorySegment.ofArray(before).mismatch(a.segment()), k::toString);
                }
            }
        }
    }
}
