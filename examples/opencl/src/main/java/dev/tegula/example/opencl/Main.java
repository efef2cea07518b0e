package dev.tegula.example.opencl;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.io.TensorFiles;
import dev.tegula.opencl.OpenCLMemory;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * Reads {@code weight} (f32[16,256]) of a safetensors file straight into an OpenCL buffer in the
 * tiled layout {@code {1,0:T(8,128)S(1)}}, runs a matrix-vector kernel that addresses the tiles
 * itself, and checks the result against NumPy's (data/expected.npy, from data/generate.py).
 * Arguments: the safetensors file, the expected .npy. Exit status 0 when every element matches.
 */
public final class Main {
    /** y[r] = Σ_c W[r,c]·x[c], x[c] = (c mod 7) − 3, W in 8 × 128 tiles laid row-major over the tile grid. */
    static final String MATVEC = """
            __kernel void matvec(__global const float* w, __global float* y) {
                int r = get_global_id(0);
                float acc = 0.0f;
                for (int c = 0; c < 256; c++) {
                    int tile = (r / 8) * 2 + c / 128;
                    int slot = tile * 1024 + (r % 8) * 128 + c % 128;
                    acc += w[slot] * (float) (c % 7 - 3);
                }
                y[r] = acc;
            }
            """;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        OpenCLMemory cl = OpenCLMemory.forMemorySpace(1);
        if (cl == null) {
            System.out.println("no OpenCL device serves S(1): " + new OpenCLMemory(1, null).unavailableReason());
            System.exit(3);
        }
        try (Arena arena = Arena.ofConfined()) {
            Array w = TensorFiles.readAs(Path.of(args[0]), "weight", Layout.parse("{1,0:T(8,128)S(1)}"), arena);
            Array y = Array.allocate(arena, ArrayShape.parse("f32[16]{0:S(1)}"));
            System.out.println(w.shape() + " on " + cl.device().info().name());
            cl.device().kernel(MATVEC, "matvec").run(16, w, y).await();
            Array expected = TensorFiles.read(Path.of(args[1]), null, arena);
            int wrong = 0;
            try (MappedArray m = y.map(MapMode.READ)) {
                for (int r = 0; r < 16; r++) {
                    float got = m.array().getFloat(r);
                    float want = expected.getFloat(r);
                    if (Float.floatToRawIntBits(got) != Float.floatToRawIntBits(want)) {
                        System.out.println("y[" + r + "] = " + got + ", NumPy: " + want);
                        wrong++;
                    }
                }
            }
            System.out.println(wrong == 0 ? "y = W @ x matches NumPy's 16 values bit for bit"
                    : wrong + " of 16 values differ from NumPy's");
            System.exit(wrong == 0 ? 0 : 1);
        }
    }
}
