package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands Tegula's DLPack exports to real Python consumers in this process: CPython is loaded through
 * FFM ({@code dlopen} of {@code libpython}, global symbols so that NumPy's and PyTorch's extension
 * modules find it), {@code src/test/python/check_dlpack_consumers.py} runs inside it with the
 * structs' addresses, wraps them in capsules ({@code "dltensor"}, {@code "dltensor_versioned"}) and
 * gives them to {@code numpy.from_dlpack} and {@code torch.utils.dlpack.from_dlpack}; back in Java
 * the values the consumers wrote and the deleter calls are checked. Not a unit test (it needs a
 * Python with NumPy, and PyTorch where present): {@code src/test/python/check_dlpack_consumers.sh}
 * builds the class path and runs it, for example with Debian's Python 3.11, NumPy 1.24 and PyTorch
 * 1.13, consumers that take only the legacy struct.
 *
 * <p>Arguments: the {@code libpython} shared library, the script. Exit status 0 when every check passed.
 */
public final class DLPackPythonConsumers {
    private DLPackPythonConsumers() {
    }

    public static void main(String[] args) throws Throwable {
        Path lib = Path.of(args[0]).toAbsolutePath();
        Path script = Path.of(args[1]).toAbsolutePath();
        Linker linker = Linker.nativeLinker();
        MethodHandle dlopen = linker.downcallHandle(linker.defaultLookup().find("dlopen").orElseThrow(),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        List<String> failed = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            int rtldNowGlobal = 0x2 | 0x100;
            MemorySegment handle = (MemorySegment) dlopen.invokeExact(arena.allocateFrom(lib.toString()), rtldNowGlobal);
            if (handle.address() == 0) {
                throw new IllegalStateException("dlopen failed: " + lib);
            }
            SymbolLookup python = SymbolLookup.libraryLookup(lib, arena);
            MethodHandle init = linker.downcallHandle(python.find("Py_InitializeEx").orElseThrow(),
                    FunctionDescriptor.ofVoid(JAVA_INT));
            MethodHandle run = linker.downcallHandle(python.find("PyRun_SimpleString").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle finish = linker.downcallHandle(python.find("Py_FinalizeEx").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT));

            // f32[3,4] holding 0..11; a strided f32 view with an offset; s32 column-major; bf16 (PyTorch has it)
            Array f32 = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 4));
            f32.copyFrom(java.util.stream.IntStream.range(0, 12).mapToDouble(i -> i).toArray());
            Array view = f32.slice(0, 1, 3).permute(1, 0);   // f32[4,2], element (i, j) = (j + 1) * 4 + i
            Array s32 = Array.allocate(arena, ArrayShape.parse("s32[2,3]{0,1}"));
            s32.copyFrom(new double[] {10, 11, 12, 13, 14, 15});
            Array bf16 = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 2, 2));
            bf16.copyFrom(new double[] {1.5, -2, 0.25, 8});
            AtomicInteger[] released = new AtomicInteger[6];
            for (int i = 0; i < released.length; i++) {
                released[i] = new AtomicInteger();
            }
            MemorySegment[] exports = {
                DLPack.exportLegacy(f32, arena, false, released[0]::incrementAndGet),
                DLPack.exportLegacy(view, arena, false, released[1]::incrementAndGet),
                DLPack.exportLegacy(s32, arena, false, released[2]::incrementAndGet),
                DLPack.exportLegacy(bf16, arena, false, released[3]::incrementAndGet),
                DLPack.exportLegacy(f32, arena, false, released[4]::incrementAndGet),   // for PyTorch
                DLPack.export(f32, arena, false, released[5]::incrementAndGet),         // versioned
            };
            StringJoiner argv = new StringJoiner("', '", "['check', '", "']");
            String[] names = {"f32", "view", "s32", "bf16", "torch_f32", "versioned"};
            for (int i = 0; i < exports.length; i++) {
                argv.add(names[i] + "=" + exports[i].address());
            }
            argv.add("data=" + f32.segment().address());
            MemorySegment report = arena.allocate(JAVA_INT);   // bits the script sets: 1 NumPy wrote, 2 PyTorch wrote
            argv.add("report=" + report.address());
            init.invokeExact(0);
            String code = "import sys\nsys.argv = " + argv + "\n"
                    + "exec(compile(open(" + pythonString(script.toString()) + ").read(), "
                    + pythonString(script.toString()) + ", 'exec'))\n";
            int status = (int) run.invokeExact(arena.allocateFrom(code));
            int finalized = (int) finish.invokeExact();
            if (status != 0) {
                failed.add("the Python script raised (status " + status + ")");
            }
            if (finalized != 0) {
                failed.add("Py_FinalizeEx: " + finalized);
            }
            // what the consumers wrote through the legacy exports, and the deleter calls they made
            int wrote = report.get(JAVA_INT, 0);
            check(failed, f32.getFloat(1, 2) == ((wrote & 1) != 0 ? -42f : 6f), "f32[1,2] is what NumPy wrote through"
                    + " the legacy struct where its array was writable: " + f32.getFloat(1, 2));
            check(failed, f32.getFloat(2, 3) == ((wrote & 2) != 0 ? 77f : 11f), "f32[2,3] is what PyTorch wrote through"
                    + " the legacy struct: " + f32.getFloat(2, 3));
            String[] consumedBy = {"numpy", "numpy", "numpy", "torch", "torch", "numpy 2 (versioned)"};
            for (int i = 0; i < released.length; i++) {
                System.out.println("deleter calls for " + names[i] + ": " + released[i].get());
            }
            for (int i = 0; i < 3; i++) {
                check(failed, released[i].get() == 1, names[i] + ": freed by " + consumedBy[i] + ", deleter called once: "
                        + released[i].get());
            }
            check(failed, released[3].get() == released[4].get() && released[3].get() <= 1,
                    "bf16, torch_f32: deleter called once each where PyTorch took them, never otherwise: "
                            + released[3].get() + ", " + released[4].get());
            check(failed, released[5].get() <= 1, "versioned: deleter called at most once: " + released[5].get());
        }
        System.out.println(failed.isEmpty() ? "java: ALL OK" : "java: FAILED " + failed);
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    private static void check(List<String> failed, boolean ok, String what) {
        System.out.println((ok ? "ok    " : "FAIL  ") + what);
        if (!ok) {
            failed.add(what);
        }
    }

    private static String pythonString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
