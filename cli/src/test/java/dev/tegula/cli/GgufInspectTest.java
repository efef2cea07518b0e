package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tegula inspect model.gguf} over the gguf-py fixture of module io, and a bad GGUF file. */
class GgufInspectTest {
    static final Path FIXTURE = Path.of("../io/src/test/resources/dev/tegula/io/gguf/all_types_v3.gguf");

    @Test
    void listsMetadataCutAndEveryTensor() {
        MainTest.Result r = MainTest.run("inspect", FIXTURE.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("GGUF version 3, 23 metadata keys, 20 tensors, alignment 32"), out);
        assertTrue(out.contains("general.architecture = \"tegula-test\""), out);
        assertTrue(out.contains("t.u64 = 18000000000000000000  (uint64)"), out);
        assertTrue(out.contains("t.arr.long = int32[100] [0, 1, 2, 3, 4, 5, 6, 7, … 92 more]"), out);
        assertTrue(out.contains("t.arr.arr = array[2] [int32[2] [1, 2], int32[1] [3]]"), out);
        assertTrue(out.matches("(?s).*plain\\.f32_3d +F32 +f32\\[2,3,4] +96 B +512\\n.*"), out);
        assertTrue(out.matches("(?s).*q\\.Q4_K +Q4_K +\\[2,512] +576 B +2400\\n.*"), out);
        assertTrue(out.matches("(?s).*q\\.IQ4_NL +IQ4_NL +\\[2,64] +72 B +4544 +\\(not dequantized by Tegula\\)\\n.*"), out);
        assertEquals(20, out.lines().filter(l -> l.matches("  (plain|q)\\.\\S+ .*")).count(), out);
    }

    @Test
    void aBadFileIsExitStatusTwoNamingTheField(@TempDir Path dir) throws IOException {
        byte[] f = Files.readAllBytes(FIXTURE);
        f[8] = (byte) 0xFF;   // tensor_count lies
        f[13] = (byte) 0x7F;
        Path bad = Files.write(dir.resolve("bad.gguf"), f);
        MainTest.Result r = MainTest.run("inspect", bad.toString());
        assertEquals(2, r.status(), r.out());
        assertTrue(r.err().contains("tensor_count"), r.err());
    }
}
