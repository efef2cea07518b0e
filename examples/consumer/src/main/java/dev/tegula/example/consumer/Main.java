package dev.tegula.example.consumer;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.npy.Npy;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Reads a row-major {@code f32[16,256]} from a {@code .npy} file straight into the tiled layout
 * {@code {1,0:T(8,128)}}, prints the CRC-32 of the tiled buffer and compares it with the value that
 * {@code data/generate.py} computed with NumPy alone. Then relayouts the tiled array back to row-major
 * with the vector module and checks that every element equals the file's. Last, runs a Vector API
 * kernel of its own ({@link ScaleKernel}) over the row-major array's memory and checks it against
 * the same arithmetic element by element.
 *
 * <p>Usage: {@code Main NPY_FILE EXPECTED_CRC32_FILE}. Exit status 0 when the three checks pass, 1 when
 * one fails, 2 on a usage error.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: consumer NPY_FILE EXPECTED_CRC32_FILE");
            System.exit(2);
        }
        Path npy = Path.of(args[0]);
        String expected = Files.readString(Path.of(args[1])).strip().toLowerCase(Locale.ROOT);

        ArrayShape tiledShape = ArrayShape.parse("f32[16,256]{1,0:T(8,128)}");
        try (Arena arena = Arena.ofConfined()) {
            // dev.tegula.io: the file is mapped and relayouted into the tiled layout in one pass
            Array tiled = TensorFiles.readAs(npy, null, tiledShape.layout(), arena);
            CRC32 crc = new CRC32();
            crc.update(tiled.segment().asByteBuffer());
            String actual = String.format(Locale.ROOT, "%08x", crc.getValue());
            System.out.println(tiled.shape() + " crc32 " + actual + " (" + tiled.segment().byteSize() + " bytes)");

            // dev.tegula.vector: back to row-major, compared element by element with the file as it is
            Array rowMajor = Relayout.to(tiled, Layout.rowMajor(2), arena);
            Array file = Npy.read(npy, arena);
            long mismatches = 0;
            for (long i = 0; i < 16; i++) {
                for (long j = 0; j < 256; j++) {
                    if (Float.floatToRawIntBits(rowMajor.getFloat(i, j)) != Float.floatToRawIntBits(file.getFloat(i, j))) {
                        mismatches++;
                    }
                }
            }
            System.out.println("round trip to " + rowMajor.shape() + ": " + mismatches + " of 4096 elements differ");

            // a Vector API kernel of this program's own over Tegula memory (requires jdk.incubator.vector)
            Array scaled = Array.allocate(arena, rowMajor.shape());
            ScaleKernel.scale(rowMajor, 2.5f, -1f, scaled);
            long kernelMismatches = 0;
            for (long i = 0; i < 16; i++) {
                for (long j = 0; j < 256; j++) {
                    float want = file.getFloat(i, j) * 2.5f + -1f;
                    if (Float.floatToRawIntBits(scaled.getFloat(i, j)) != Float.floatToRawIntBits(want)) {
                        kernelMismatches++;
                    }
                }
            }
            System.out.println("vector kernel x * 2.5 - 1: " + kernelMismatches + " of 4096 elements differ from"
                    + " the scalar result");

            if (!actual.equals(expected)) {
                System.err.println("FAIL: crc32 " + actual + ", expected " + expected + " (from " + args[1] + ")");
                System.exit(1);
            }
            if (mismatches != 0) {
                System.err.println("FAIL: the round trip changed " + mismatches + " elements");
                System.exit(1);
            }
            if (kernelMismatches != 0) {
                System.err.println("FAIL: the vector kernel differs from the scalar result in " + kernelMismatches
                        + " elements");
                System.exit(1);
            }
            System.out.println("OK: crc32 matches " + args[1]);
        }
    }
}
