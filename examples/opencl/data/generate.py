"""Writes the example's data with NumPy alone: a safetensors file with one f32[16,256] weight, and
the result the example's OpenCL kernel must give, y = W @ x with x[c] = (c % 7) - 3.

The weights are small integers, so every product and sum is exact in float32: the kernel's result
must equal NumPy's bit for bit, whatever order it adds in. Run from this folder:
    python3 data/generate.py
"""
import json
import struct
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROWS, COLS = 16, 256


def main():
    rng = np.random.default_rng(20261207)
    w = rng.integers(-8, 9, size=(ROWS, COLS)).astype(np.float32)
    x = (np.arange(COLS) % 7 - 3).astype(np.float32)
    y = (w.astype(np.float64) @ x.astype(np.float64)).astype(np.float32)

    # safetensors: an 8-byte little-endian header length, the JSON header (padded with spaces to a
    # multiple of 8), then the row-major little-endian data
    data = w.astype("<f4").tobytes()
    header = json.dumps({"weight": {"dtype": "F32", "shape": [ROWS, COLS], "data_offsets": [0, len(data)]}},
                        separators=(",", ":")).encode()
    header += b" " * (-len(header) % 8)
    (HERE / "weights.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + data)
    np.save(HERE / "expected.npy", y)
    print("wrote weights.safetensors and expected.npy; y[:4] =", y[:4])


if __name__ == "__main__":
    main()
