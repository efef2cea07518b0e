#!/usr/bin/env python3
"""Writes the .npy fixtures of NpyTest, byte for byte as numpy.save would, WITHOUT NumPy.

NumPy is not installed where these were made (and PyPI was unreachable), so the files are built
from the format specification (NEP 1 / numpy.lib.format): magic b'\\x93NUMPY', version, a
little-endian header length (uint16 for 1.0, uint32 for 2.0/3.0), the header dict repr with sorted
keys, 21 - len(repr(growth axis)) spaces, then spaces and a newline up to a multiple of 64 bytes
(a full 64 when already aligned), then the raw data. Run from the repository root:

    python3 io/src/test/python/make_npy_fixtures.py

Every file is listed in FIXTURES with the logical values NpyTest checks.
"""
import os
import struct

OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "dev", "tegula", "io", "npy")


def header(descr, fortran, shape, version=(1, 0), long_suffix=False):
    if long_suffix:   # a Python 2 writer: (2L, 3L)
        shape_repr = "(" + ", ".join("%dL" % d for d in shape) + ("," if len(shape) == 1 else "") + ")"
    else:
        shape_repr = repr(tuple(shape))
    text = "{'descr': %r, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_repr)
    if shape:
        text += " " * (21 - len(repr(shape[-1 if fortran else 0])))
    enc = "utf8" if version == (3, 0) else "latin1"
    raw = text.encode(enc)
    fmt = "<H" if version == (1, 0) else "<I"
    hlen = len(raw) + 1
    pad = 64 - ((6 + 2 + struct.calcsize(fmt) + hlen) % 64)
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, hlen + pad) + raw + b" " * pad + b"\n"


def data(code, order, values):
    out = b""
    for v in values:
        if code.endswith("c8") or code.endswith("c16"):
            f = "f" if code.endswith("c8") else "d"
            out += struct.pack(order + f + f, v.real, v.imag)
        else:
            out += struct.pack(order + code, v)
    return out


def f_order(values, shape):
    """Row-major logical values laid out in column-major (Fortran) order."""
    rows, cols = shape
    return [values[i * cols + j] for j in range(cols) for i in range(rows)]


# name: (descr, fortran, shape, struct code, byte order, row-major values, version, long suffix)
FIXTURES = {
    "bool.npy": ("|b1", False, (4,), "?", "<", [True, False, True, True], (1, 0), False),
    "i1.npy": ("|i1", False, (3,), "b", "<", [1, -2, 127], (1, 0), False),
    "i2.npy": ("<i2", False, (3,), "h", "<", [1, -2, 32767], (1, 0), False),
    "i4.npy": ("<i4", False, (3,), "i", "<", [1, -2, 2147483647], (1, 0), False),
    "i8.npy": ("<i8", False, (3,), "q", "<", [1, -2, 9223372036854775807], (1, 0), False),
    "u1.npy": ("|u1", False, (3,), "B", "<", [1, 200, 255], (1, 0), False),
    "u2.npy": ("<u2", False, (3,), "H", "<", [1, 200, 65535], (1, 0), False),
    "u4.npy": ("<u4", False, (3,), "I", "<", [1, 200, 4294967295], (1, 0), False),
    "u8.npy": ("<u8", False, (3,), "Q", "<", [1, 200, 18446744073709551615], (1, 0), False),
    "f2.npy": ("<f2", False, (3,), "e", "<", [1.5, -2.0, 65504.0], (1, 0), False),
    "f4.npy": ("<f4", False, (2, 3), "f", "<", [0.0, 1.0, 2.0, 3.0, 4.0, 5.5], (1, 0), False),
    "f8.npy": ("<f8", False, (2, 3), "d", "<", [0.0, 1.0, 2.0, 3.0, 4.0, -5.25], (1, 0), False),
    "c8.npy": ("<c8", False, (2,), "c8", "<", [complex(1, 2), complex(-3, 0.5)], (1, 0), False),
    "c16.npy": ("<c16", False, (2,), "c16", "<", [complex(1, 2), complex(-3, 0.25)], (1, 0), False),
    "f8_fortran.npy": ("<f8", True, (2, 3), "d", "<", [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], (1, 0), False),
    "i4_fortran.npy": ("<i4", True, (3, 2), "i", "<", [1, 2, 3, 4, 5, 6], (1, 0), False),
    "i4_big.npy": (">i4", False, (3,), "i", ">", [1, -2, 0x01020304], (1, 0), False),
    "f8_big.npy": (">f8", False, (2, 2), "d", ">", [1.0, -2.5, 3.25, 1e300], (1, 0), False),
    "c8_big.npy": (">c8", False, (2,), "c8", ">", [complex(1, 2), complex(-3, 0.5)], (1, 0), False),
    "f2_big.npy": (">f2", False, (2,), "e", ">", [1.5, -0.25], (1, 0), False),
    "scalar.npy": ("<f8", False, (), "d", "<", [3.5], (1, 0), False),
    "empty.npy": ("<f4", False, (0,), "f", "<", [], (1, 0), False),
    "empty_2d.npy": ("<i8", False, (2, 0), "q", "<", [], (1, 0), False),
    "v2.npy": ("<f4", False, (2, 2), "f", "<", [1.0, 2.0, 3.0, 4.0], (2, 0), False),
    "v3.npy": ("<i2", False, (3,), "h", "<", [7, 8, 9], (3, 0), False),
    "py2_long.npy": ("<i4", False, (2, 3), "i", "<", [1, 2, 3, 4, 5, 6], (1, 0), True),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (descr, fortran, shape, code, order, values, version, long_suffix) in FIXTURES.items():
        laid = f_order(values, shape) if fortran else values
        blob = header(descr, fortran, list(shape), version, long_suffix) + data(code, order, laid)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(blob)
    print("wrote", len(FIXTURES), "fixtures to", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
