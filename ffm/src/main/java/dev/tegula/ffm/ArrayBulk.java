package dev.tegula.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.internal.BulkCopier;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * Whole-array operations of {@link Array}: element iteration in logical row-major order, padding
 * fill, {@code fill}, copies from and to Java arrays, {@code contentEquals}, {@code copyTo}.
 * Loops over the blocks of {@link Runs} (the walk over the slots of every layout), except the copies
 * from and to Java arrays and {@code toRowMajor}, which run through the relayout engine when module
 * vector provides it ({@link BulkCopier}).
 */
final class ArrayBulk {
    private ArrayBulk() {
    }

    /** Receives each element's position in row-major order and its slot. */
    @FunctionalInterface
    interface SlotVisitor {
        void visit(long ordinal, long slot);
    }

    /** Visits every element's slot in logical row-major order (a walk of {@link Runs}). */
    static void forEachSlot(Array a, SlotVisitor v) {
        int rank = a.dims.length;
        int[] rowMajor = new int[rank];
        for (int d = 0; d < rank; d++) {
            rowMajor[d] = d;
        }
        Runs r = Runs.bySlot(new Array[] {a}, rowMajor);
        long o = 0;
        long step = r.slotStride(0);
        while (r.next()) {
            long n = r.length();
            long s = r.slot(0);
            for (long k = 0; k < n; k++, s += step) {
                v.visit(o + k, s);
            }
            o += n;
        }
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
        fillCode(a, 0);
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

    /** Writes {@code code} into every element's slot: a range fill per run of {@link Runs}, element by element elsewhere. */
    private static void fillCode(Array a, long code) {
        Runs r = Runs.bySlot(new Array[] {a}, null);
        long step = r.slotStride(0);
        while (r.next()) {
            long n = r.length();
            if (step == 1) {
                fillRange(a, r.slot(0), n, code);
            } else {
                long s = r.slot(0);
                for (long k = 0; k < n; k++, s += step) {
                    ElementIO.writeRaw(a, s, code);
                }
            }
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
    //
    // A Java array is a heap segment holding a dense row-major array of one element type (JavaArray's
    // type, or its unsigned twin when the array has that type). Where the array's elements lie in
    // row-major order in consecutive slots of that type, a bulk method is one MemorySegment.copy;
    // otherwise it is a relayout between the array and the heap segment, through the relayout engine
    // when module vector provides it and the engine's conversion is the accessors' (BulkCopier.converts),
    // else an element walk through the accessors.

    /** The Java array types of the bulk methods: the element type a heap segment of each holds. */
    enum JavaArray {
        FLOAT(ElementType.F32, null, JAVA_FLOAT_UNALIGNED),
        DOUBLE(ElementType.F64, null, JAVA_DOUBLE_UNALIGNED),
        LONG(ElementType.S64, ElementType.U64, JAVA_LONG_UNALIGNED),
        INT(ElementType.S32, ElementType.U32, JAVA_INT_UNALIGNED),
        SHORT(ElementType.S16, ElementType.U16, JAVA_SHORT_UNALIGNED),
        BYTE(ElementType.S8, ElementType.U8, JAVA_BYTE),
        /** No heap segment holds a boolean[]: always the element walk. */
        BOOLEAN(null, null, null);

        final ElementType signed;
        final ElementType unsigned;
        final ValueLayout layout;

        JavaArray(ElementType signed, ElementType unsigned, ValueLayout layout) {
            this.signed = signed;
            this.unsigned = unsigned;
            this.layout = layout;
        }

        /** {@return the element type of the heap segment for {@code a}: its own when it is the unsigned twin} */
        ElementType heapType(Array a) {
            return a.type == unsigned ? unsigned : signed;
        }
    }

    /** Element-by-element reads and writes of one Java array type, the fallback of the bulk methods. */
    private interface Walker {
        void walk(Array a, Object javaArray, int offset);
    }

    private static final Walker[] READS = {
        (a, v, off) -> forEachSlot(a, (o, s) -> ((float[]) v)[off + (int) o] = ElementIO.getFloat(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((double[]) v)[off + (int) o] = ElementIO.getDouble(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((long[]) v)[off + (int) o] = ElementIO.getLong(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((int[]) v)[off + (int) o] = ElementIO.getInt(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((short[]) v)[off + (int) o] = (short) ElementIO.getLong(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((byte[]) v)[off + (int) o] = (byte) ElementIO.getLong(a, s)),
        (a, v, off) -> forEachSlot(a, (o, s) -> ((boolean[]) v)[off + (int) o] = ElementIO.getBoolean(a, s)),
    };

    private static final Walker[] WRITES = {
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setFloat(a, s, ((float[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setDouble(a, s, ((double[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, ((long[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, ((int[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, ((short[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setLong(a, s, ((byte[]) v)[off + (int) o])),
        (a, v, off) -> forEachSlot(a, (o, s) -> ElementIO.setBoolean(a, s, ((boolean[]) v)[off + (int) o])),
    };

    /** {@return a new Java array of {@code kind} holding the elements in row-major order} */
    static Object toNewArray(Array a, JavaArray kind) {
        int n = checkedLength(a);
        Object out = switch (kind) {
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case LONG -> new long[n];
            case INT -> new int[n];
            case SHORT -> new short[n];
            case BYTE -> new byte[n];
            case BOOLEAN -> new boolean[n];
        };
        toArray(a, kind, out, 0);
        return out;
    }

    /** Writes the elements in row-major order into {@code dst} from index {@code offset}. */
    static void toArray(Array a, JavaArray kind, Object dst, int offset) {
        int n = checkRange(a, "dst", dst, offset);
        if (n == 0) {
            return;
        }
        ElementType heap = kind.heapType(a);
        if (heap != null && a.type == heap && rowMajorDense(a)) {
            MemorySegment.copy(a.segment, kind.layout, byteOffset(a), dst, offset, n);
            return;
        }
        BulkCopier engine = Engine.forPair(a.type, heap);
        if (engine != null) {
            engine.copy(a, heapArray(a, heap, dst, offset, n));
        } else {
            READS[kind.ordinal()].walk(a, dst, offset);
        }
    }

    /** Copies {@code elementCount} values of {@code src} from index {@code offset} into the elements in row-major order. */
    static void copyFrom(Array a, JavaArray kind, Object src, int offset) {
        int n = checkRange(a, "src", src, offset);
        if (n == 0) {
            return;
        }
        ElementType heap = kind.heapType(a);
        if (heap != null && a.type == heap && rowMajorDense(a)) {
            MemorySegment.copy(src, offset, a.segment, kind.layout, byteOffset(a), n);
            return;
        }
        BulkCopier engine = Engine.forPair(heap, a.type);
        if (engine != null) {
            engine.copy(heapArray(a, heap, src, offset, n), a);
        } else {
            WRITES[kind.ordinal()].walk(a, src, offset);
        }
    }

    /** Copies {@code src} into {@code dst} (same type and dimensions) through the engine, or element by element. */
    static void relayout(Array src, Array dst) {
        BulkCopier engine = Engine.forPair(src.type, dst.type);
        if (engine != null) {
            engine.copy(src, dst);
        } else {
            copyElements(src, dst);
        }
    }

    /** The dense row-major array of {@code type} over {@code n} elements of a Java array from {@code offset}. */
    private static Array heapArray(Array a, ElementType type, Object javaArray, int offset, int n) {
        long bytes = type.byteWidth();
        MemorySegment seg = heapSegment(javaArray).asSlice(offset * bytes, n * bytes);
        return ArrayFactory.wrap(seg, ArrayShape.of(type, a.dims));
    }

    private static MemorySegment heapSegment(Object javaArray) {
        return switch (javaArray) {
            case float[] v -> MemorySegment.ofArray(v);
            case double[] v -> MemorySegment.ofArray(v);
            case long[] v -> MemorySegment.ofArray(v);
            case int[] v -> MemorySegment.ofArray(v);
            case short[] v -> MemorySegment.ofArray(v);
            case byte[] v -> MemorySegment.ofArray(v);
            default -> throw new IllegalArgumentException("no heap segment for " + javaArray.getClass());
        };
    }

    /** The relayout engine where module vector provides it, for the conversions it says it computes as the accessors do. */
    static final class Engine {
        private Engine() {
        }

        static BulkCopier forPair(ElementType from, ElementType to) {
            BulkCopier engine = BulkCopier.installed();
            return engine != null && from != null && to != null && engine.converts(from, to) ? engine : null;
        }
    }

    private static int checkedLength(Array a) {
        long n = Array.elementCountOf(a.dims);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("array of " + a.shape + " has " + n
                    + " elements, too many for a Java array");
        }
        return (int) n;
    }

    /**
     * {@return the element count, after checking that the Java array holds that many from {@code offset}}
     *
     * @throws IllegalStateException     if the memory is not host-accessible
     * @throws IndexOutOfBoundsException naming the offset, the count, the shape and the length
     */
    private static int checkRange(Array a, String name, Object javaArray, int offset) {
        if (!a.isHostAccessible()) {
            throw Array.notHostAccessible(a.shape, a.provider);
        }
        ThreadAccess.requireAlive(a.segment);
        int length = java.lang.reflect.Array.getLength(Objects.requireNonNull(javaArray, name));
        long n = Array.elementCountOf(a.dims);
        if (offset < 0 || offset > length || n > length - offset) {
            throw new IndexOutOfBoundsException(name + ": offset " + offset + " and the " + n + " elements of "
                    + a.shape.toStringWithoutLayout() + " do not fit " + name + ".length " + length);
        }
        return (int) n;
    }

    /** Checks that a Java array has exactly one value per element. */
    static void checkLength(Array a, Object values) {
        long n = Array.elementCountOf(a.dims);
        int length = java.lang.reflect.Array.getLength(Objects.requireNonNull(values, "values"));
        if (length != n) {
            throw new IllegalArgumentException("values: " + length + " values for " + a.shape + ", which has "
                    + n + " elements");
        }
    }

    /** True if the elements lie in row-major order in consecutive slots of whole bytes, from {@link #byteOffset}. */
    static boolean rowMajorDense(Array a) {
        if (a.strides == null || !a.isHostAccessible() || a.slotBytes == 0) {
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

    static long byteOffset(Array a) {
        return a.slotOffset() * a.slotBytes;
    }

    /** {@link Array#asByteBuffer()}. */
    static ByteBuffer asByteBuffer(Array a) {
        if (!a.isHostAccessible()) {
            throw Array.notHostAccessible(a.shape, a.provider);
        }
        ThreadAccess.requireAlive(a.segment);
        long n = Array.elementCountOf(a.dims);
        if (!rowMajorDense(a) && n != 0) {
            throw new IllegalStateException("asByteBuffer: " + a.shape + " is not dense row-major; copy it into"
                    + " row-major first with toRowMajor(arena) or Relayout.to(array, Layout.rowMajor("
                    + a.dims.length + "), arena)");
        }
        long bytes = n * Math.max(a.slotBytes, 1);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalStateException("asByteBuffer: " + a.shape + " holds " + bytes
                    + " bytes, more than a ByteBuffer can (" + Integer.MAX_VALUE + "); use segment()");
        }
        ByteBuffer b = n == 0 ? ByteBuffer.allocateDirect(0)
                : a.segment.asSlice(byteOffset(a), bytes).asByteBuffer();
        return (a.isReadOnly() ? b.asReadOnlyBuffer() : b).order(ByteOrder.nativeOrder());
    }

    // ---- comparison and copies -------------------------------------------------------------------

    static boolean contentEquals(Array a, Array b) {
        if (a == b) {
            return true;
        }
        if (a.type != b.type || !Arrays.equals(a.dims, b.dims)) {
            return false;
        }
        Runs r = Runs.bySlot(new Array[] {a, b}, null);
        long stepA = r.slotStride(0);
        long stepB = r.slotStride(1);
        boolean c128 = a.type == ElementType.C128;
        while (r.next()) {
            long sa = r.slot(0);
            long sb = r.slot(1);
            for (long k = r.length(); k > 0; k--, sa += stepA, sb += stepB) {
                boolean same = c128
                        ? a.segment.get(JAVA_LONG_UNALIGNED, sa << 4) == b.segment.get(JAVA_LONG_UNALIGNED, sb << 4)
                          && a.segment.get(JAVA_LONG_UNALIGNED, (sa << 4) + 8) == b.segment.get(JAVA_LONG_UNALIGNED, (sb << 4) + 8)
                        : ElementIO.canonicalCode(a, sa) == ElementIO.canonicalCode(b, sb);
                if (!same) {
                    return false;
                }
            }
        }
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
            long fromOffset = src.slotOffset() * src.slotBits / 8;
            long toOffset = dst.slotOffset() * dst.slotBits / 8;
            copyBytes(src, fromOffset, dst, toOffset, bytes);
            return;
        }
        if (!ls.equals(ld)) {
            throw new IllegalArgumentException("copyTo: " + src.shape + " to " + dst.shape + " changes the layout;"
                    + " copyTo copies within one layout: use Relayout.copy (module dev.tegula.vector) to relayout");
        }
        if (src.device != null || dst.device != null) {
            try (MappedArray from = src.map(MapMode.READ); MappedArray to = dst.map(MapMode.READ_WRITE)) {
                copyElements(from.array(), to.array());
            }
            return;
        }
        if (!src.isHostAccessible() || !dst.isHostAccessible()) {
            throw new IllegalArgumentException("copyTo: " + src.shape + " to " + dst.shape + " are views that are not"
                    + " the layout's whole buffer, and an array is not host-accessible: copy whole arrays between"
                    + " memory spaces");
        }
        copyElements(src, dst);
    }

    /** Copies {@code bytes} bytes between two arrays' memories, host or device, through the providers' copies. */
    private static void copyBytes(Array src, long fromOffset, Array dst, long toOffset, long bytes) {
        if (src.device == null && dst.device == null) {
            MemorySegment.copy(src.segment, fromOffset, dst.segment, toOffset, bytes);
            return;
        }
        if (src.device == null) {
            dst.device.checkAccess();
            dst.provider.write(src.segment.asSlice(fromOffset, bytes), dst.device.slice(toOffset, bytes)).await();
        } else if (dst.device == null) {
            src.device.checkAccess();
            src.provider.read(src.device.slice(fromOffset, bytes), dst.segment.asSlice(toOffset, bytes)).await();
        } else if (src.provider == dst.provider) {
            src.device.checkAccess();
            dst.device.checkAccess();
            src.provider.copy(src.device.slice(fromOffset, bytes), dst.device.slice(toOffset, bytes)).await();
        } else {
            try (MappedArray from = src.map(MapMode.READ)) {
                dst.device.checkAccess();
                dst.provider.write(from.array().segment.asSlice(fromOffset, bytes), dst.device.slice(toOffset, bytes))
                        .await();
            }
        }
    }

    /**
     * Copies {@code src} into {@code dst} (same type and dimensions, any layouts, host memory) element
     * by element, along {@link Runs}'s blocks in the destination's memory order.
     */
    private static void copyElements(Array src, Array dst) {
        Runs r = Runs.bySlot(new Array[] {dst, src}, null);
        long stepD = r.slotStride(0);
        long stepS = r.slotStride(1);
        boolean complex = src.type.isComplex();
        while (r.next()) {
            long d = r.slot(0);
            long s = r.slot(1);
            for (long k = r.length(); k > 0; k--, d += stepD, s += stepS) {
                if (complex) {
                    ElementIO.setComplex(dst, d, ElementIO.getReal(src, s), ElementIO.getImaginary(src, s));
                } else {
                    ElementIO.writeRaw(dst, d, ElementIO.readRaw(src, s));
                }
            }
        }
    }

    private static boolean byteAligned(Array a) {
        return (a.slotOffset() * a.slotBits & 7) == 0;
    }
}
