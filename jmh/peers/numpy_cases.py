#!/usr/bin/env python3
"""Times NumPy on the relayout cases of RelayoutBench, next to a copy of the same bytes.

    python3 jmh/peers/numpy_cases.py [--reps N] [--threads 1]

NumPy's transposing copy (np.ascontiguousarray of a transposed view) is single-threaded. GB/s count
bytes read + written (2 x the array's bytes); the copy is np.copyto between two other arrays of the
same size. Medians of --reps runs. NumPy allocates large arrays on huge pages where the OS allows
(its default madvise hugepage setting on Linux). bf16 needs the ml_dtypes package; without it the
bf16 cases are timed as the same bits in uint16, which moves exactly the same bytes.
"""
import argparse
import statistics
import time

import numpy as np

try:
    import ml_dtypes
    BF16 = ml_dtypes.bfloat16
except ImportError:  # same bytes, no conversion involved in a pure relayout
    BF16 = np.uint16

# name, dtype, shape (row-major), permutation as np.transpose takes it
CASES = [
    ("f32_8192x8192_T", np.float32, (8192, 8192), (1, 0)),
    ("bf16_8192x8192_T", BF16, (8192, 8192), (1, 0)),
    ("f32_3d_210", np.float32, (256, 512, 512), (2, 1, 0)),
    ("f32_3d_102", np.float32, (256, 512, 512), (1, 0, 2)),
    ("f32_3d_021", np.float32, (256, 512, 512), (0, 2, 1)),
    ("f32_4d_3210", np.float32, (64, 64, 64, 64), (3, 2, 1, 0)),
    ("f32_4d_0231", np.float32, (64, 64, 64, 64), (0, 2, 3, 1)),
]


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    print(f"# NumPy {np.__version__}, bf16 as {np.dtype(BF16).name}, {args.reps} repetitions, medians")
    print("| case | NumPy GB/s | copy GB/s | ratio |")
    print("|---|---:|---:|---:|")
    for name, dtype, shape, perm in CASES:
        a = np.arange(np.prod(shape), dtype=np.uint32).astype(np.float32).astype(dtype).reshape(shape)
        out = np.empty(tuple(shape[p] for p in perm), dtype=dtype)
        c1 = np.ones_like(a)
        c2 = np.empty_like(a)
        expect = np.transpose(a, perm)
        np.copyto(out, expect)
        assert np.array_equal(out.view(np.uint8), np.ascontiguousarray(expect).view(np.uint8))
        t = timed(lambda: np.copyto(out, np.transpose(a, perm)), args.reps)
        tc = timed(lambda: np.copyto(c2, c1), args.reps)
        nbytes = 2 * a.nbytes
        print(f"| {name} | {nbytes / t / 1e9:.2f} | {nbytes / tc / 1e9:.2f} | {tc / t:.2f} |")
        del a, out, c1, c2, expect


if __name__ == "__main__":
    main()
