/** The OpenCL example: a safetensors weight in a tiled OpenCL buffer, a kernel on it, NumPy's result to check. */
module dev.tegula.example.opencl {
    requires dev.tegula.io;
    requires dev.tegula.opencl;
}
