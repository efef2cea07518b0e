package dev.tegula.example.onnxruntime;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the small models of {@code data/} (each {@code y = x W + b}) in ONNX Runtime Java with
 * weights that Tegula read, and checks every output bit for bit against what onnxruntime-python
 * computed ({@code data/expected.safetensors}, made by {@code data/generate.py}):
 * <ol>
 * <li>weights mapped from a {@code .npy} file go in with no copy: a write to the file, under the
 *     read-only mapping, changes the next run's output;</li>
 * <li>a column-major weight, as its transpose by a {@code permute} view (no copy), into a model
 *     that takes {@code W^T}; and relayouted to row-major for the model that takes {@code W};</li>
 * <li>a weight read into a tiled layout, relayouted to row-major;</li>
 * <li>f16 and bf16 weights from a safetensors file, mapped;</li>
 * <li>a pinned output: ONNX Runtime writes {@code y} straight into a Tegula array;</li>
 * <li>an output ONNX Runtime allocated, copied back into a Tegula array.</li>
 * </ol>
 *
 * <p>Usage: {@code Main DATA_DIR}. Exit status 0 when every check passes, 1 when one fails, 2 on a
 * usage error.
 */
public final class Main {
    private final List<String> failed = new ArrayList<>();

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: onnxruntime-example DATA_DIR");
            System.exit(2);
        }
        Main m = new Main();
        m.run(Path.of(args[0]));
        System.out.println(m.failed.isEmpty() ? "OK: every output equals onnxruntime-python's, bit for bit"
                : "FAIL: " + m.failed);
        System.exit(m.failed.isEmpty() ? 0 : 1);
    }

    private void run(Path data) throws IOException, OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        // The arena is opened first, so it closes last: after every tensor and session that points into it.
        try (Arena arena = Arena.ofConfined();
             OrtSession linear = env.createSession(data.resolve("linear.onnx").toString());
             OrtSession linearT = env.createSession(data.resolve("linear_t.onnx").toString());
             OrtSession linearF16 = env.createSession(data.resolve("linear_f16.onnx").toString());
             OrtSession linearBf16 = env.createSession(data.resolve("linear_bf16.onnx").toString())) {
            Path expectedFile = data.resolve("expected.safetensors");
            Array y = SafeTensors.read(expectedFile, "y", arena);
            Array x = Npy.read(data.resolve("x.npy"), arena);
            Array b = Npy.read(data.resolve("b.npy"), arena);

            // 1. mapped weights, no copy: the file is mapped read-only; a write to the file shows in the next run
            Path w = Files.copy(data.resolve("w.npy"), Files.createTempDirectory("tegula-ort").resolve("w.npy"));
            try {
                Array mapped = Npy.read(w, arena);
                try (OnnxTensor tx = OrtArrays.tensor(env, x); OnnxTensor tw = OrtArrays.tensor(env, mapped);
                     OnnxTensor tb = OrtArrays.tensor(env, b)) {
                    check(!tw.ownsBuffer(), "mapped w: ONNX Runtime uses the mapping's memory (the tensor owns no buffer of its own)");
                    expect(linear, Map.of("x", tx, "w", tw, "b", tb), y, "mapped f32 w: y", arena);
                    float written = -3.25f;   // data/generate.py's WRITTEN
                    try (FileChannel ch = FileChannel.open(w, StandardOpenOption.WRITE)) {
                        ByteBuffer f = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, written);
                        ch.write(f, Npy.readHeader(w).dataOffset());   // element [0,0]
                    }
                    check(mapped.getFloat(0, 0) == written, "mapped w: the array sees the write to the file: " + mapped.getFloat(0, 0));
                    expect(linear, Map.of("x", tx, "w", tw, "b", tb), SafeTensors.read(expectedFile, "y_written", arena),
                            "mapped f32 w, after a write to the file: y_written (the same tensor, no copy in between)", arena);
                }
            } finally {
                Files.delete(w);
                Files.delete(w.getParent());
            }

            // 2. a column-major weight: its transpose is a row-major view (permute, no copy) ...
            Array colMajor = Npy.read(data.resolve("w_colmajor.npy"), arena);   // f32[8,16]{0,1}
            Array transposed = colMajor.permute(1, 0);                           // f32[16,8]{1,0}, the same memory
            check(transposed.segment().address() == colMajor.segment().address()
                    && transposed.isDenseIn(Layout.rowMajor(2)), "column-major w: permute(1, 0) is " + transposed.shape()
                    + ", a row-major view of the same memory");
            try (OnnxTensor tx = OrtArrays.tensor(env, x); OnnxTensor twt = OrtArrays.tensor(env, transposed);
                 OnnxTensor tb = OrtArrays.tensor(env, b)) {
                expect(linearT, Map.of("x", tx, "wt", twt, "b", tb), SafeTensors.read(expectedFile, "y_t", arena),
                        "transposed w by permute view, Gemm(transB=1): y_t", arena);
            }
            // ... and for the model that takes W itself, it is relayouted to row-major
            refused(env, colMajor, "column-major w");
            Array rowMajor = Relayout.to(colMajor, Layout.rowMajor(2), arena);
            try (OnnxTensor tx = OrtArrays.tensor(env, x); OnnxTensor tw = OrtArrays.tensor(env, rowMajor);
                 OnnxTensor tb = OrtArrays.tensor(env, b)) {
                expect(linear, Map.of("x", tx, "w", tw, "b", tb), y, "column-major w relayouted to row-major: y", arena);
            }

            // 3. a tiled weight (as a TPU-style layout stores it), relayouted to row-major
            Array tiled = TensorFiles.readAs(data.resolve("w.npy"), null, Layout.parse("{1,0:T(8,128)}"), arena);
            refused(env, tiled, "tiled w");
            try (OnnxTensor tx = OrtArrays.tensor(env, x);
                 OnnxTensor tw = OrtArrays.tensor(env, Relayout.to(tiled, Layout.rowMajor(2), arena));
                 OnnxTensor tb = OrtArrays.tensor(env, b)) {
                expect(linear, Map.of("x", tx, "w", tw, "b", tb), y, tiled.shape() + " relayouted to row-major: y", arena);
            }

            // 4. f16 and bf16 weights, mapped from a safetensors file
            Path w16 = data.resolve("w16.safetensors");
            Array f16 = SafeTensors.read(w16, "w16", arena);
            Array bf16 = SafeTensors.read(w16, "wbf16", arena);
            try (OnnxTensor tx = OrtArrays.tensor(env, x); OnnxTensor tb = OrtArrays.tensor(env, b);
                 OnnxTensor th = OrtArrays.tensor(env, f16); OnnxTensor tbf = OrtArrays.tensor(env, bf16)) {
                expect(linearF16, Map.of("x", tx, "w16", th, "b", tb), SafeTensors.read(expectedFile, "y_f16", arena),
                        f16.shape() + " w: y_f16", arena);
                expect(linearBf16, Map.of("x", tx, "wbf16", tbf, "b", tb), SafeTensors.read(expectedFile, "y_bf16", arena),
                        bf16.shape() + " w: y_bf16", arena);

                // 5. a pinned output: ONNX Runtime writes y into a Tegula array
                Array out = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 16));
                try (OnnxTensor pinned = OrtArrays.tensor(env, out);
                     OnnxTensor tw = OrtArrays.tensor(env, Npy.read(data.resolve("w.npy"), arena));
                     OrtSession.Result r = linear.run(Map.of("x", tx, "w", tw, "b", tb), Map.of("y", pinned))) {
                    compare(out, y, "pinned output: ONNX Runtime wrote y into a Tegula " + out.shape());
                }
            }
        }
    }

    /** Runs {@code session}; checks its output, copied back into an array (case 6), against {@code expected} bit for bit. */
    private void expect(OrtSession session, Map<String, OnnxTensor> inputs, Array expected, String what, Arena arena)
            throws OrtException {
        try (OrtSession.Result r = session.run(new LinkedHashMap<>(inputs))) {
            OnnxTensor y = (OnnxTensor) r.get("y").orElseThrow();
            compare(OrtArrays.toArray(y, ElementType.F32, arena), expected, what);
        }
    }

    private void refused(OrtEnvironment env, Array a, String what) throws OrtException {
        try (OnnxTensor t = OrtArrays.tensor(env, a)) {
            check(false, what + ": the bridge took " + a.shape() + ", which is not row-major");
        } catch (IllegalArgumentException e) {
            check(true, what + ": " + a.shape() + " refused as it is (not dense row-major): relayouted first");
        }
    }

    private void compare(Array actual, Array expected, String what) {
        long differ = 0;
        long[] dims = expected.shape().dimensions();
        for (long i = 0; i < dims[0]; i++) {
            for (long j = 0; j < dims[1]; j++) {
                if (Float.floatToRawIntBits(actual.getFloat(i, j)) != Float.floatToRawIntBits(expected.getFloat(i, j))) {
                    differ++;
                }
            }
        }
        check(differ == 0 && actual.shape().dimensions().length == 2, what + (differ == 0 ? ", bit for bit"
                : ": " + differ + " elements differ"));
    }

    private void check(boolean ok, String what) {
        System.out.println((ok ? "ok    " : "FAIL  ") + what);
        if (!ok) {
            failed.add(what);
        }
    }
}
