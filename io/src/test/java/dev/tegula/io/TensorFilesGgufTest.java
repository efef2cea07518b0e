package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GGUF files through the one format dispatch of {@link TensorFiles} (what {@code tegula convert} reads with). */
class TensorFilesGgufTest {
    private static final Path FILE = IoFixtures.gguf("all_types_v3.gguf");

    @Test
    void readGivesPlainTensorsMappedAndBlockTensorsDequantized() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array plain = TensorFiles.read(FILE, "plain.f16", arena);
            assertEquals(ArrayShape.of(ElementType.F16, 3, 5), plain.shape());
            assertTrue(plain.isReadOnly());
            Array q = TensorFiles.read(FILE, "q.Q6_K", arena);
            assertEquals(-1, IoFixtures.ggufReference("Q6_K", arena).segment().mismatch(q.segment()));
            assertThrows(IllegalArgumentException.class, () -> TensorFiles.read(FILE, null, arena));
            assertThrows(TensorFormatException.class, () -> TensorFiles.read(FILE, "absent", arena));
        }
    }

    @Test
    void readAsLayoutKeepsPlainTypesAndDequantizesToF32() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Layout colMajor = Layout.of(0, 1);
            Array plain = TensorFiles.readAs(FILE, "plain.i16", colMajor, arena);
            assertEquals(ArrayShape.of(ElementType.S16, 3, 5).withLayout(colMajor), plain.shape());
            assertEquals(-7000 + 1500 * 7, plain.getLong(1, 2));
            Array q = TensorFiles.readAs(FILE, "q.Q3_K", colMajor, arena);
            Array ref = IoFixtures.ggufReference("Q3_K", arena);
            assertEquals(-1, Relayout.to(ref, colMajor, arena).segment().mismatch(q.segment()));
        }
    }

    @Test
    void readAsTargetShapeForEveryFormat() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape target = ArrayShape.parse("bf16[2,512]{0,1:T(8,128)(2,1)}");
            Array q = TensorFiles.readAs(FILE, "q.Q4_K", target, arena);
            Array expected = Relayout.to(IoFixtures.ggufReference("Q4_K", arena), target, arena);
            assertEquals(-1, expected.segment().mismatch(q.segment()));
            Path npy = IoFixtures.gguf("ref_Q4_K.npy");
            Array fromNpy = TensorFiles.readAs(npy, null, target, arena);
            assertEquals(-1, expected.segment().mismatch(fromNpy.segment()));
            assertThrows(IllegalArgumentException.class,
                    () -> TensorFiles.readAs(npy, null, ArrayShape.of(ElementType.F32, 512, 2), arena));
        }
    }

    @Test
    void convertDequantizesBlockTensorsFileToFileAndRefusesTypesItCannot(@TempDir Path dir) throws IOException {
        Path whole = dir.resolve("whole.safetensors");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TensorFiles.convert(FILE, whole, ConvertRules.all(), ConvertOptions.defaults()));
        assertTrue(e.getMessage().contains("IQ4_NL"), e.getMessage());
        assertTrue(Files.notExists(whole));
        try (Arena arena = Arena.ofConfined()) {
            for (String t : new String[] {"Q4_0", "Q8_0", "Q5_1", "Q2_K", "Q6_K"}) {
                Path out = dir.resolve(t + ".npy");
                TensorFiles.convert(FILE, out, ConvertRules.all().only("q." + t), ConvertOptions.defaults());
                assertEquals(-1, IoFixtures.ggufReference(t, arena).segment().mismatch(Npy.read(out, arena).segment()), t);
            }
            ArrayShape tiled = ArrayShape.parse("bf16[2,512]{1,0:T(8,128)(2,1)}");
            Path raw = dir.resolve("q4k.bin");
            TensorFiles.convert(FILE, raw, ConvertRules.all().only("q.Q4_K").shape("*", tiled), ConvertOptions.defaults());
            Array expected = Relayout.to(IoFixtures.ggufReference("Q4_K", arena), tiled, arena);
            assertEquals(-1, expected.segment().asByteBuffer().mismatch(java.nio.ByteBuffer.wrap(Files.readAllBytes(raw))));
            Path plain = dir.resolve("plain.npy");
            TensorFiles.convert(FILE, plain, ConvertRules.all().only("plain.f16"), ConvertOptions.defaults());
            assertTrue(TensorFiles.read(FILE, "plain.f16", arena).contentEquals(Npy.read(plain, arena)));
        }
        try (var files = Files.list(dir)) {
            assertEquals(7, files.count(), "the seven outputs and no temporary");
        }
    }
}
