/**
 * Tegula OpenCL: device memory behind an XLA memory space ({@code S(1)} by default) through a
 * hand-written FFM binding of the OpenCL C API ({@code libOpenCL.so.1}), with relayout kernels
 * generated from layouts' slot math. Needs native access: {@code --enable-native-access=dev.tegula.opencl}.
 */
module dev.tegula.opencl {
    requires transitive dev.tegula.ffm;
    exports dev.tegula.opencl;
    provides dev.tegula.ffm.MemorySpaceProvider with dev.tegula.opencl.OpenCLMemory;
}
