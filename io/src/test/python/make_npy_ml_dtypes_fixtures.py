#!/usr/bin/env python3
"""Writes the .npy fixtures of NpyMlDtypesTest with NumPy and ml_dtypes: arrays of types NumPy has no
dtype string for, which numpy.save writes with a void dtype of the element's width.

    pip install numpy ml_dtypes
    python3 io/src/test/python/make_npy_ml_dtypes_fixtures.py [OUTDIR]

bf16_ml_dtypes.npy: bfloat16 [2,3] holding 0.5, -1.25, 3.0, inf, -0.0, 1e-40 (a subnormal, rounded);
descr '<V2'. f8e4m3fn_ml_dtypes.npy: float8_e4m3fn [4] holding 1.0, -2.5, 448.0, 0.015625; descr '<V1'.
The test reads them with an explicit element type and compares the values above.
"""
import os
import sys

import ml_dtypes
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "resources", "dev", "tegula", "io", "npy")

bf16 = np.array([[0.5, -1.25, 3.0], [np.inf, -0.0, 1e-40]], dtype=ml_dtypes.bfloat16)
f8 = np.array([1.0, -2.5, 448.0, 0.015625], dtype=ml_dtypes.float8_e4m3fn)
for name, a in (("bf16_ml_dtypes.npy", bf16), ("f8e4m3fn_ml_dtypes.npy", f8)):
    path = os.path.join(OUT, name)
    np.save(path, a)
    with open(path, "rb") as f:
        head = f.read(128)
    print(name, head[10:head.index(b"}") + 1].decode("latin-1"))
