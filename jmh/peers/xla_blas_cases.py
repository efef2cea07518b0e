#!/usr/bin/env python3
"""Times XLA's TransposePlan and OpenBLAS's somatcopy on the relayout cases of RelayoutBench.

    python3 jmh/peers/xla_blas_cases.py --peer xla|openblas [--case NAME ...] [--pages huge|4k]
        [--threads N] [--reps N]

xla: jax.device_put of a transposed NumPy view on the CPU device. The view's strides go to the PJRT
CPU client, which makes the dense (row-major) device buffer with XLA's TransposePlan; the time is the
call and its block_until_ready, so it includes XLA allocating that buffer (and the first write of its
pages) every call, as every device_put does. openblas: cblas_somatcopy (row-major, transposed,
alpha 1) of the 2-D cases, from the OpenBLAS that NumPy's wheel bundles (exported there as
scipy_cblas_somatcopy64_, 64-bit integers); other cases are not run.

The process runs on --threads CPUs (its affinity is cut to the first N it may use), with
OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and XLA's Eigen pool set to N. Source (and for OpenBLAS the
destination) are mapped anonymously and marked MADV_HUGEPAGE (--pages huge) or MADV_NOHUGEPAGE
(--pages 4k); XLA's own destination buffer is on whatever pages its allocator gets. Each result is
compared with NumPy's transpose. Prints one line per case, "| CASE | GB/s |", GB/s counting bytes read
+ written (twice the array's bytes), the median of --reps timed runs after one untimed run.
"""
import argparse
import ctypes
import glob
import mmap
import os
import statistics
import sys
import time


def limit_threads(n):
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, cpus[:n])
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ[var] = str(n)
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen="
                               + ("true" if n > 1 else "false") + f" intra_op_parallelism_threads={n}").strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


args_early = argparse.ArgumentParser(add_help=False)
args_early.add_argument("--threads", type=int, default=1)
limit_threads(max(1, args_early.parse_known_args()[0].threads))

import numpy as np  # noqa: E402  (after the thread limits, which the libraries read when loaded)

# name, dtype, shape (row-major), permutation as np.transpose takes it (as numpy_cases.py)
CASES = [
    ("f32_8192x8192_T", np.float32, (8192, 8192), (1, 0)),
    ("f32_3d_210", np.float32, (256, 512, 512), (2, 1, 0)),
    ("f32_3d_102", np.float32, (256, 512, 512), (1, 0, 2)),
    ("f32_3d_021", np.float32, (256, 512, 512), (0, 2, 1)),
    ("f32_4d_3210", np.float32, (64, 64, 64, 64), (3, 2, 1, 0)),
    ("f32_4d_0231", np.float32, (64, 64, 64, 64), (0, 2, 3, 1)),
]


def mapped(nbytes, pages, dtype, shape):
    """{return an array over an anonymous mapping of its own, marked for the page size asked}"""
    m = mmap.mmap(-1, max(1, nbytes), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    advice = getattr(mmap, "MADV_HUGEPAGE" if pages == "huge" else "MADV_NOHUGEPAGE", None)
    if advice is not None:
        m.madvise(advice)
    a = np.frombuffer(m, dtype=dtype, count=int(np.prod(shape))).reshape(shape)
    a[...] = 0   # pages of its own before any timing
    return a


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def openblas_somatcopy():
    """{return scipy_cblas_somatcopy64_ of NumPy's bundled OpenBLAS, typed}"""
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas64_*"))
    libs += glob.glob(os.path.join(os.path.dirname(np.__file__), ".libs", "libscipy_openblas64_*"))
    if not libs:
        sys.exit("xla_blas_cases.py: no bundled OpenBLAS (libscipy_openblas64_*) beside this NumPy")
    f = ctypes.CDLL(libs[0]).scipy_cblas_somatcopy64_
    i64 = ctypes.c_int64
    f.argtypes = [ctypes.c_int, ctypes.c_int, i64, i64, ctypes.c_float, ctypes.c_void_p, i64, ctypes.c_void_p, i64]
    f.restype = None
    return f


ROW_MAJOR = 101
TRANS = 112


def run_openblas(name, dtype, shape, perm, pages, reps):
    if len(shape) != 2 or tuple(perm) != (1, 0):
        return None
    somatcopy = openblas_somatcopy()
    rows, cols = shape
    a = mapped(rows * cols * 4, pages, dtype, shape)
    a[...] = np.arange(rows * cols, dtype=np.uint32).astype(np.float32).reshape(shape)
    b = mapped(rows * cols * 4, pages, dtype, (cols, rows))
    call = lambda: somatcopy(ROW_MAJOR, TRANS, rows, cols, 1.0, a.ctypes.data, cols, b.ctypes.data, rows)
    call()
    if not np.array_equal(b, a.T):
        raise RuntimeError(name + ": cblas_somatcopy's result is not the transpose")
    return 2 * a.nbytes / timed(call, reps) / 1e9


def run_xla(name, dtype, shape, perm, pages, reps):
    import jax
    dev = jax.devices("cpu")[0]
    a = mapped(int(np.prod(shape)) * np.dtype(dtype).itemsize, pages, dtype, shape)
    a[...] = np.arange(int(np.prod(shape)), dtype=np.uint32).astype(np.float32).astype(dtype).reshape(shape)
    view = np.transpose(a, perm)   # strided: device_put hands its strides to the PJRT client
    out = jax.device_put(view, dev).block_until_ready()
    if not np.array_equal(np.asarray(out), view):
        raise RuntimeError(name + ": device_put's result is not the transpose")
    del out

    def call():
        x = jax.device_put(view, dev)
        x.block_until_ready()
        x.delete()

    return 2 * a.nbytes / timed(call, reps) / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, choices=["xla", "openblas"])
    ap.add_argument("--case", action="append", help="a case name (repeatable); default: every case")
    ap.add_argument("--pages", default="huge", choices=["huge", "4k"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--scale", type=int, default=1,
                    help="divide every dimension by this (a quick check of the script; not for figures)")
    a = ap.parse_args()
    names = set(a.case or [c[0] for c in CASES])
    unknown = names - {c[0] for c in CASES}
    if unknown:
        sys.exit("xla_blas_cases.py: unknown case(s) " + ", ".join(sorted(unknown)))
    if a.peer == "xla":
        import jax
        version = "jax " + jax.__version__
    else:
        version = "OpenBLAS " + openblas_somatcopy_version()
    print(f"# {a.peer} ({version}), {a.threads} thread(s), {a.pages} pages, median of {a.reps}")
    print("| case | GB/s |")
    print("|---|---:|")
    for name, dtype, shape, perm in CASES:
        if name not in names:
            continue
        shape = tuple(max(1, d // a.scale) for d in shape)
        run = run_xla if a.peer == "xla" else run_openblas
        g = run(name, dtype, shape, perm, a.pages, a.reps)
        if g is not None:
            print(f"| {name} | {g:.2f} |", flush=True)


def openblas_somatcopy_version():
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas64_*"))
    if not libs:
        return "?"
    lib = ctypes.CDLL(libs[0])
    try:
        lib.scipy_openblas_get_config64_.restype = ctypes.c_char_p
        return lib.scipy_openblas_get_config64_().decode()
    except AttributeError:
        return os.path.basename(libs[0])


if __name__ == "__main__":
    main()
