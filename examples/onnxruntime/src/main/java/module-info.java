/**
 * Tegula arrays as ONNX Runtime's inputs and outputs, with no copy where the layout allows it. ONNX
 * Runtime's jar is an automatic module (its manifest names it {@code com.microsoft.onnxruntime}).
 */
module dev.tegula.example.onnxruntime {
    requires dev.tegula.io;
    requires dev.tegula.vector;
    requires com.microsoft.onnxruntime;
}
