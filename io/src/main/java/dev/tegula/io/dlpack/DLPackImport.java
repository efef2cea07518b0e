package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.DeviceBuffer;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.Mapping;
import dev.tegula.ffm.MemorySpaceProvider;
import dev.tegula.ffm.MemorySpaces;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/** The import half of {@link DLPack}: reads a producer's struct and wraps its memory. */
final class DLPackImport {
    private static final System.Logger LOG = System.getLogger(DLPack.class.getName());
    /** The most dimensions accepted from a producer. */
    static final int MAX_RANK = 64;
    /** XLA's memory space for pinned host memory. */
    static final long PINNED_HOST_MEMORY_SPACE = 5;

    private DLPackImport() {
    }

    private static final class Downcall {
        static final MethodHandle DELETER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));
    }

    static Array importTensor(MemorySegment pointer, Arena arena, boolean versioned) {
        Objects.requireNonNull(pointer, "managedTensor");
        Objects.requireNonNull(arena, "arena");
        if (pointer.address() == 0) {
            throw new IllegalArgumentException("managedTensor: NULL");
        }
        long size = (versioned ? DLPackStructs.DL_MANAGED_TENSOR_VERSIONED : DLPackStructs.DL_MANAGED_TENSOR).byteSize();
        MemorySegment m = MemorySegment.ofAddress(pointer.address()).reinterpret(size);
        MemorySegment deleter = m.get(ADDRESS, versioned ? DLPackStructs.V_DELETER : DLPackStructs.L_DELETER);
        AtomicBoolean once = new AtomicBoolean();
        Runnable release = () -> {
            if (once.compareAndSet(false, true) && deleter.address() != 0) {
                callDeleter(deleter, m);
            }
        };
        try {
            long flags = 0;
            long tensor = DLPackStructs.L_TENSOR;
            if (versioned) {
                int major = m.get(JAVA_INT, DLPackStructs.V_MAJOR);
                if (major != DLPackStructs.MAJOR_VERSION) {
                    throw new IllegalArgumentException("version: DLPack major version " + Integer.toUnsignedString(major)
                            + " is not " + DLPackStructs.MAJOR_VERSION + "; the producer's deleter was called");
                }
                flags = m.get(JAVA_LONG, DLPackStructs.V_FLAGS);
                tensor = DLPackStructs.V_TENSOR;
            }
            return wrap(m.asSlice(tensor, DLPackStructs.DL_TENSOR.byteSize()), flags, arena, release);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
    }

    private static Array wrap(MemorySegment t, long flags, Arena arena, Runnable release) {
        int ndim = t.get(JAVA_INT, DLPackStructs.T_NDIM);
        if (ndim < 0 || ndim > MAX_RANK) {
            throw new IllegalArgumentException("ndim: " + ndim + " is not in 0.." + MAX_RANK);
        }
        int code = Byte.toUnsignedInt(t.get(JAVA_BYTE, DLPackStructs.T_CODE));
        int bits = Byte.toUnsignedInt(t.get(JAVA_BYTE, DLPackStructs.T_BITS));
        int lanes = Short.toUnsignedInt(t.get(JAVA_SHORT, DLPackStructs.T_LANES));
        if (lanes != 1) {
            throw new IllegalArgumentException("dtype.lanes: " + lanes + " (vector element types are not supported)");
        }
        ElementType type = DLPackDtype.of(code, bits);
        if (type == null) {
            throw new IllegalArgumentException("dtype: code " + code + " with " + bits + " bits has no Tegula element type");
        }
        boolean padded = (flags & DLPackStructs.FLAG_IS_SUBBYTE_TYPE_PADDED) != 0;
        long storage = 8L * type.byteWidth();
        if (bits < 8 && !padded) {
            if (bits == 6) {
                throw new IllegalArgumentException("dtype: packed 6-bit data (code " + code + ") is not supported; "
                        + "Tegula holds f6 one per byte (IS_SUBBYTE_TYPE_PADDED)");
            }
            storage = bits;
        }
        long[] dims = readLongs(t.get(ADDRESS, DLPackStructs.T_SHAPE), ndim, "shape");
        for (int d = 0; d < ndim; d++) {
            if (dims[d] < 0) {
                throw new IllegalArgumentException("shape[" + d + "]: " + dims[d] + " is negative");
            }
        }
        MemorySegment stridePointer = t.get(ADDRESS, DLPackStructs.T_STRIDES);
        long[] strides;
        try {
            strides = stridePointer.address() == 0 ? rowMajor(dims) : readLongs(stridePointer, ndim, "strides");
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("shape: " + java.util.Arrays.toString(dims) + " of " + type
                    + " has more elements than a long counts", e);
        }
        for (int d = 0; d < ndim; d++) {
            if (dims[d] <= 1 && strides[d] < 0) {
                strides[d] = 0;           // a size-1 dimension's stride is never used
            }
        }
        long byteOffset = t.get(JAVA_LONG, DLPackStructs.T_BYTE_OFFSET);
        if (byteOffset < 0 || Math.multiplyHigh(byteOffset, 8) != 0 || (byteOffset * 8) % storage != 0) {
            throw new IllegalArgumentException("byte_offset: " + Long.toUnsignedString(byteOffset)
                    + " is not a whole number of " + storage + "-bit elements");
        }
        long slotOffset = byteOffset * 8 / storage;
        Layout layout = Layout.rowMajor(ndim);
        if (storage < 8) {
            layout = layout.withElementSizeInBits(storage);
        }
        int deviceType = t.get(JAVA_INT, DLPackStructs.T_DEVICE_TYPE);
        int deviceId = t.get(JAVA_INT, DLPackStructs.T_DEVICE_ID);
        MemorySpaceProvider provider = provider(deviceType, deviceId);
        if (deviceType == DLPackStructs.KDL_CUDA_HOST || deviceType == DLPackStructs.KDL_ROCM_HOST) {
            layout = layout.withMemorySpace(PINNED_HOST_MEMORY_SPACE);
        }
        ArrayShape shape;
        long bytes;
        try {
            try {
                shape = ArrayShape.of(type, dims).withLayout(layout);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("shape: " + java.util.Arrays.toString(dims) + " of " + type
                        + " is not a valid shape: " + e.getMessage(), e);
            }
            long last = slotOffset;
            boolean empty = false;
            for (int d = 0; d < ndim; d++) {
                if (strides[d] < 0) {
                    throw new IllegalArgumentException("strides[" + d + "]: " + strides[d] + " is negative (not supported)");
                }
                empty |= dims[d] == 0;
                last = Math.addExact(last, Math.multiplyExact(Math.max(0, dims[d] - 1), strides[d]));
            }
            bytes = empty ? 0 : Math.ceilDiv(Math.multiplyExact(Math.addExact(last, 1), storage), 8);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("shape: the extent of " + java.util.Arrays.toString(dims) + " with strides "
                    + java.util.Arrays.toString(strides) + " overflows a long");
        }
        long data = t.get(ADDRESS, DLPackStructs.T_DATA).address();
        if (data == 0 && bytes != 0) {
            throw new IllegalArgumentException("data: NULL for " + shape.toStringWithoutLayout() + ", which has elements");
        }
        MemorySegment segment = MemorySegment.ofAddress(data).reinterpret(bytes, arena, s -> {
            try {
                release.run();
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.ERROR, "DLPack producer's deleter failed", e);
            }
        });
        if ((flags & DLPackStructs.FLAG_READ_ONLY) != 0) {
            segment = segment.asReadOnly();
        }
        return Array.wrapStrided(segment, shape, slotOffset, strides, provider);
    }

    private static MemorySpaceProvider provider(int deviceType, int deviceId) {
        return switch (deviceType) {
            case DLPackStructs.KDL_CPU, DLPackStructs.KDL_CUDA_HOST, DLPackStructs.KDL_ROCM_HOST,
                 DLPackStructs.KDL_CUDA_MANAGED -> MemorySpaces.host();
            default -> new ForeignDevice(deviceType, deviceId);
        };
    }

    private static long[] readLongs(MemorySegment pointer, int n, String field) {
        if (n == 0) {
            return new long[0];
        }
        if (pointer.address() == 0) {
            throw new IllegalArgumentException(field + ": NULL for ndim " + n);
        }
        return MemorySegment.ofAddress(pointer.address()).reinterpret(8L * n).toArray(JAVA_LONG);
    }

    private static long[] rowMajor(long[] dims) {
        long[] s = new long[dims.length];
        long stride = 1;
        for (int d = dims.length - 1; d >= 0; d--) {
            s[d] = stride;
            stride = d == 0 ? stride : Math.multiplyExact(stride, Math.max(1, dims[d]));   // a wrapped stride would lie
        }
        return s;
    }

    private static void callDeleter(MemorySegment deleter, MemorySegment self) {
        try {
            Downcall.DELETER.invokeExact(deleter, MemorySegment.ofAddress(self.address()));
        } catch (Throwable e) {
            throw new IllegalStateException("DLPack producer's deleter failed", e);
        }
    }

    /** Memory of a DLPack device the host cannot address: it can be wrapped and passed on, never touched. */
    record ForeignDevice(int deviceType, int deviceId) implements MemorySpaceProvider {
        @Override
        public boolean handles(long memorySpace) {
            return false;
        }

        @Override
        public DeviceBuffer allocate(Arena arena, long byteSize, long byteAlignment) {
            throw new UnsupportedOperationException(name() + ": Tegula cannot allocate this device's memory");
        }

        @Override
        public boolean isHostAccessible() {
            return false;
        }

        @Override
        public Completion write(MemorySegment source, DeviceBuffer destination) {
            throw refused();
        }

        @Override
        public Completion read(DeviceBuffer source, MemorySegment destination) {
            throw refused();
        }

        @Override
        public Completion copy(DeviceBuffer source, DeviceBuffer destination) {
            throw refused();
        }

        @Override
        public Mapping map(DeviceBuffer buffer, MapMode mode) {
            throw refused();
        }

        private UnsupportedOperationException refused() {
            return new UnsupportedOperationException(name() + ": Tegula cannot copy or map this device's memory");
        }

        @Override
        public String name() {
            return "DLPack device " + deviceType + ":" + deviceId;
        }
    }
}
