package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TensorFormatTest {
    private static final ArrayShape F32_2X3 = ArrayShape.of(ElementType.F32, 2, 3);

    @TempDir
    Path dir;

    private static Array counting(Arena arena) {
        Array a = Array.allocate(arena, F32_2X3);
        a.copyFrom(new double[] {0, 1, 2, 3, 4, 5});
        return a;
    }

    @Test
    void aFileNameClaimsItsFormatInAnyCase() {
        assertSame(TensorFormat.NPY, TensorFormat.named(Path.of("w.NPY")));
        assertSame(TensorFormat.SAFETENSORS, TensorFormat.named(Path.of("d/model.SafeTensors")));
        assertSame(TensorFormat.GGUF, TensorFormat.named(Path.of("llama.gguf")));
        assertNull(TensorFormat.named(Path.of("w.bin")));
        assertNull(TensorFormat.named(Path.of("npy")));
        assertNull(TensorFormat.named(Path.of("/")));
    }

    @Test
    void aSourceWithoutSuchANameIsKnownByItsFirstBytes() throws IOException {
        Path npy = dir.resolve("a.bin");
        Path safetensors = dir.resolve("b.data");
        Path gguf = dir.resolve("c.weights");
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(counting(arena), npy);
            SafeTensors.write(Map.of("w", counting(arena)), safetensors);
            Gguf.writer().tensor("w", counting(arena)).write(gguf);
            assertSame(TensorFormat.NPY, TensorFormat.ofSource(npy, null));
            assertSame(TensorFormat.SAFETENSORS, TensorFormat.ofSource(safetensors, null));
            assertSame(TensorFormat.GGUF, TensorFormat.ofSource(gguf, null));
            for (Path p : new Path[] {npy, safetensors, gguf}) {
                assertTrue(counting(arena).contentEquals(TensorFiles.read(p, "w", arena)), p.toString());
            }
        }
    }

    @Test
    void unknownBytesAreAnUnknownFormatNamingTheFileAndItsFirstBytes() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.bin"), "hello, world: not a tensor");
        TensorFormatException e = assertThrows(TensorFormatException.class, () -> TensorFormat.ofSource(text, null));
        assertEquals(text + ": unknown tensor file format: it starts with 68 65 6c 6c 6f 2c 20 77 6f 72 6c 64 3a 20 6e"
                + " 6f (\"hello, world: no\"); Tegula reads .npy (\\x93NUMPY), GGUF (GGUF) and safetensors (an 8-byte"
                + " header length, then '{') by their first bytes, and a raw buffer when given its shape", e.getMessage());
        try (Arena arena = Arena.ofConfined()) {
            e = assertThrows(TensorFormatException.class, () -> TensorFiles.read(text, "w", arena));
            assertTrue(e.getMessage().contains("unknown tensor file format"), e.getMessage());
            assertThrows(TensorFormatException.class, () -> TensorFiles.readAs(text, "w", F32_2X3, arena));
        }
        Path empty = Files.write(dir.resolve("empty.dat"), new byte[0]);
        e = assertThrows(TensorFormatException.class, () -> TensorFormat.ofSource(empty, null));
        assertTrue(e.getMessage().endsWith("unknown tensor file format: the file is empty; Tegula reads .npy (\\x93NUMPY),"
                + " GGUF (GGUF) and safetensors (an 8-byte header length, then '{') by their first bytes, and a raw buffer"
                + " when given its shape"), e.getMessage());
        Path badLength = Files.write(dir.resolve("big.bin"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, '{', 0});
        assertThrows(TensorFormatException.class, () -> TensorFormat.ofSource(badLength, null));
    }

    @Test
    void aMissingFileIsLeftToTheReaderWhichSaysWhy() throws IOException {
        Path missing = dir.resolve("missing.bin");
        assertSame(TensorFormat.SAFETENSORS, TensorFormat.ofSource(missing, null));
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(NoSuchFileException.class, () -> TensorFiles.read(missing, "w", arena));
        }
    }

    @Test
    void aNameOutranksTheBytesAndADirectoryOrARawShapeOutranksBoth() throws IOException {
        Path npyNamedGguf = dir.resolve("x.gguf");
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(counting(arena), npyNamedGguf);
        }
        assertSame(TensorFormat.GGUF, TensorFormat.ofSource(npyNamedGguf, null));
        assertSame(TensorFormat.RAW, TensorFormat.ofSource(npyNamedGguf, F32_2X3));
        assertSame(TensorFormat.NPY_DIRECTORY, TensorFormat.ofSource(dir, null));
        assertSame(TensorFormat.NPY_DIRECTORY, TensorFormat.ofSource(dir, F32_2X3));
    }

    @Test
    void aTargetsNameChoosesTheFormatWritten() throws IOException {
        assertSame(TensorFormat.NPY_DIRECTORY, TensorFormat.ofTarget(dir));
        assertSame(TensorFormat.NPY, TensorFormat.ofTarget(Path.of("w.npy")));
        assertSame(TensorFormat.SAFETENSORS, TensorFormat.ofTarget(Path.of("m.SAFETENSORS")));
        assertSame(TensorFormat.RAW, TensorFormat.ofTarget(Path.of("w.bin")));
        assertSame(TensorFormat.RAW, TensorFormat.ofTarget(Path.of("w")));
        for (String refused : new String[] {"m.gguf", "m.pt", "m.npz", "m.json"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TensorFormat.ofTarget(Path.of(refused)), refused);
            String ext = refused.substring(refused.indexOf('.'));
            assertTrue(e.getMessage().startsWith("target: convert does not write " + ext + " files"), e.getMessage());
        }
    }

    @Test
    void eachFormatSaysWhatItHoldsAndWhetherConvertWritesIt() {
        assertTrue(TensorFormat.NPY.holdsOneTensor() && TensorFormat.RAW.holdsOneTensor());
        assertFalse(TensorFormat.NPY_DIRECTORY.holdsOneTensor() || TensorFormat.SAFETENSORS.holdsOneTensor()
                || TensorFormat.GGUF.holdsOneTensor());
        assertFalse(TensorFormat.GGUF.isWritable());
        assertTrue(TensorFormat.NPY.isWritable() && TensorFormat.NPY_DIRECTORY.isWritable()
                && TensorFormat.SAFETENSORS.isWritable() && TensorFormat.RAW.isWritable());
        assertEquals("npy-dir", TensorFormat.NPY_DIRECTORY.toString());
    }

    @Test
    void convertReportsTheFormatItWrote() throws IOException {
        Path in = dir.resolve("in.data");   // a safetensors file by its bytes
        try (Arena arena = Arena.ofConfined()) {
            SafeTensors.write(Map.of("w", counting(arena)), in);
        }
        ConvertOptions options = ConvertOptions.defaults().withParallelism(1);
        Path o = Files.createDirectory(dir.resolve("o"));
        Map<Path, TensorFormat> expected = Map.of(dir.resolve("o.npy"), TensorFormat.NPY, dir.resolve("o.safetensors"),
                TensorFormat.SAFETENSORS, dir.resolve("o.bin"), TensorFormat.RAW, o, TensorFormat.NPY_DIRECTORY);
        for (Map.Entry<Path, TensorFormat> e : expected.entrySet()) {
            assertSame(e.getValue(), TensorFiles.convert(in, e.getKey(), ConvertRules.all(), options).format(), e.toString());
        }
        assertTrue(Files.isRegularFile(o.resolve("w.npy")));
    }
}
