package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.IoFixtures;
import dev.tegula.io.npy.Npy;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GGUF writer. {@link #sample} builds a file of every metadata type, every plain tensor type (one
 * from a tiled array), and Q8_0/Q4_0 tensors. The committed {@code gguf/written_by_tegula.gguf} is that
 * file, and {@code src/test/python/check_gguf_written.py} read it with gguf-py's {@code GGUFReader}
 * and checked every value (its report, {@code written_by_tegula.check.txt}, names the file's SHA-256):
 * this test requires the writer to still produce exactly those bytes.
 */
class GgufWriterTest {
    @TempDir
    Path dir;

    /** The sample file's content; the Python check script expects exactly these values. */
    static GgufWriter sample(Arena arena) throws IOException {
        GgufWriter w = Gguf.writer()
                .put("general.architecture", GgufValue.string("tegula"))
                .put("general.alignment", GgufValue.uint32(64))
                .put("t.u8", GgufValue.of(GgufValueType.UINT8, 255))
                .put("t.i8", GgufValue.of(GgufValueType.INT8, -128))
                .put("t.u16", GgufValue.of(GgufValueType.UINT16, 65535))
                .put("t.i16", GgufValue.of(GgufValueType.INT16, -32768))
                .put("t.u32", GgufValue.uint32(0xFFFF_FFFFL))
                .put("t.i32", GgufValue.int32(Integer.MIN_VALUE))
                .put("t.u64", GgufValue.of(GgufValueType.UINT64, -1L))
                .put("t.i64", GgufValue.of(GgufValueType.INT64, Long.MIN_VALUE))
                .put("t.f32", GgufValue.float32(1.5f))
                .put("t.f64", GgufValue.float64(-2.25))
                .put("t.bool", GgufValue.bool(false))
                .put("t.string", GgufValue.string("ünïcode ✓"))
                .put("t.arr.f32", GgufValue.array(GgufValueType.FLOAT32, new float[] {1, 2, 3}))
                .put("t.arr.string", GgufValue.array(GgufValueType.STRING, new String[] {"x", "yy"}))
                .put("t.arr.arr", GgufValue.array(GgufValueType.ARRAY, new GgufValue[] {
                    GgufValue.array(GgufValueType.INT16, new short[] {1, -2}),
                    GgufValue.array(GgufValueType.INT16, new short[] {3})}));
        ElementType[] types = {ElementType.F32, ElementType.F16, ElementType.BF16, ElementType.F64, ElementType.S8,
            ElementType.S16, ElementType.S32, ElementType.S64};
        for (ElementType t : types) {
            Array a = Array.allocate(arena, ArrayShape.of(t, 3, 5));
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 5; j++) {
                    a.setDouble(new long[] {i, j}, i * 5 + j - 6);
                }
            }
            w.tensor("plain." + t.hloName(), a);
        }
        // a tiled source: the writer lays it out row-major
        Array tiled = Array.allocate(arena, ArrayShape.parse("f32[10,3]{0,1:T(2,2)}"));
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 3; j++) {
                tiled.setFloat(i, j, i * 3 + j);
            }
        }
        w.tensor("tiled.f32", tiled);
        Array input = Npy.read(IoFixtures.gguf("quant_input.npy"), arena);
        w.tensor("q.Q8_0", input, GgufType.Q8_0);
        w.tensor("q.Q4_0", Relayout.to(input, ArrayShape.of(ElementType.BF16, 4, 64), arena), GgufType.Q4_0);
        return w;
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = GgufWriterTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture gguf/" + name);
            }
            return in.readAllBytes();
        }
    }

    @Test
    void writesTheBytesThePythonReaderChecked() throws IOException, NoSuchAlgorithmException {
        Path out = dir.resolve("written.gguf");
        try (Arena arena = Arena.ofConfined()) {
            sample(arena).write(out);
        }
        Path keep = Path.of("target", "written_by_tegula.gguf");   // to refresh the fixture after a deliberate change
        Files.createDirectories(keep.getParent());
        Files.copy(out, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        byte[] written = Files.readAllBytes(out);
        byte[] checked = resource("written_by_tegula.gguf");
        String report = new String(resource("written_by_tegula.check.txt"), StandardCharsets.UTF_8);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(checked));
        assertTrue(report.contains("sha256 " + sha), "the check report is about another file: " + report);
        assertTrue(report.strip().endsWith("ALL OK"), report);
        assertArrayEquals(checked, written, "the writer's bytes differ from the file gguf-py checked");
    }

    @Test
    void readsBackWhatItWrote() throws IOException {
        Path out = dir.resolve("back.gguf");
        try (Arena arena = Arena.ofConfined()) {
            GgufWriter w = sample(arena);
            w.write(out);
            GgufFile f = Gguf.open(out, arena);
            assertEquals(3, f.header().version());
            assertEquals(64, f.header().alignment());
            assertEquals(GgufValue.of(GgufValueType.UINT64, -1L), f.header().metadata().get("t.u64"));
            assertEquals(GgufValue.string("ünïcode ✓"), f.header().metadata().get("t.string"));
            Array t = f.tensor("tiled.f32").array();
            assertEquals(ArrayShape.of(ElementType.F32, 10, 3), t.shape());
            assertEquals(7 * 3 + 2, t.getFloat(7, 2));
            assertEquals(-6.0, f.tensor("plain.s64").array().getDouble(0, 0));
            assertEquals(8.0, f.tensor("plain.bf16").array().getDouble(2, 4));
            for (GgufTensor x : f.tensors()) {
                assertEquals(0, x.info().offset() % 64, x.name());
            }
        }
    }

    @Test
    void version2AndRefusals() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path out = dir.resolve("v2.gguf");
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 32));
            Gguf.writer().version(2).tensor("a", a).write(out);
            assertEquals(2, Gguf.readHeader(out).version());
            assertThrows(IllegalArgumentException.class, () -> Gguf.writer().version(1));
            assertThrows(IllegalArgumentException.class,
                    () -> Gguf.writer().tensor("u", Array.allocate(arena, ArrayShape.of(ElementType.U8, 2))));
            assertThrows(IllegalArgumentException.class, () -> Gguf.writer().tensor("a", a).tensor("a", a));
            assertThrows(IllegalArgumentException.class,
                    () -> Gguf.writer().tensor("q", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 48)), GgufType.Q8_0));
            assertThrows(IllegalArgumentException.class, () -> Gguf.writer().tensor("q", a, GgufType.Q4_K));
            assertThrows(IllegalArgumentException.class,
                    () -> Gguf.writer().put("general.alignment", GgufValue.uint32(24)));
        }
    }
}
