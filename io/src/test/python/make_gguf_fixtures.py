#!/usr/bin/env python3
"""Writes the GGUF fixtures of GgufTest with llama.cpp's own Python package (gguf-py).

    pip install gguf numpy
    python3 io/src/test/python/make_gguf_fixtures.py

Outputs, in io/src/test/resources/dev/tegula/io/gguf/:
  all_types_v3.gguf   metadata of every value type (arrays and an array of arrays included) and one
                      tensor per type: the plain types, the ten block types Tegula dequantizes, and
                      IQ4_NL (listed but not dequantized by Tegula); written by gguf.GGUFWriter
  all_types_v2.gguf   the same bytes with the version field set to 2 (v2 and v3 have one layout
                      for little-endian files)
  ref_<TYPE>.npy      gguf.quants.dequantize of that tensor's bytes: f32, in Tegula's dimension order
  quant_input.npy     the f32 input that gguf.quants quantized into the Q8_0 and Q4_0 tensors
                      (GgufTest quantizes it with Tegula and compares bytes)

Q4_0..Q8_0 are quantized from Gaussian data by gguf.quants; the K-quants (which gguf-py cannot
quantize) are random block bytes with finite, small f16 scales, dequantized by gguf.quants.
"""
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf.constants import GGML_QUANT_SIZES

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "dev", "tegula", "io", "gguf")
rng = np.random.default_rng(20261123)

QUANTIZED = [T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0]
RANDOM_BLOCKS = [T.Q2_K, T.Q3_K, T.Q4_K, T.Q5_K, T.Q6_K]
# byte offsets of the f16 scales in one block, per type
SCALES = {T.Q2_K: [80, 82], T.Q3_K: [108], T.Q4_K: [0, 2], T.Q5_K: [0, 2], T.Q6_K: [208], T.IQ4_NL: [0]}


def random_blocks(qtype, rows, cols):
    block, size = GGML_QUANT_SIZES[qtype]
    n = rows * cols // block
    b = rng.integers(0, 256, size=(n, size), dtype=np.uint8)
    for at in SCALES[qtype]:
        d = (rng.standard_normal(n) * 0.05).astype(np.float16)
        b[:, at:at + 2] = d.view(np.uint8).reshape(n, 2)
    return b.reshape(rows, cols // block * size)


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "all_types_v3.gguf")
    w = gguf.GGUFWriter(path, arch="tegula-test")
    V = gguf.GGUFValueType
    w.add_key_value("t.u8", 200, V.UINT8)
    w.add_key_value("t.i8", -100, V.INT8)
    w.add_key_value("t.u16", 60000, V.UINT16)
    w.add_key_value("t.i16", -30000, V.INT16)
    w.add_key_value("t.u32", 4000000000, V.UINT32)
    w.add_key_value("t.i32", -2000000000, V.INT32)
    w.add_key_value("t.u64", 18000000000000000000, V.UINT64)
    w.add_key_value("t.i64", -9000000000000000000, V.INT64)
    w.add_key_value("t.f32", 0.1, V.FLOAT32)
    w.add_key_value("t.f64", 0.1, V.FLOAT64)
    w.add_key_value("t.bool", True, V.BOOL)
    w.add_key_value("t.string", "Grüße, 世界", V.STRING)
    w.add_key_value("t.arr.u8", [1, 2, 255], V.ARRAY, sub_type=V.UINT8)
    w.add_key_value("t.arr.i16", [-1, 2, -3], V.ARRAY, sub_type=V.INT16)
    w.add_key_value("t.arr.u32", [1, 4000000000], V.ARRAY, sub_type=V.UINT32)
    w.add_key_value("t.arr.i64", [-5, 6], V.ARRAY, sub_type=V.INT64)
    w.add_key_value("t.arr.f32", [0.5, -1.25], V.ARRAY, sub_type=V.FLOAT32)
    w.add_key_value("t.arr.f64", [0.1], V.ARRAY, sub_type=V.FLOAT64)
    w.add_key_value("t.arr.bool", [True, False, True], V.ARRAY, sub_type=V.BOOL)
    w.add_key_value("t.arr.string", ["a", "", "ü"], V.ARRAY, sub_type=V.STRING)
    w.add_key_value("t.arr.arr", [[1, 2], [3]], V.ARRAY)
    w.add_key_value("t.arr.long", list(range(100)), V.ARRAY, sub_type=V.INT32)

    # plain types: numpy shape (3, 5) is ne = [5, 3]; one 3-d tensor (2, 3, 4) is ne = [4, 3, 2]
    base = np.arange(15, dtype=np.float64).reshape(3, 5) * 1.5 - 7
    w.add_tensor("plain.f32", base.astype(np.float32))
    w.add_tensor("plain.f16", base.astype(np.float16))
    bf16 = gguf.quants.quantize(base.astype(np.float32), T.BF16)
    w.add_tensor("plain.bf16", bf16, raw_dtype=T.BF16)
    w.add_tensor("plain.f64", base)
    w.add_tensor("plain.i8", base.astype(np.int8))
    w.add_tensor("plain.i16", (base * 1000).astype(np.int16))
    w.add_tensor("plain.i32", (base * 100000).astype(np.int32))
    w.add_tensor("plain.i64", (base * 1e12).astype(np.int64))
    w.add_tensor("plain.f32_3d", np.arange(24, dtype=np.float32).reshape(2, 3, 4))

    quant_input = rng.standard_normal((4, 64)).astype(np.float32)
    quant_input[1, 5] = 0  # a zero
    quant_input[2, 0:32] = 0  # an all-zero block (d = 0)
    quant_input[3, 7] = 4.0  # a large value, the block's maximum
    np.save(os.path.join(OUT, "quant_input.npy"), quant_input)
    for q in QUANTIZED:
        blocks = gguf.quants.quantize(quant_input, q)
        w.add_tensor("q." + q.name, blocks, raw_dtype=q)
        np.save(os.path.join(OUT, "ref_" + q.name + ".npy"), gguf.quants.dequantize(blocks, q))
    for q in RANDOM_BLOCKS:
        blocks = random_blocks(q, 2, 512)
        w.add_tensor("q." + q.name, blocks, raw_dtype=q)
        np.save(os.path.join(OUT, "ref_" + q.name + ".npy"), gguf.quants.dequantize(blocks, q))
    w.add_tensor("q.IQ4_NL", random_blocks(T.IQ4_NL, 2, 64), raw_dtype=T.IQ4_NL)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()

    data = bytearray(open(path, "rb").read())
    assert data[4:8] == (3).to_bytes(4, "little")
    data[4:8] = (2).to_bytes(4, "little")
    open(os.path.join(OUT, "all_types_v2.gguf"), "wb").write(bytes(data))

    # read back with the reference reader, to be sure the fixture says what this script meant
    r = gguf.GGUFReader(path)
    shapes = {t.name: list(t.shape) for t in r.tensors}
    assert shapes["plain.f32_3d"] == [4, 3, 2], shapes["plain.f32_3d"]
    print("wrote", len(r.tensors), "tensors,", len(r.fields), "fields to", os.path.normpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
