"""Runs inside the JVM (DLPackPythonConsumers embeds CPython): takes Tegula's DLPack exports by
address, wraps them in capsules as a Python producer's __dlpack__ would, and gives them to real
consumers: numpy.from_dlpack and, where installed, torch.utils.dlpack.from_dlpack. Checks what each
consumer sees (shape, dtype, strides, values, the same memory) and writes through the legacy
exports where the consumer allows it (NumPy before 2 gives read-only arrays; PyTorch writable
tensors), setting bits of the int at ARGS["report"] to say which wrote; DLPackPythonConsumers then
checks the writes and the deleter calls from the Java side.

Not run by itself: see check_dlpack_consumers.sh.
"""
import ctypes
import gc
import sys

import numpy as np

ARGS = dict(a.split("=", 1) for a in sys.argv[1:])
REPORT = ctypes.c_int.from_address(int(ARGS["report"]))
NUMPY_WROTE, TORCH_WROTE = 1, 2
LEGACY = b"dltensor"
VERSIONED = b"dltensor_versioned"

new_capsule = ctypes.pythonapi.PyCapsule_New
new_capsule.restype = ctypes.py_object
new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

lines = []


def check(cond, what):
    lines.append(("ok    " if cond else "FAIL  ") + what)


class LegacyProducer:
    """A producer as written before DLPack 1.0: __dlpack__ takes only a stream and returns a
    "dltensor" capsule of a DLManagedTensor (Tegula's DLPack.exportLegacy)."""

    def __init__(self, name):
        self.address = int(ARGS[name])

    def __dlpack__(self, stream=None):
        return new_capsule(self.address, LEGACY, None)

    def __dlpack_device__(self):
        return (1, 0)


class VersionedOnlyProducer:
    """A producer that has only a DLManagedTensorVersioned (Tegula's DLPack.export): it answers a
    consumer that asks for DLPack 1.x and raises BufferError for one that does not."""

    def __init__(self, name):
        self.address = int(ARGS[name])

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if max_version is None or max_version[0] < 1:
            raise BufferError("this producer has only a DLPack 1.x (versioned) tensor")
        return new_capsule(self.address, VERSIONED, None)

    def __dlpack_device__(self):
        return (1, 0)


print("python", sys.version.split()[0], "numpy", np.__version__)

# numpy: the legacy struct
x = np.from_dlpack(LegacyProducer("f32"))
check(x.shape == (3, 4) and x.dtype == np.float32, "numpy f32: shape %s dtype %s" % (x.shape, x.dtype))
check(np.array_equal(x, np.arange(12, dtype=np.float32).reshape(3, 4)), "numpy f32: values 0..11")
check(x.ctypes.data == int(ARGS["data"]), "numpy f32: the same memory (no copy)")
lines.append("note  numpy %s: an array from a legacy capsule is %s" % (np.__version__,
             "writable" if x.flags.writeable else "read-only"))
if x.flags.writeable:
    x[1, 2] = -42
    REPORT.value |= NUMPY_WROTE

v = np.from_dlpack(LegacyProducer("view"))
expect = np.array([[(j + 1) * 4 + i for j in range(2)] for i in range(4)], dtype=np.float32)
if REPORT.value & NUMPY_WROTE:
    expect[2, 0] = -42   # f32[1, 2], written through x above
check(v.shape == (4, 2) and v.strides == (4, 16), "numpy strided view: shape %s strides %s" % (v.shape, v.strides))
check(np.array_equal(v, expect), "numpy strided view with byte_offset: values %s" % v.tolist())
check(v.ctypes.data == int(ARGS["data"]) + 16, "numpy strided view: data + byte_offset")

s = np.from_dlpack(LegacyProducer("s32"))
check(s.dtype == np.int32 and s.strides == (4, 8), "numpy s32 column-major: dtype %s strides %s" % (s.dtype, s.strides))
check(np.array_equal(s, [[10, 11, 12], [13, 14, 15]]), "numpy s32: values %s" % s.tolist())

del x, v, s
gc.collect()

# numpy and a producer that has only the versioned struct (Tegula before exportLegacy)
try:
    y = np.from_dlpack(VersionedOnlyProducer("versioned"))
    check(y.shape == (3, 4) and y[2, 3] == 11,
          "numpy %s takes the versioned struct too: shape %s" % (np.__version__, y.shape))
    del y
    gc.collect()
except (BufferError, TypeError, RuntimeError) as e:
    lines.append("note  numpy %s refuses a versioned-only producer: %s: %s" % (np.__version__, type(e).__name__, e))

# torch, where installed
try:
    import torch
    import torch.utils.dlpack
except ImportError:
    torch = None
    lines.append("note  torch not installed: its checks skipped")
if torch is not None:
    print("torch", torch.__version__)
    t = torch.utils.dlpack.from_dlpack(LegacyProducer("torch_f32"))
    check(t.shape == (3, 4) and t.dtype == torch.float32, "torch f32: shape %s dtype %s" % (tuple(t.shape), t.dtype))
    check(t.data_ptr() == int(ARGS["data"]), "torch f32: the same memory (no copy)")
    check(t[1, 2].item() == (-42 if REPORT.value & NUMPY_WROTE else 6) and t[2, 3].item() == 11, "torch f32: values")
    t[2, 3] = 77
    REPORT.value |= TORCH_WROTE
    b = torch.utils.dlpack.from_dlpack(LegacyProducer("bf16"))
    check(b.dtype == torch.bfloat16 and b.tolist() == [[1.5, -2.0], [0.25, 8.0]],
          "torch bf16: dtype %s values %s" % (b.dtype, b.tolist()))
    del t, b
    gc.collect()
    try:
        torch.utils.dlpack.from_dlpack(VersionedOnlyProducer("versioned"))
        lines.append("note  torch %s takes the versioned struct" % torch.__version__)
    except (BufferError, TypeError, RuntimeError) as e:
        lines.append("note  torch %s refuses a versioned-only producer: %s: %s" % (torch.__version__, type(e).__name__, e))

print("\n".join(lines))
failed = [l for l in lines if l.startswith("FAIL")]
print("python: %d passed, %d failed" % (len([l for l in lines if l.startswith("ok")]), len(failed)))
if failed:
    raise AssertionError("%d checks failed" % len(failed))
