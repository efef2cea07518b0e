#!/usr/bin/env python3
"""Reads the GGUF file Tegula's writer produced (GgufWriterTest.sample) with llama.cpp's reference
reader, gguf-py's GGUFReader, and checks every metadata value, every tensor's name, type, shape and
values, and that the Q8_0 / Q4_0 blocks are byte-identical to gguf.quants.quantize of the same input.

    pip install gguf numpy
    python3 io/src/test/python/check_gguf_written.py

It writes its report next to the file (written_by_tegula.check.txt), naming the file's SHA-256 and
ending with ALL OK; GgufWriterTest requires the writer to produce exactly the bytes checked here.
After a deliberate change to the writer: run GgufWriterTest, copy io/target/written_by_tegula.gguf
into the fixtures, and run this script again.
"""
import hashlib
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T, GGUFValueType as V

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "dev", "tegula", "io", "gguf")
PATH = os.path.join(HERE, "written_by_tegula.gguf")
lines = []


def check(cond, what):
    lines.append(("ok   " if cond else "FAIL ") + what)
    if not cond:
        print("\n".join(lines), file=sys.stderr)
        sys.exit(1)


def main():
    data = open(PATH, "rb").read()
    lines.append("file written_by_tegula.gguf sha256 " + hashlib.sha256(data).hexdigest())
    r = gguf.GGUFReader(PATH)
    f = r.fields

    def scalar(key, vtype, value):
        fld = f[key]
        check(fld.types == [vtype] and fld.contents() == value, f"{key} = {value!r} ({vtype.name})")

    scalar("general.architecture", V.STRING, "tegula")
    scalar("general.alignment", V.UINT32, 64)
    check(r.alignment == 64, "reader alignment 64")
    scalar("t.u8", V.UINT8, 255)
    scalar("t.i8", V.INT8, -128)
    scalar("t.u16", V.UINT16, 65535)
    scalar("t.i16", V.INT16, -32768)
    scalar("t.u32", V.UINT32, 0xFFFFFFFF)
    scalar("t.i32", V.INT32, -2**31)
    scalar("t.u64", V.UINT64, 2**64 - 1)
    scalar("t.i64", V.INT64, -2**63)
    scalar("t.f32", V.FLOAT32, 1.5)
    scalar("t.f64", V.FLOAT64, -2.25)
    scalar("t.bool", V.BOOL, False)
    scalar("t.string", V.STRING, "ünïcode ✓")
    check(f["t.arr.f32"].types == [V.ARRAY, V.FLOAT32] and f["t.arr.f32"].contents() == [1.0, 2.0, 3.0], "t.arr.f32")
    check(f["t.arr.string"].types == [V.ARRAY, V.STRING] and f["t.arr.string"].contents() == ["x", "yy"],
          "t.arr.string")
    nested = f["t.arr.arr"]
    # gguf-py's reader lists an array of arrays' types and parts but has no contents() for it: read the parts
    flat = [int(p[0]) for p in nested.parts[nested.data[0]:] if len(p) == 1 and p.dtype == np.int16]
    check(nested.types[:2] == [V.ARRAY, V.ARRAY] and V.INT16 in nested.types and flat == [1, -2, 3],
          f"t.arr.arr types {[t.name for t in nested.types]} int16 items {flat}")

    tensors = {t.name: t for t in r.tensors}
    base = np.arange(15).reshape(3, 5) - 6
    plain = {"f32": (T.F32, np.float32), "f16": (T.F16, np.float16), "bf16": (T.BF16, None), "f64": (T.F64, np.float64),
             "s8": (T.I8, np.int8), "s16": (T.I16, np.int16), "s32": (T.I32, np.int32), "s64": (T.I64, np.int64)}
    for name, (qt, dt) in plain.items():
        t = tensors["plain." + name]
        check(t.tensor_type == qt and list(t.shape) == [5, 3] and t.data_offset % 64 == 0,
              f"plain.{name}: {t.tensor_type.name} ne {[int(v) for v in t.shape]}")
        if dt is None:
            values = gguf.quants.dequantize(np.asarray(t.data).view(np.uint8), T.BF16).reshape(3, 5)
        else:
            values = np.asarray(t.data).reshape(3, 5)
        check(np.array_equal(values.astype(np.float64), base), f"plain.{name} values")
    t = tensors["tiled.f32"]
    check(list(t.shape) == [3, 10] and np.array_equal(np.asarray(t.data).reshape(10, 3),
                                                      np.arange(30, dtype=np.float32).reshape(10, 3)),
          "tiled.f32 written row-major, ne [3, 10]")
    x = np.load(os.path.join(HERE, "quant_input.npy"))
    for qt, src in ((T.Q8_0, x), (T.Q4_0, gguf.quants.dequantize(gguf.quants.quantize(x, T.BF16), T.BF16))):
        t = tensors["q." + qt.name]
        mine = np.asarray(t.data).view(np.uint8).reshape(-1)
        ref = gguf.quants.quantize(src, qt).reshape(-1)
        check(t.tensor_type == qt and list(t.shape) == [64, 4], f"q.{qt.name}: type and ne [64, 4]")
        check(np.array_equal(mine, ref), f"q.{qt.name}: blocks byte-identical to gguf.quants.quantize")
    check(len(r.tensors) == 11, "11 tensors")
    lines.append("ALL OK")
    open(os.path.join(HERE, "written_by_tegula.check.txt"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
