#!/usr/bin/env python3
"""Makes the fixture of examples/onnxruntime with NumPy, ONNX and onnxruntime-python (it writes next
to itself):

    pip install numpy onnx onnxruntime safetensors ml_dtypes
    python3 generate.py

Models (each y = x W + b, x f32[2,8], W [8,16], b f32[16], y f32[2,16]):
  linear.onnx       MatMul(x, w) + b, w f32[8,16]
  linear_t.onnx     Gemm(x, wt, b, transB=1): the weight comes transposed, wt f32[16,8]
  linear_f16.onnx   MatMul(x, Cast(w16 to f32)) + b, w16 f16[8,16]
  linear_bf16.onnx  MatMul(x, Cast(wbf16 to f32)) + b, wbf16 bf16[8,16]
Inputs:
  x.npy, w.npy, b.npy     f32, row-major
  w_colmajor.npy          the same W in Fortran (column-major) order
  w16.safetensors         W rounded to f16 ("w16") and to bf16 ("wbf16")
Expected outputs, computed by onnxruntime-python on the CPU (expected.safetensors):
  y           linear.onnx; linear_t.onnx on W^T and the tiled W relayouted give the same bits
  y_t         linear_t.onnx
  y_f16       linear_f16.onnx
  y_bf16      linear_bf16.onnx
  y_written   linear.onnx after w[0,0] is set to WRITTEN (what the example writes into the file)
"""
import os

import ml_dtypes
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from safetensors.numpy import save_file

HERE = os.path.dirname(os.path.abspath(__file__))
WRITTEN = np.float32(-3.25)


def model(name, nodes, inputs):
    graph = helper.make_graph(nodes, name, inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8   # read by ONNX Runtime 1.14 and later
    onnx.checker.check_model(m)
    path = os.path.join(HERE, name + ".onnx")
    onnx.save(m, path)
    return ort.InferenceSession(path, providers=["CPUExecutionProvider"])


def main():
    rng = np.random.default_rng(49)
    x = rng.standard_normal((2, 8), dtype=np.float32)
    w = rng.standard_normal((8, 16), dtype=np.float32)
    b = rng.standard_normal(16, dtype=np.float32)
    f32 = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
    linear = model("linear", [helper.make_node("MatMul", ["x", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])],
                   [f32("x", [2, 8]), f32("w", [8, 16]), f32("b", [16])])
    linear_t = model("linear_t", [helper.make_node("Gemm", ["x", "wt", "b"], ["y"], transB=1)],
                     [f32("x", [2, 8]), f32("wt", [16, 8]), f32("b", [16])])
    cast = lambda name, wname, t: model(name, [helper.make_node("Cast", [wname], ["wf"], to=TensorProto.FLOAT),
                                               helper.make_node("MatMul", ["x", "wf"], ["xw"]),
                                               helper.make_node("Add", ["xw", "b"], ["y"])],
                                        [f32("x", [2, 8]), helper.make_tensor_value_info(wname, t, [8, 16]), f32("b", [16])])
    linear_f16 = cast("linear_f16", "w16", TensorProto.FLOAT16)
    linear_bf16 = cast("linear_bf16", "wbf16", TensorProto.BFLOAT16)

    w16 = w.astype(np.float16)
    wbf16 = w.astype(ml_dtypes.bfloat16)
    written = w.copy()
    written[0, 0] = WRITTEN
    expected = {
        "y": linear.run(None, {"x": x, "w": w, "b": b})[0],
        "y_t": linear_t.run(None, {"x": x, "wt": np.ascontiguousarray(w.T), "b": b})[0],
        "y_f16": linear_f16.run(None, {"x": x, "w16": w16, "b": b})[0],
        # onnxruntime-python takes bf16 as an OrtValue of the bits
        "y_bf16": linear_bf16.run(None, {"x": x, "b": b, "wbf16": ort.OrtValue.ortvalue_from_numpy_with_onnx_type(
            wbf16.view(np.uint16), onnx_element_type=TensorProto.BFLOAT16)})[0],
        "y_written": linear.run(None, {"x": x, "w": written, "b": b})[0],
    }
    np.save(os.path.join(HERE, "x.npy"), x)
    np.save(os.path.join(HERE, "w.npy"), w)
    np.save(os.path.join(HERE, "b.npy"), b)
    np.save(os.path.join(HERE, "w_colmajor.npy"), np.asfortranarray(w))
    # safetensors.numpy has no bf16 type: this file is written by hand (the format is an 8-byte
    # little-endian header length, the JSON header padded with spaces, the data)
    header = b'{"w16":{"dtype":"F16","shape":[8,16],"data_offsets":[0,256]},' \
             b'"wbf16":{"dtype":"BF16","shape":[8,16],"data_offsets":[256,512]}}'
    header += b" " * (-len(header) % 8)
    with open(os.path.join(HERE, "w16.safetensors"), "wb") as f:
        f.write(len(header).to_bytes(8, "little") + header + w16.tobytes() + wbf16.view(np.uint16).tobytes())
    save_file({k: np.ascontiguousarray(v) for k, v in expected.items()}, os.path.join(HERE, "expected.safetensors"))
    print("onnxruntime", ort.__version__, "onnx", onnx.__version__, "numpy", np.__version__)


if __name__ == "__main__":
    main()
