package dev.tegula.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Whole-array operations of {@link Array}: element iteration in logical row-major order, padding
 * fill, {@code fill}, copies from and to Java arrays, {@code contentEquals}, {@code copyTo}.
 * Plain loops over the slots; the Vector API kernels of module vector are the fast paths.
 */
final class ArrayBulk {
    private ArrayBulk() {
    }

    /** Receives each element's position in row-major order and its slot. */
    @FunctionalInterface
    interface SlotVisitor {
        void visit(long ordinal, long slot);
    }

    /** Visits every element's slot in logical row-major order. */
    static void forEachSlot(Array a, SlotVisitor v) {
        if (!a.isHostAccessible()) {
            throw Array.notHostAccessible(a.shape, a.provider);
        }
        long[] dims = a.dims;
        long n = Array.elementCountOf(dims);
        if (n == 0) {
            return;
        }
        int rank = dims.length;
        long[] idx = new long[rank];
        if (a.strides == null) {
            for (long o = 0; o < n; o++) {
                v.visit(o, a.addressing().slot(idx));
                increment(idx, dims);
            }
            return;
        }
        long[] st = a.strides;
        long inner = rank == 0 ? 1 : dims[rank - 1];
        long innerStride = rank == 0 ? 0 : st[rank - 1];
        long base = a.slotOffset();
        for (long o = 0; o < n; o += inner) {
            long s = base;
            for (long j = 0; j < inner; j++, s += innerStride) {
                v.visit(o + j, s);
            }
            for (int d = rank - 2; d >= 0; d--) {        // odometer over the outer dimensions
                if (++idx[d] < dims[d]) {
                    base += st[d];
                    break;
                }
                idx[d] = 0;
                base -= (dims[d] - 1) * st[d];
            }
        }
    }

    /** Advances a row-major index; returns false after the last one. */
    static boolean increment(long[] idx, long[] dims) {
        for (int d = idx.length - 1; d >= 0; d--) {
            if (++idx[d] < dims[d]) {
                return true;
            }
            idx[d] = 0;
        }
        return false;
    }

    // ---- fill ------------------------------------------------------------------------------------

    /** After allocation (memory zeroed): writes the layout's padding value into every padding slot. */
    static void fillPadding(Array a) {
        long code = ElementIO.paddingCode(a.type, a.shape.layout().paddingValue());
        long slots = a.shape.slotCount();
        if (code == 0 || slots == Array.elementCountOf(a.dims)) {
            return;
        }
        if (a.type.isComplex()) {
            for (long s = 0; s < slots; s++) {
                if (a.type == ElementType.C64) {
                    a.segment.set(JAVA_INT_UNALIGNED, s << 3, (int) code);
                } else {
                    a.segment.set(JAVA_LONG_UNALIGNED, s << 4, code);
                }
            }
            forEachSlot(a, (o, s) -> ElementIO.setComplex(a, s, 0, 0));
            return;
        }
        fillRange(a, 0, slots, code);
        forEachSlot(a, (o, s) -> ElementIO.writeRaw(a, s, 0));
    }

    static void fill(Array a, double value) {
        if (a.type.isComplex()) {
            forEachSlot(a, (o, s) -> ElementIO.setComplex(a, s, value, 0));
        } else {
            fillCode(a, ElementCodec.fromDouble(a.type, value));
        }
    }

    static void fill(Array a, long value) {
        if (a.type.isComplex()) {
            forEachSlot(a, (o, s) -> ElementIO.setComplex(a, s, value, 0));
        } else {
            fillCode(a, ElementCodec.fromLong(a.type, value));
        }
    }

