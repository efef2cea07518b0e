#!/usr/bin/env python3
"""Writes the .npy fixtures of NpyTest with NumPy itself (numpy.save / numpy.lib.format.write_array).

Debian's python3-numpy (1.24.2 here: `apt-get install python3-numpy`, run with /usr/bin/python3)
writes the same bytes as make_npy_fixtures.py, which builds them from the format specification
without NumPy; check with:

    /usr/bin/python3 io/src/test/python/make_npy_fixtures_numpy.py OUTDIR
    cmp OUTDIR/f4.npy io/src/test/resources/dev/tegula/io/npy/f4.npy   # and so on

py2_long.npy (a shape written as (2L, 3L) by Python 2's NumPy) cannot be produced by a current
NumPy and stays built by hand.
"""
import os
import sys

import numpy as np
from numpy.lib import format as npformat

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "resources", "dev", "tegula", "ffm", "io", "npy")


def arrays():
    yield "bool.npy", np.array([True, False, True, True]), (1, 0)
    yield "i1.npy", np.array([1, -2, 127], dtype="|i1"), (1, 0)
    yield "i2.npy", np.array([1, -2, 32767], dtype="<i2"), (1, 0)
    yield "i4.npy", np.array([1, -2, 2147483647], dtype="<i4"), (1, 0)
    yield "i8.npy", np.array([1, -2, 9223372036854775807], dtype="<i8"), (1, 0)
    yield "u1.npy", np.array([1, 200, 255], dtype="|u1"), (1, 0)
    yield "u2.npy", np.array([1, 200, 65535], dtype="<u2"), (1, 0)
    yield "u4.npy", np.array([1, 200, 4294967295], dtype="<u4"), (1, 0)
    yield "u8.npy", np.array([1, 200, 18446744073709551615], dtype="<u8"), (1, 0)
    yield "f2.npy", np.array([1.5, -2.0, 65504.0], dtype="<f2"), (1, 0)
    yield "f4.npy", np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.5]], dtype="<f4"), (1, 0)
    yield "f8.npy", np.array([[0.0, 1.0, 2.0], [3.0, 4.0, -5.25]], dtype="<f8"), (1, 0)
    yield "c8.npy", np.array([1 + 2j, -3 + 0.5j], dtype="<c8"), (1, 0)
    yield "c16.npy", np.array([1 + 2j, -3 + 0.25j], dtype="<c16"), (1, 0)
    yield "f8_fortran.npy", np.asfortranarray(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype="<f8")), (1, 0)
    yield "i4_fortran.npy", np.asfortranarray(np.array([[1, 2], [3, 4], [5, 6]], dtype="<i4")), (1, 0)
    yield "i4_big.npy", np.array([1, -2, 0x01020304], dtype=">i4"), (1, 0)
    yield "f8_big.npy", np.array([[1.0, -2.5], [3.25, 1e300]], dtype=">f8"), (1, 0)
    yield "c8_big.npy", np.array([1 + 2j, -3 + 0.5j], dtype=">c8"), (1, 0)
    yield "f2_big.npy", np.array([1.5, -0.25], dtype=">f2"), (1, 0)
    yield "scalar.npy", np.array(3.5, dtype="<f8"), (1, 0)
    yield "empty.npy", np.zeros((0,), dtype="<f4"), (1, 0)
    yield "empty_2d.npy", np.zeros((2, 0), dtype="<i8"), (1, 0)
    yield "v2.npy", np.array([[1.0, 2.0], [3.0, 4.0]], dtype="<f4"), (2, 0)
    yield "v3.npy", np.array([7, 8, 9], dtype="<i2"), (3, 0)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, a, version in arrays():
        with open(os.path.join(OUT, name), "wb") as f:
            npformat.write_array(f, a, version=version)
    print("wrote fixtures with NumPy", np.__version__, "to", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
