package dev.tegula.io.dlpack;

import dev.tegula.vector.Relayout;
import static dev.tegula.io.dlpack.DLPackStructs.DL_MANAGED_TENSOR;
import static dev.tegula.io.dlpack.DLPackStructs.DL_MANAGED_TENSOR_VERSIONED;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DLPack 1.x exchange through FFM: {@link #export} turns an {@link Array} into a
 * {@code DLManagedTensorVersioned} a native library (or Python's {@code __dlpack__} machinery) can
 * consume, and {@link #exportLegacy} into the legacy unversioned {@code DLManagedTensor} for consumers
 * that take only that; {@link #importTensor} and {@link #importLegacy} turn a producer's tensor into
 * an array over the same memory. Nothing is copied unless a copy is asked for.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     MemorySegment managed = DLPack.export(array, arena);     // hand managed.address() to C
 *     Array view = DLPack.importTensor(pointerFromC, arena);   // arena.close() calls its deleter once
 * }
 * }
 *
 * <h2>Export</h2>
 * The struct, its shape and its strides are allocated from the caller's arena, which must stay open
 * until the consumer has called the deleter (and the array's own arena must stay open as long). The
 * deleter is one upcall stub shared by all exports: it marks the export released and runs the
 * {@code onRelease} action, exactly once however often it is called. Strides are in elements,
 * {@code byte_offset} carries a view's offset, {@code READ_ONLY} is set for read-only arrays. Packed
 * sub-byte layouts ({@code s4[..]{..:E(4)}}) are exported packed, element 0 in the low bits (DLPack's
 * order); sub-byte types one per byte, and the f6 types, set {@code IS_SUBBYTE_TYPE_PADDED}. A tiled
 * layout (or packed pred) is not expressible: it is refused, or with {@code copyIfNeeded} copied into
 * a row-major array from the caller's arena and exported with {@code IS_COPIED}. The legacy struct
 * has no flags: {@link #exportLegacy(Array, Arena, boolean, Runnable)} says what it refuses instead.
 *
 * <h2>Import</h2>
 * The array is a (possibly strided) view of the producer's memory, bound to the caller's arena:
 * closing the arena calls the producer's deleter exactly once. NULL strides mean compact row-major;
 * strides that are those of a dense array in some order give that {@code minor_to_major} layout,
 * others a strided view. A CPU (or managed) tensor is host memory; {@code kDLCUDAHost} and
 * {@code kDLROCMHost} are memory space {@code S(5)} (pinned host); other devices give an array the host
 * cannot address (element access throws; it can still be passed on). A tensor whose major version
 * is not {@value DLPackStructs#MAJOR_VERSION}, or that Tegula cannot represent (vector lanes, negative
 * strides, unknown dtype, packed 6-bit data), is refused with {@link IllegalArgumentException} after
 * its deleter has been called, so the producer's memory is never leaked.
 *
 * <h2>Safety</h2>
 * Import trusts the pointers in the struct, as every DLPack consumer must: it reads only the fields
 * and arrays the struct describes, checks every size for overflow, and calls the restricted methods
 * {@code reinterpret}, {@code upcallStub} and {@code downcallHandle} (native access must be enabled).
 */
public final class DLPack {
    private static final System.Logger LOG = System.getLogger(DLPack.class.getName());
    private static final Map<Long, Runnable> EXPORTS = new ConcurrentHashMap<>();

    private DLPack() {
    }

    /** The one deleter stub of every export, made on first use; see {@link #deleterStub()}. */
    private static volatile MemorySegment deleterStub;

    /**
     * {@return the deleter stub of every export, made on first use} An upcall stub is a restricted
     * method: without native access for this module it throws {@link IllegalCallerException} (here,
     * not in a class initializer, so every export says so, not only the first).
     */
    private static MemorySegment deleterStub() {
        MemorySegment stub = deleterStub;
        if (stub == null) {
            synchronized (EXPORTS) {
                stub = deleterStub;
                if (stub == null) {
                    MethodHandle handle;
                    try {
                        handle = MethodHandles.lookup().findStatic(DLPack.class, "deleter",
                                MethodType.methodType(void.class, MemorySegment.class));
                    } catch (ReflectiveOperationException e) {
                        throw new AssertionError(e);   // the method is right below
                    }
                    stub = Linker.nativeLinker().upcallStub(handle, FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
                    deleterStub = stub;
                }
            }
        }
        return stub;
    }

    /** The exported tensors' deleter: releases the export once; later calls are logged and ignored. */
    private static void deleter(MemorySegment self) {
        try {
            Runnable onRelease = EXPORTS.remove(self.address());
            if (onRelease == null) {
                LOG.log(System.Logger.Level.WARNING, "DLPack deleter called for 0x{0}, which is not a live Tegula"
                        + " export (called twice?)", Long.toHexString(self.address()));
                return;
            }
            onRelease.run();
        } catch (Throwable t) {           // an exception must never unwind into native code
            LOG.log(System.Logger.Level.ERROR, "DLPack release action failed", t);
        }
    }

    /**
     * {@return a {@code DLManagedTensorVersioned} describing {@code array}, allocated from {@code arena}}
     *
     * @throws IllegalArgumentException if the layout is tiled (or packed pred): relayout first, or use
     *                                  {@link #export(Array, Arena, boolean, Runnable)} with a copy
     * @throws IllegalStateException    if the array is not host-accessible
     */
    public static MemorySegment export(Array array, Arena arena) {
        return export(array, arena, false, null);
    }

    /**
     * {@return a {@code DLManagedTensorVersioned} describing {@code array}} (or, when
     * {@code copyIfNeeded} and the layout is not expressible, a row-major copy of it, flagged
     * {@code IS_COPIED}), allocated from {@code arena}.
     *
     * @param onRelease run once when the consumer calls the deleter (may be null)
     * @throws IllegalArgumentException if the layout is not expressible and no copy was allowed
     * @throws IllegalStateException    if the array is not host-accessible
     */
    public static MemorySegment export(Array array, Arena arena, boolean copyIfNeeded, Runnable onRelease) {
        Objects.requireNonNull(array, "array");
        Objects.requireNonNull(arena, "arena");
        long flags = 0;
        Array a = expressible(array, arena, copyIfNeeded, false);
        if (a != array) {
            flags |= DLPackStructs.FLAG_IS_COPIED;
        }
        ArrayShape shape = a.shape();
        ElementType type = shape.elementType();
        if (a.isReadOnly()) {
            flags |= DLPackStructs.FLAG_READ_ONLY;
        }
        if (isPaddedSubByte(shape)) {
            flags |= DLPackStructs.FLAG_IS_SUBBYTE_TYPE_PADDED;
        }
        MemorySegment m = allocate(DL_MANAGED_TENSOR_VERSIONED, a, DLPackStructs.V_TENSOR, arena);
        m.set(JAVA_INT, DLPackStructs.V_MAJOR, DLPackStructs.MAJOR_VERSION);
        m.set(JAVA_INT, DLPackStructs.V_MINOR, DLPackStructs.MINOR_VERSION);
        m.set(ADDRESS, DLPackStructs.V_CTX, MemorySegment.NULL);
        m.set(ADDRESS, DLPackStructs.V_DELETER, deleterStub());
        m.set(JAVA_LONG, DLPackStructs.V_FLAGS, flags);
        return register(m, DL_MANAGED_TENSOR_VERSIONED.byteSize(), arena, onRelease);
    }

    /**
     * {@return a legacy (pre-1.0) {@code DLManagedTensor} describing {@code array}, allocated from
     * {@code arena}} For consumers that take only the unversioned struct (a {@code "dltensor"}
     * capsule), such as NumPy before 2.1, PyTorch 1.x and JAX releases that predate DLPack 1.0.
     * See {@link #exportLegacy(Array, Arena, boolean, Runnable)}.
     *
     * @throws IllegalArgumentException if the layout is tiled (or packed pred), the array is read-only,
     *                                  or its sub-byte elements are stored one per byte
     * @throws IllegalStateException    if the array is not host-accessible
     */
    public static MemorySegment exportLegacy(Array array, Arena arena) {
        return exportLegacy(array, arena, false, null);
    }

    /**
     * {@return a legacy (pre-1.0) {@code DLManagedTensor} describing {@code array}} (or, when
     * {@code copyIfNeeded} and the array cannot be handed out as it is, a writable row-major copy of
     * it), allocated from {@code arena}.
     *
     * <p>The struct is DLPack's {@code DLManagedTensor { DLTensor dl_tensor; void *manager_ctx;
     * void (*deleter)(DLManagedTensor *); }} (64 bytes: the tensor at 0, {@code manager_ctx} NULL at
     * 48, the deleter at 56), its {@code dl_tensor} filled as {@link #export} fills the versioned
     * one: CPU device 0, strides in elements, a view's offset in {@code byte_offset}.
     *
     * <p><b>What the legacy struct cannot say.</b> It has no flags. A read-only array (a file
     * mapping) is refused, because a legacy consumer may take the memory as writable (PyTorch's
     * tensors are) and a write through it would fault or change the file; with {@code copyIfNeeded}
     * a writable copy is exported instead. Sub-byte elements stored one per byte (and the f6 types) are refused, as a
     * consumer would read them as packed; packed layouts ({@code E(4)}) are exported packed. A tiled
     * layout is refused, or copied with {@code copyIfNeeded}. The copy is allocated from
     * {@code arena}; nothing says to the consumer that it is one.
     *
     * <p><b>Lifetime.</b> The consumer owns the struct once it is handed over and calls its deleter
     * exactly once when it no longer needs the data (NumPy and PyTorch: when their array is freed).
     * The deleter is Tegula's shared upcall stub: the first call runs {@code onRelease}; later calls
     * are logged and ignored. Until then {@code arena} (it holds the struct, shape and strides) and
     * the array's own arena must stay open. If the deleter is never called (the consumer refused the
     * tensor and dropped it, or a Python capsule was never consumed and its destructor does not call
     * it), nothing is leaked past {@code arena}: closing it frees the struct and forgets the export
     * ({@link #liveExports()} drops), and {@code onRelease} is not run. Closing it while a consumer
     * still reads the data is the caller's error, as with any segment handed to native code.
     *
     * <p><b>Threads.</b> The deleter may be called from any thread, native ones included (the JVM
     * attaches them); {@code onRelease} then runs on that thread and must not throw (an exception is
     * logged, never propagated into native code). The consumer reads and writes the memory from
     * whatever threads it likes: a confined {@code arena} restricts Java's access to the segments,
     * not native code's.
     *
     * @param onRelease run once when the consumer calls the deleter (may be null)
     * @throws IllegalArgumentException if the array cannot be exported as it is and no copy was
     *                                  allowed, or its sub-byte elements are stored one per byte
     * @throws IllegalStateException    if the array is not host-accessible
     */
    public static MemorySegment exportLegacy(Array array, Arena arena, boolean copyIfNeeded, Runnable onRelease) {
        Objects.requireNonNull(array, "array");
        Objects.requireNonNull(arena, "arena");
        Array a = expressible(array, arena, copyIfNeeded, true);
        if (isPaddedSubByte(a.shape())) {
            throw new IllegalArgumentException("array: " + a.shape() + " stores each " + a.shape().elementType().hloName()
                    + " element in a byte of its own, which the legacy DLManagedTensor cannot say (a consumer would read"
                    + " it as packed): relayout to a packed layout such as {0:E(" + a.shape().elementType().bitWidth()
                    + ")}, or use export (DLPack 1.x, IS_SUBBYTE_TYPE_PADDED)");
        }
        MemorySegment m = allocate(DL_MANAGED_TENSOR, a, DLPackStructs.L_TENSOR, arena);
        m.set(ADDRESS, DLPackStructs.L_CTX, MemorySegment.NULL);
        m.set(ADDRESS, DLPackStructs.L_DELETER, deleterStub());
        return register(m, DL_MANAGED_TENSOR.byteSize(), arena, onRelease);
    }

    /**
     * {@return {@code array}, or a row-major copy of it from {@code arena} when DLPack cannot describe
     * it (or, {@code writable} asked, it is read-only) and a copy is allowed}
     */
    private static Array expressible(Array array, Arena arena, boolean copyIfNeeded, boolean writable) {
        ArrayShape shape = array.shape();
        if (!array.isHostAccessible()) {
            throw new IllegalStateException("array: " + shape + " is not in host memory; DLPack export needs host memory");
        }
        String why = inexpressible(array);
        if (why == null && writable && array.isReadOnly()) {
            why = "is read-only, and the legacy DLManagedTensor has no read-only flag (its consumers write to it)";
        }
        if (why == null) {
            return array;
        }
        if (!copyIfNeeded) {
            throw new IllegalArgumentException("array: " + shape + " " + why + "; relayout to a strided layout first"
                    + " (Relayout.to in module vector), export with copyIfNeeded"
                    + (writable ? ", or use export (DLPack 1.x)" : ""));
        }
        Array copy = Array.allocate(arena, ArrayShape.of(shape.elementType(), shape.dimensions()));
        Relayout.copy(array, copy);
        return copy;
    }

    /** {@return whether the elements are of a sub-byte (or f6) type stored one per byte} */
    private static boolean isPaddedSubByte(ArrayShape shape) {
        ElementType type = shape.elementType();
        return (type.isSubByte() || type == ElementType.F6E2M3FN || type == ElementType.F6E3M2FN) && shape.slotBits() == 8;
    }

    /**
     * {@return a struct of {@code layout} from {@code arena}, followed by the shape and strides, its
     * {@code DLTensor} (at {@code tensorAt}) describing {@code a}}
     */
    private static MemorySegment allocate(StructLayout layout, Array a, long tensorAt, Arena arena) {
        ArrayShape shape = a.shape();
        int rank = shape.rank();
        long[] dims = shape.dimensions();
        long[] strides = a.slotStrides();
        long head = layout.byteSize();
        MemorySegment m = arena.allocate(head + 16L * Math.max(1, rank), 8);
        MemorySegment shapeArray = m.asSlice(head, 8L * Math.max(1, rank));
        MemorySegment strideArray = m.asSlice(head + 8L * Math.max(1, rank));
        for (int d = 0; d < rank; d++) {
            shapeArray.setAtIndex(JAVA_LONG, d, dims[d]);
            strideArray.setAtIndex(JAVA_LONG, d, strides[d]);
        }
        ElementType type = shape.elementType();
        long t = tensorAt;
        m.set(ADDRESS, t + DLPackStructs.T_DATA, a.segment());
        m.set(JAVA_INT, t + DLPackStructs.T_DEVICE_TYPE, DLPackStructs.KDL_CPU);
        m.set(JAVA_INT, t + DLPackStructs.T_DEVICE_ID, 0);
        m.set(JAVA_INT, t + DLPackStructs.T_NDIM, rank);
        m.set(JAVA_BYTE, t + DLPackStructs.T_CODE, (byte) DLPackDtype.code(type));
        m.set(JAVA_BYTE, t + DLPackStructs.T_BITS, (byte) DLPackDtype.bits(type));
        m.set(JAVA_SHORT, t + DLPackStructs.T_LANES, (short) 1);
        m.set(ADDRESS, t + DLPackStructs.T_SHAPE, shapeArray);
        m.set(ADDRESS, t + DLPackStructs.T_STRIDES, strideArray);
        m.set(JAVA_LONG, t + DLPackStructs.T_BYTE_OFFSET, a.slotOffset() * shape.slotBits() / 8);
        return m;
    }

    /** Registers the export at {@code m} with its release action; {@return the struct alone, {@code size} bytes (its shape and strides follow it)} */
    private static MemorySegment register(MemorySegment m, long size, Arena arena, Runnable onRelease) {
        long key = m.address();
        Runnable action = onRelease != null ? onRelease : () -> { };
        EXPORTS.put(key, action);
        // when the arena closes, forget the export (its struct is gone; a later deleter call is ignored)
        MemorySegment.ofAddress(key).reinterpret(arena, s -> EXPORTS.remove(key, action));
        return m.asSlice(0, size);
    }

    /** {@return why DLPack cannot describe {@code a}'s memory, or null if it can} */
    private static String inexpressible(Array a) {
        ArrayShape s = a.shape();
        if (a.slotStrides() == null) {
            return "is tiled";
        }
        long bits = s.slotBits();
        if (bits < 8 && s.elementType().isPred()) {
            return "packs pred in " + bits + " bits (DLPack's bool is one byte)";
        }
        if (bits < 8 && (a.slotOffset() * bits) % 8 != 0) {
            return "starts at a bit offset inside a byte";
        }
        return null;
    }

    /** {@return the number of exports whose deleter has not been called yet and whose arena is open} */
    public static int liveExports() {
        return EXPORTS.size();
    }

    /**
     * {@return an array over the memory of the {@code DLManagedTensorVersioned} at {@code managedTensor}}
     * Closing {@code arena} calls the producer's deleter exactly once.
     *
     * @param managedTensor a pointer to the struct (a zero-length segment from native code is fine)
     * @throws IllegalArgumentException if the pointer is NULL, the major version is not 1 (the deleter is
     *                                  called), or the tensor cannot be represented (the deleter is called)
     */
    public static Array importTensor(MemorySegment managedTensor, Arena arena) {
        return DLPackImport.importTensor(managedTensor, arena, true);
    }

    /**
     * {@return an array over the memory of the legacy (pre-1.0) {@code DLManagedTensor} at {@code managedTensor}}
     * As {@link #importTensor}, without version or flags: sub-byte data is taken as packed, and the
     * array is writable.
     */
    public static Array importLegacy(MemorySegment managedTensor, Arena arena) {
        return DLPackImport.importTensor(managedTensor, arena, false);
    }
}
