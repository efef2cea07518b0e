#!/usr/bin/env python3
"""Reads the tensors of a safetensors file or checkpoint that Tegula wrote, tiled ones included,
with NumPy alone (no Tegula): the reader of docs/interop.md, "Reading a tiled checkpoint without
Tegula". The block between the two marker lines below is that document's code, character for
character (io's TiledCheckpointReaderDocTest checks that they stay equal).

    python3 read_tiled.py CONVERTED ORIGINAL

CONVERTED and ORIGINAL are checkpoint directories (or safetensors files). Checks that every tensor
of CONVERTED, read with read_tiled, equals the tensor of the same name in ORIGINAL bit for bit (same
dimensions, same values; CONVERTED must hold at least one tiled tensor). Exit status 0 when all are
equal, 1 otherwise.
"""
import json
import os
import sys

# --- read_tiled: docs/interop.md ---
import json, re
import numpy as np

# Tegula's element types and safetensors' dtypes as NumPy reads them (bf16: its 16 bits, as uint16)
NUMPY = {"f64": "<f8", "f32": "<f4", "f16": "<f2", "bf16": "<u2", "s64": "<i8", "s32": "<i4", "s16": "<i2",
         "s8": "i1", "u64": "<u8", "u32": "<u4", "u16": "<u2", "u8": "u1", "pred": "?"}
SAFETENSORS = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2", "I64": "<i8", "I32": "<i4",
               "I16": "<i2", "I8": "i1", "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?"}


def read_tiled(path, name):
    """Tensor `name` of the safetensors file `path`, its dimensions in logical (row-major) order."""
    raw = open(path, "rb").read()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    begin, end = header[name]["data_offsets"]
    data = raw[8 + n + begin:8 + n + end]
    text = header.get("__metadata__", {}).get("tegula.shape." + name)
    if text is None:   # stored as itself: a plain safetensors tensor
        return np.frombuffer(data, SAFETENSORS[header[name]["dtype"]]).reshape(header[name]["shape"])
    m = re.fullmatch(r"(\w+)\[([\d,]*)\]\{([\d,]*)(?::(T(?:\([\d,]+\))+)?(?:L\(\d+\))?)?\}", text)
    if m is None:
        raise ValueError(f"{name}: {text}: a layout this reader does not handle (E(n), '*' or S(n))")
    dims = [int(d) for d in m[2].split(",") if d]
    major = [int(d) for d in m[3].split(",") if d][::-1]   # the dimensions from major to minor
    P = [dims[d] for d in major]                            # physical dimensions
    I = [np.arange(p).reshape([-1 if j == i else 1 for j in range(len(P))]) for i, p in enumerate(P)]
    for tile in re.findall(r"\(([\d,]+)\)", m[4] or ""):   # each tile splits the last len(t) dimensions
        t = [int(x) for x in tile.split(",")]
        while len(P) < len(t):
            P, I = [1] + P, [0] + I
        s = len(P) - len(t)
        P = P[:s] + [-(-p // x) for p, x in zip(P[s:], t)] + t
        I = I[:s] + [i // x for i, x in zip(I[s:], t)] + [i % x for i, x in zip(I[s:], t)]
    slot = sum(i * int(np.prod(P[k + 1:])) for k, i in enumerate(I))   # row-major over the tiled dimensions
    return np.frombuffer(data, NUMPY[m[1]])[slot].transpose(np.argsort(major))
# --- end of read_tiled ---


def tensors(location):
    """{name: file} of a checkpoint directory (its index, or its one safetensors file) or of a file."""
    if os.path.isfile(location):
        files = [location]
    else:
        files = sorted(os.path.join(location, f) for f in os.listdir(location) if f.endswith(".safetensors"))
    out = {}
    for f in files:
        with open(f, "rb") as h:
            header = json.loads(h.read(int.from_bytes(h.read(8), "little")))
        out.update({k: f for k in header if k != "__metadata__"})
    return out


def is_tiled(path, name):
    with open(path, "rb") as h:
        header = json.loads(h.read(int.from_bytes(h.read(8), "little")))
    return ":T(" in header.get("__metadata__", {}).get("tegula.shape." + name, "")


def main(converted, original):
    ours, theirs = tensors(converted), tensors(original)
    equal, tiled, failed = 0, 0, []
    for name, path in sorted(ours.items()):
        a = read_tiled(path, name)
        b = read_tiled(theirs[name], name)
        if a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes():
            equal += 1
            tiled += is_tiled(path, name)
        else:
            failed.append(name)
            print("FAIL  %s: %s %s, expected %s %s" % (name, a.dtype, a.shape, b.dtype, b.shape))
    if tiled == 0:
        failed.append("no tiled tensor in " + converted)
    print("numpy reader: %d of %d tensors equal the original's bit for bit (%d of them tiled)%s"
          % (equal, len(ours), tiled, "" if not failed else "; FAILED: " + ", ".join(failed)))
    return 0 if not failed else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: read_tiled.py CONVERTED ORIGINAL")
    sys.exit(main(sys.argv[1], sys.argv[2]))
