package dev.tegula.cli.commands;

import static dev.tegula.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.cli.MainTest;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufType;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.opencl.OpenCLMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tegula convert --to-device}: the tensors of a file read into device memory in their rules' layouts, or why not. */
class ConvertToDeviceTest {
    @TempDir
    Path dir;

    private static Array matrix(Arena a, String shape) {
        Array w = Array.allocate(a, ArrayShape.parse(shape));
        float[] v = new float[(int) w.shape().elementCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 29) * 0.25f - 2;
        }
        w.copyFrom(v);
        return w;
    }

    @Test
    void aCheckpointFileLoadsIntoTiledDeviceBuffersAndSaysWhereAndHowMuch() throws IOException {
        Path file = dir.resolve("m.safetensors");
        try (Arena a = Arena.ofConfined()) {
            SafeTensors.write(Map.of("w", matrix(a, "bf16[16,256]"), "b", matrix(a, "f32[256]")), file);
        }
        MainTest.Result r = run("convert", file.toString(), "--layout", "rank2:*={1,0:T(8,128)(2,1)}", "--to-device");
        if (OpenCLMemory.forMemorySpace(1) == null) {
            assertEquals(2, r.status(), r.out());
            assertTrue(r.err().contains("--to-device: no OpenCL device serves S(1): "), r.err());
            return;
        }
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("w bf16[16,256]{1,0:T(8,128)(2,1)S(1)}\n"), r.out());
        assertTrue(r.out().contains("b f32[256]{0:S(1)}\n"), r.out());
        long bytes = 16 * 256 * 2 + 256 * 4;
        assertTrue(Pattern.compile("loaded 2 tensors \\(" + bytes / 1024 + " KiB\\) into .+ in [0-9.]+ s \\([0-9.]+ GB/s\\)")
                .matcher(r.out()).find(), r.out());
        assertEquals(java.util.List.of(file), listed(), "nothing written beside the input");
    }

    @Test
    void ggufBlocksAreDequantizedOntoTheDeviceAndAnUnreadableTensorIsSkippedByName() throws IOException {
        Path file = dir.resolve("q.gguf");
        try (Arena a = Arena.ofConfined()) {
            Gguf.writer().tensor("q", matrix(a, "f32[16,256]"), GgufType.Q8_0).write(file);
        }
        MainTest.Result r = run("convert", file.toString(), "--layout", "{1,0:T(8,128)}", "--to-device");
        if (OpenCLMemory.forMemorySpace(1) == null) {
            assertEquals(2, r.status(), r.out());
            return;
        }
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("q f32[16,256]{1,0:T(8,128)S(1)}\n"), r.out());
        MainTest.Result bad = run("convert", file.toString(), "--layout", "{0}", "--to-device");
        assertEquals(2, bad.status(), bad.out());
        assertTrue(bad.err().contains("'q'"), bad.err());
    }

    @Test
    void outAndToDeviceAreOneOrTheOther() throws IOException {
        Path file = dir.resolve("m.safetensors");
        try (Arena a = Arena.ofConfined()) {
            SafeTensors.write(Map.of("w", matrix(a, "f32[4,4]")), file);
        }
        MainTest.Result both = run("convert", file.toString(), "--to-device", "--out", dir.resolve("o.npy").toString());
        assertEquals(2, both.status());
        assertTrue(both.err().contains("--out and --to-device: give one of them, not both"), both.err());
        MainTest.Result neither = run("convert", file.toString());
        assertEquals(2, neither.status());
        assertTrue(neither.err().contains("give --out OUT (where to write) or --to-device"), neither.err());
        assertEquals(java.util.List.of(file), listed());
    }

    private java.util.List<Path> listed() throws IOException {
        try (var s = Files.list(dir)) {
            return s.toList();
        }
    }
}