    private static void fillCode(Array a, long code) {
        if (a.strides != null && a.isContiguous() && a.isHostAccessible()) {
            fillRange(a, a.slotOffset(), Array.elementCountOf(a.dims), code);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.writeRaw(a, s, code));
        }
    }

    /** Writes {@code code} into slots {@code [from, from + count)}. */
    private static void fillRange(Array a, long from, long count, long code) {
        if (count == 0) {
            return;
        }
        MemorySegment seg = a.segment;
        if (a.slotBytes == 0) {
            long bits = a.slotBits;
            if ((from * bits & 7) != 0 || (count * bits & 7) != 0) {
                for (long s = from; s < from + count; s++) {
                    ElementIO.writeRaw(a, s, code);
                }
                return;
            }
            int pattern = 0;
            for (int shift = 0; shift < 8; shift += (int) bits) {
                pattern |= (int) (code & a.packedMask) << shift;
            }
            seg.asSlice(from * bits / 8, count * bits / 8).fill((byte) pattern);
            return;
        }
        long size = a.slotBytes;
        MemorySegment range = seg.asSlice(from * size, count * size);
        if (size == 1) {
            range.fill((byte) code);
            return;
        }
        ElementIO.writeRaw(a, from, code);                    // then double the filled prefix
        for (long done = size; done < range.byteSize(); done *= 2) {
            MemorySegment.copy(range, 0, range, done, Math.min(done, range.byteSize() - done));
        }
    }

    // ---- Java arrays -----------------------------------------------------------------------------

    private static int checkedLength(Array a) {
        long n = Array.elementCountOf(a.dims);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("array of " + a.shape + " has " + n
                    + " elements, too many for a Java array");
        }
        return (int) n;
    }

    private static void checkLength(Array a, int length) {
        long n = Array.elementCountOf(a.dims);
        if (length != n) {
            throw new IllegalArgumentException("values: " + length + " values for " + a.shape + ", which has "
                    + n + " elements");
        }
    }

    /** True if the elements lie in row-major order in consecutive slots, so bulk copies apply. */
    private static boolean rowMajorDense(Array a, ElementType... types) {
        if (a.strides == null || !a.isHostAccessible() || !Arrays.asList(types).contains(a.type)) {
            return false;
        }
        long[] rm = ArrayFactory.rowMajorStrides(a.dims);
        for (int d = 0; d < a.dims.length; d++) {
            if (a.dims[d] > 1 && a.strides[d] != rm[d]) {
                return false;
            }
        }
        return true;
    }

    private static long byteOffset(Array a) {
        return a.slotOffset() * a.slotBytes;
    }

    static void copyFrom(Array a, float[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.F32)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_FLOAT_UNALIGNED, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setFloat(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, double[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.F64)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_DOUBLE_UNALIGNED, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setDouble(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, long[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.S64, ElementType.U64)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_LONG_UNALIGNED, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, int[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.S32, ElementType.U32)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_INT_UNALIGNED, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, short[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.S16, ElementType.U16)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_SHORT_UNALIGNED, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, byte[] v) {
        checkLength(a, v.length);
        if (rowMajorDense(a, ElementType.S8, ElementType.U8)) {
            MemorySegment.copy(v, 0, a.segment, JAVA_BYTE, byteOffset(a), v.length);
        } else {
            forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, v[(int) o]));
        }
    }

    static void copyFrom(Array a, boolean[] v) {
        checkLength(a, v.length);
        forEachSlot(a, (o, s) -> ElementIO.setBoolean(a, s, v[(int) o]));
    }

    static float[] toFloatArray(Array a) {
        float[] out = new float[checkedLength(a)];
        if (rowMajorDense(a, ElementType.F32)) {
            copyOut(a, JAVA_FLOAT_UNALIGNED, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = ElementIO.getFloat(a, s));
        }
        return out;
    }

    static double[] toDoubleArray(Array a) {
        double[] out = new double[checkedLength(a)];
        if (rowMajorDense(a, ElementType.F64)) {
            copyOut(a, JAVA_DOUBLE_UNALIGNED, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = ElementIO.getDouble(a, s));
        }
        return out;
    }

    static long[] toLongArray(Array a) {
        long[] out = new long[checkedLength(a)];
        if (rowMajorDense(a, ElementType.S64, ElementType.U64)) {
            copyOut(a, JAVA_LONG_UNALIGNED, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = ElementIO.getLong(a, s));
        }
        return out;
    }

    static int[] toIntArray(Array a) {
        int[] out = new int[checkedLength(a)];
        if (rowMajorDense(a, ElementType.S32, ElementType.U32)) {
            copyOut(a, JAVA_INT_UNALIGNED, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = ElementIO.getInt(a, s));
        }
        return out;
    }

    static short[] toShortArray(Array a) {
        short[] out = new short[checkedLength(a)];
        if (rowMajorDense(a, ElementType.S16, ElementType.U16)) {
            copyOut(a, JAVA_SHORT_UNALIGNED, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = (short) ElementIO.getLong(a, s));
        }
        return out;
    }

    static byte[] toByteArray(Array a) {
        byte[] out = new byte[checkedLength(a)];
        if (rowMajorDense(a, ElementType.S8, ElementType.U8)) {
            copyOut(a, JAVA_BYTE, out);
        } else {
            forEachSlot(a, (o, s) -> out[(int) o] = (byte) ElementIO.getLong(a, s));
        }
        return out;
    }

    static boolean[] toBooleanArray(Array a) {
        boolean[] out = new boolean[checkedLength(a)];
        forEachSlot(a, (o, s) -> out[(int) o] = ElementIO.getBoolean(a, s));
        return out;
    }

    private static void copyOut(Array a, ValueLayout layout, Object out) {
        MemorySegment.copy(a.segment, layout, byteOffset(a), out, 0, java.lang.reflect.Array.getLength(out));
    }

    // ---- comparison and copies -------------------------------------------------------------------

    static boolean contentEquals(Array a, Array b) {
        if (a == b) {
            return true;
        }
        if (a.type != b.type || !Arrays.equals(a.dims, b.dims)) {
            return false;
        }
        if (Array.elementCountOf(a.dims) == 0) {
            return true;
        }
        long[] idx = new long[a.dims.length];
        boolean c128 = a.type == ElementType.C128;
        do {
            long sa = a.slot(idx);
            long sb = b.slot(idx);
            boolean same = c128
                    ? a.segment.get(JAVA_LONG_UNALIGNED, sa << 4) == b.segment.get(JAVA_LONG_UNALIGNED, sb << 4)
                      && a.segment.get(JAVA_LONG_UNALIGNED, (sa << 4) + 8) == b.segment.get(JAVA_LONG_UNALIGNED, (sb << 4) + 8)
                    : ElementIO.canonicalCode(a, sa) == ElementIO.canonicalCode(b, sb);
            if (!same) {
                return false;
            }
        } while (increment(idx, a.dims));
        return true;
    }

    static void copyTo(Array src, Array dst) {
        if (src.type != dst.type || !Arrays.equals(src.dims, dst.dims)) {
            throw new IllegalArgumentException("copyTo: source " + src.shape + " and destination " + dst.shape
                    + " differ in element type or dimensions");
        }
        Layout ls = src.shape.layout().withMemorySpace(0);
        Layout ld = dst.shape.layout().withMemorySpace(0);
        if (ls.equals(ld) && src.exactLayout && dst.exactLayout && byteAligned(src) && byteAligned(dst)) {
            long bytes = src.shape.bufferSize();
            MemorySegment from = src.segment.asSlice(src.slotOffset() * src.slotBits / 8, bytes);
            MemorySegment to = dst.segment.asSlice(dst.slotOffset() * dst.slotBits / 8, bytes);
            MemorySpaceProvider p = !src.provider.isHostAccessible() ? src.provider : dst.provider;
            p.copy(from, to, bytes);
            return;
        }
        if (!src.isHostAccessible() || !dst.isHostAccessible()) {
            throw new IllegalArgumentException("copyTo: " + src.shape + " to " + dst.shape + " changes the layout "
                    + "and an array is not host-accessible: copy in the same layout, then relayout in host memory");
        }
        long[] idx = new long[src.dims.length];
        if (Array.elementCountOf(src.dims) == 0) {
            return;
        }
        do {
            long s = src.slot(idx);
            long d = dst.slot(idx);
            if (src.type.isComplex()) {
                ElementIO.setComplex(dst, d, ElementIO.getReal(src, s), ElementIO.getImaginary(src, s));
            } else {
                ElementIO.writeRaw(dst, d, ElementIO.readRaw(src, s));
            }
        } while (increment(idx, src.dims));
    }

    private static boolean byteAligned(Array a) {
        return (a.slotOffset() * a.slotBits & 7) == 0;
    }
}
