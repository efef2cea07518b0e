#!/usr/bin/env python3
"""Writes the seed corpus the Jazzer fuzz targets replay in every `mvn verify`.

Directories follow Jazzer's convention: src/test/resources/<package>/<TestClass>Inputs/<method>/.
Seeds: the .npy fixtures (run make_npy_fixtures.py first) and damaged copies of them; valid
safetensors files built from the format (8-byte little-endian length, JSON, data) and damaged
copies; JSON texts. Run from the repository root:

    python3 io/src/test/python/make_fuzz_corpus.py
"""
import json
import os
import shutil
import struct

HERE = os.path.dirname(__file__)
RES = os.path.join(HERE, "..", "resources", "dev", "tegula", "io")


def out_dir(package, cls, method):
    d = os.path.join(RES, package, cls + "Inputs", method)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def put(d, name, blob):
    with open(os.path.join(d, name), "wb") as f:
        f.write(blob)


def safetensors(tensors, metadata=None, pad_to=8):
    header, data, off = {}, b"", 0
    if metadata:
        header["__metadata__"] = metadata
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(raw)]}
        off += len(raw)
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % pad_to)
    return struct.pack("<Q", len(text)) + text + data


def npy_raw(header):
    """A version 1.0 .npy prefix holding exactly this header text (no padding)."""
    raw = header.encode("latin1")
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(raw)) + raw


def main():
    npy = out_dir("npy", "NpyFuzzTest", "readNpy")
    fixtures = os.path.join(RES, "npy")
    for name in sorted(os.listdir(fixtures)):
        blob = open(os.path.join(fixtures, name), "rb").read()
        put(npy, name, blob)
        if name in ("f4.npy", "f8_fortran.npy", "v3.npy"):
            put(npy, "truncated-" + name, blob[: len(blob) - 3])
            put(npy, "halfheader-" + name, blob[:40])
            put(npy, "badlen-" + name, blob[:8] + b"\xff\xff" + blob[10:])
    put(npy, "bad-descr.npy", npy_raw("{'descr': '<U8', 'fortran_order': False, 'shape': (1,), }  \n") + b"\0" * 32)
    put(npy, "huge-shape.npy", npy_raw("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }\n"))

    st = out_dir("safetensors", "SafeTensorsFuzzTest", "readSafeTensors")
    i32 = struct.pack("<4i", 1, -2, 3, 4)
    samples = {
        "i32.safetensors": safetensors({"test": ("I32", [2, 2], i32)}, {"format": "pt"}),
        "mixed.safetensors": safetensors({
            "w": ("BF16", [2, 3], bytes(range(12))),
            "b": ("F32", [3], struct.pack("<3f", 1.5, -2.0, 0.25)),
            "m": ("BOOL", [4], b"\x01\x00\x01\x01"),
            "c": ("C64", [1], struct.pack("<2f", 1.0, -1.0)),
            "u": ("U64", [1], struct.pack("<Q", 2**64 - 1)),
        }),
        "f4-f6-f8.safetensors": safetensors({
            "f4": ("F4", [2, 2], b"\x21\x43"),
            "f6": ("F6_E2M3", [4], b"\x3f\x10\x54"),
            "e8": ("F8_E8M0", [2], b"\x7f\x80"),
            "e4": ("F8_E4M3", [2], b"\x38\xb8"),
            "e5": ("F8_E5M2", [2], b"\x3c\xbc"),
        }, {"note": "seeds"}, 64),
        "scalar.safetensors": safetensors({"s": ("F64", [], struct.pack("<d", 3.5))}),
        "empty-tensor.safetensors": safetensors({"e": ("I16", [0, 3], b"")}),
        "no-tensors.safetensors": safetensors({}),
    }
    for name, blob in samples.items():
        put(st, name, blob)
    good = samples["mixed.safetensors"]
    put(st, "truncated.safetensors", good[:-1])
    put(st, "trailing.safetensors", good + b"\0")
    put(st, "lying-length.safetensors", struct.pack("<Q", 1 << 62) + good[8:])
    put(st, "over-cap.safetensors", struct.pack("<Q", 100_000_001) + good[8:])
    put(st, "hole.safetensors", struct.pack("<Q", 60) + b'{"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}      ' + b"\0\0")
    put(st, "overflow.safetensors", struct.pack("<Q", 80) + b'{"a":{"dtype":"F64","shape":[4611686018427387904,4],"data_offsets":[0,8]}}    ' + b"\0" * 8)
    put(st, "unknown-dtype.safetensors", struct.pack("<Q", 56) + b'{"a":{"dtype":"Q8","shape":[1],"data_offsets":[0,1]}}   ' + b"\0")

    js = out_dir("safetensors", "SafeTensorsFuzzTest", "parseJson")
    for i, text in enumerate([
        '{"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"__metadata__":{"k":"v"}}',
        '[1, -2.5e3, true, false, null, "x\\u00e9\\n", {}]',
        '{"deep":' + "[" * 70 + "]" * 70 + "}",
        '{"a":1,"a":2}',
        '"\\ud800"',
        "  123456789012345678901234567890  ",
        "{\"unterminated\": \"abc",
    ]):
        put(js, "seed-%02d.json" % i, text.encode())
    print("corpus written under", os.path.normpath(RES))


if __name__ == "__main__":
    main()
