package dev.tegula.io.dlpack;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The C structs of DLPack 1.x ({@code dlpack.h}), the legacy unversioned {@code DLManagedTensor}
 * included, as {@code java.lang.foreign} layouts, their field offsets, and the enum values and flag
 * bits Tegula uses. Layouts are for a 64-bit platform.
 */
public final class DLPackStructs {
    /** The DLPack major version Tegula speaks; a tensor with another major version is refused. */
    public static final int MAJOR_VERSION = 1;
    /** The DLPack minor version Tegula writes into exported tensors (1.1 adds the fp8/fp6/fp4 codes). */
    public static final int MINOR_VERSION = 1;

    /** {@code DLPackVersion { uint32_t major; uint32_t minor; }} */
    public static final StructLayout DL_PACK_VERSION = MemoryLayout.structLayout(
            JAVA_INT.withName("major"), JAVA_INT.withName("minor")).withName("DLPackVersion");
    /** {@code DLDevice { int32_t device_type; int32_t device_id; }} */
    public static final StructLayout DL_DEVICE = MemoryLayout.structLayout(
            JAVA_INT.withName("device_type"), JAVA_INT.withName("device_id")).withName("DLDevice");
    /** {@code DLDataType { uint8_t code; uint8_t bits; uint16_t lanes; }} */
    public static final StructLayout DL_DATA_TYPE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("code"), JAVA_BYTE.withName("bits"), JAVA_SHORT.withName("lanes")).withName("DLDataType");
    /** {@code DLTensor { void* data; DLDevice device; int32_t ndim; DLDataType dtype; int64_t* shape; int64_t* strides; uint64_t byte_offset; }} */
    public static final StructLayout DL_TENSOR = MemoryLayout.structLayout(
            ADDRESS.withName("data"), DL_DEVICE.withName("device"), JAVA_INT.withName("ndim"),
            DL_DATA_TYPE.withName("dtype"), ADDRESS.withName("shape"), ADDRESS.withName("strides"),
            JAVA_LONG.withName("byte_offset")).withName("DLTensor");
    /** The legacy {@code DLManagedTensor { DLTensor dl_tensor; void* manager_ctx; void (*deleter)(DLManagedTensor*); }} */
    public static final StructLayout DL_MANAGED_TENSOR = MemoryLayout.structLayout(
            DL_TENSOR.withName("dl_tensor"), ADDRESS.withName("manager_ctx"), ADDRESS.withName("deleter"))
            .withName("DLManagedTensor");
    /** {@code DLManagedTensorVersioned { DLPackVersion version; void* manager_ctx; void (*deleter)(...); uint64_t flags; DLTensor dl_tensor; }} */
    public static final StructLayout DL_MANAGED_TENSOR_VERSIONED = MemoryLayout.structLayout(
            DL_PACK_VERSION.withName("version"), ADDRESS.withName("manager_ctx"), ADDRESS.withName("deleter"),
            JAVA_LONG.withName("flags"), DL_TENSOR.withName("dl_tensor")).withName("DLManagedTensorVersioned");

    /** {@code DLPACK_FLAG_BITMASK_READ_ONLY}: the consumer must not write the data. */
    public static final long FLAG_READ_ONLY = 1L;
    /** {@code DLPACK_FLAG_BITMASK_IS_COPIED}: the producer made a copy the consumer owns alone. */
    public static final long FLAG_IS_COPIED = 1L << 1;
    /** {@code DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED}: sub-byte elements take a whole byte each. */
    public static final long FLAG_IS_SUBBYTE_TYPE_PADDED = 1L << 2;

    /** {@code kDLCPU}. */
    public static final int KDL_CPU = 1;
    /** {@code kDLCUDA}. */
    public static final int KDL_CUDA = 2;
    /** {@code kDLCUDAHost}: pinned host memory. */
    public static final int KDL_CUDA_HOST = 3;
    /** {@code kDLROCMHost}: pinned host memory. */
    public static final int KDL_ROCM_HOST = 11;
    /** {@code kDLCUDAManaged}: unified memory the host can address. */
    public static final int KDL_CUDA_MANAGED = 13;

    // field offsets, in bytes
    static final long T_DATA = DL_TENSOR.byteOffset(groupElement("data"));
    static final long T_DEVICE_TYPE = DL_TENSOR.byteOffset(groupElement("device"), groupElement("device_type"));
    static final long T_DEVICE_ID = DL_TENSOR.byteOffset(groupElement("device"), groupElement("device_id"));
    static final long T_NDIM = DL_TENSOR.byteOffset(groupElement("ndim"));
    static final long T_CODE = DL_TENSOR.byteOffset(groupElement("dtype"), groupElement("code"));
    static final long T_BITS = DL_TENSOR.byteOffset(groupElement("dtype"), groupElement("bits"));
    static final long T_LANES = DL_TENSOR.byteOffset(groupElement("dtype"), groupElement("lanes"));
    static final long T_SHAPE = DL_TENSOR.byteOffset(groupElement("shape"));
    static final long T_STRIDES = DL_TENSOR.byteOffset(groupElement("strides"));
    static final long T_BYTE_OFFSET = DL_TENSOR.byteOffset(groupElement("byte_offset"));
    static final long V_MAJOR = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("version"), groupElement("major"));
    static final long V_MINOR = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("version"), groupElement("minor"));
    static final long V_CTX = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("manager_ctx"));
    static final long V_DELETER = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("deleter"));
    static final long V_FLAGS = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("flags"));
    static final long V_TENSOR = DL_MANAGED_TENSOR_VERSIONED.byteOffset(groupElement("dl_tensor"));
    static final long L_TENSOR = DL_MANAGED_TENSOR.byteOffset(groupElement("dl_tensor"));
    static final long L_CTX = DL_MANAGED_TENSOR.byteOffset(groupElement("manager_ctx"));
    static final long L_DELETER = DL_MANAGED_TENSOR.byteOffset(groupElement("deleter"));

    private DLPackStructs() {
    }
}
