package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TensorFiles#convert}: formats in and out, windows under a small budget, rules, and failure leaving no damage. */
class TensorFilesConvertTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    static Array random(Arena arena, ArrayShape shape, long seed) {
        Array a = Array.allocate(arena, shape);
        Random r = new Random(seed);
        double[] v = new double[Math.toIntExact(shape.elementCount())];
        for (int i = 0; i < v.length; i++) {
            v[i] = shape.elementType().isFloating() ? r.nextInt(2000) / 8.0 - 100 : r.nextInt(100);
        }
        a.copyFrom(v);
        return a;
    }

    private Path npy(String name, Array a) throws IOException {
        Path p = dir.resolve(name);
        Npy.write(a, p);
        return p;
    }

    private static ConvertOptions small() {
        return ConvertOptions.defaults().withMemory(MIB);
    }

    @Test
    void tiledRawOutputIsTheEngineBufferWrittenInManyWindows() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = random(arena, ArrayShape.of(ElementType.F32, 1000, 700), 1);   // 2.7 MB, 1 MiB budget
            Path in = npy("a.npy", a);
            Path out = dir.resolve("a.bin");
            ArrayShape tiled = shape("f32[1000,700]{1,0:T(8,128)}");
            ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all().layout("*", tiled.layout()), small());
            assertEquals(TensorFormat.RAW, r.format());
            assertEquals(tiled, r.tensors().getFirst().to());
            assertTrue(r.tensors().getFirst().windows() > 2, "windows: " + r.tensors().getFirst().windows());
            assertEquals(1.0, r.tensors().getFirst().sourcePasses(), 0.01);
            Array expect = Relayout.to(a, tiled.layout(), arena);
            assertArrayEquals(expect.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), Files.readAllBytes(out));
            // a new file gets rw-r--r--, not the owner-only mode of the temporary it was written as
            assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(out)));
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void transposeReadsTheSourceInStripsAndCountsItsPasses() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // rows of 16 KiB (4 pages); the column-major output is swept in windows of columns
            Array a = random(arena, ArrayShape.of(ElementType.F32, 1024, 4096), 2);
            Path in = npy("a.npy", a);
            ConvertRules colMajor = ConvertRules.all().layout("*", Layout.columnMajor(2));
            // 16 MiB: windows of 2048 columns (8 MiB). From a raw file (rows start on pages) each strip reads
            // 2 of every row's 4 pages: one pass. From the .npy (data at byte 128) the first window is cut
            // short (992 columns) so that every later strip starts on a page: 3 windows, the last strip and
            // the first share the page where one row ends and the next begins: 1.25 passes, not the 1.5
            // of windows cut at column 2048.
            ArrayShape rowMajor = ArrayShape.of(ElementType.F32, 1024, 4096);
            Path raw = dir.resolve("a.raw");
            TensorFiles.convert(in, raw, ConvertRules.all(), small());
            ConvertReport.Tensor aligned = TensorFiles.convert(raw, dir.resolve("t.raw"), colMajor,
                    small().withMemory(16 * MIB).withRawShape(rowMajor)).tensors().getFirst();
            assertEquals(2, aligned.windows());
            assertEquals(1.0, aligned.sourcePasses(), 1e-9);
            Path out = dir.resolve("t.npy");
            ConvertReport.Tensor wide = TensorFiles.convert(in, out, colMajor, small().withMemory(16 * MIB))
                    .tensors().getFirst();
            assertEquals(3, wide.windows());
            assertEquals(1.25, wide.sourcePasses(), 0.01);
            assertTrue(Npy.readHeader(out).fortranOrder());
            Array back = Npy.read(out, arena);
            assertEquals(Layout.columnMajor(2), back.shape().layout());
            assertTrue(a.contentEquals(back));
            // 1 MiB: windows of 128 columns (512 KiB); each strip touches one page of every row: 32 windows x 1024
            // pages over the source's 4096 pages = 8 passes (from the raw file, whose rows start on pages)
            Path narrow = dir.resolve("t.bin");
            ConvertReport.Tensor t = TensorFiles.convert(raw, narrow, colMajor, small().withRawShape(rowMajor))
                    .tensors().getFirst();
            assertEquals(32, t.windows());
            assertEquals(8.0, t.sourcePasses(), 1e-9);
            try (Arena m = Arena.ofConfined()) {
                Array got = Array.wrap(MappedFiles.map(narrow, m),
                        ArrayShape.of(ElementType.F32, 1024, 4096).withLayout(Layout.columnMajor(2)));
                assertTrue(a.contentEquals(got));
            }
        }
    }

    /** A checkpoint of mixed types, ranks and layouts, written whole and checked tensor by tensor. */
    @Test
    void checkpointConvertsWholeKeepsMetadataAndReadsBack() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> tensors = new LinkedHashMap<>();
            ElementType[] types = {ElementType.F32, ElementType.BF16, ElementType.F16, ElementType.S32, ElementType.U8,
                    ElementType.S64, ElementType.F64};
            Random r = new Random(7);
            for (int i = 0; i < 30; i++) {
                ElementType type = types[i % types.length];
                int rank = i % 5;
                long[] dims = new long[rank];
                for (int d = 0; d < rank; d++) {
                    dims[d] = 1 + r.nextInt(d == rank - 1 ? 300 : 40);
                }
                String name = "layer." + i + (rank == 2 ? ".weight" : rank == 1 ? ".bias" : rank == 3 ? ".other" : ".x");
                tensors.put(name, random(arena, ArrayShape.of(type, dims), i));
            }
            Path in = dir.resolve("model.safetensors");
            SafeTensors.write(tensors, Map.of("format", "pt"), in);
            Path out = dir.resolve("tiled.safetensors");
            ConvertRules rules = ConvertRules.all()
                    .layout("*.weight", shape("f32[8,128]{1,0:T(8,128)}").layout())
                    .layout("*.other", Layout.columnMajor(3))
                    .floatType(ElementType.F32);
            ConvertReport rep = TensorFiles.convert(in, out, rules, small());
            assertEquals(30, rep.tensors().size());
            // small tensors are written several at once; the report keeps the file's order
            assertEquals(new ArrayList<>(tensors.keySet()), rep.tensors().stream().map(ConvertReport.Tensor::name).toList());
            SafeTensorsHeader h = SafeTensors.readHeader(out);
            assertEquals("pt", h.metadata().get("format"));
            try (Arena m = Arena.ofShared()) {
                TensorSource back = TensorSource.open(out, null, m);
                assertEquals(new ArrayList<>(tensors.keySet()), back.tensors().stream().map(TensorSource.Named::name).toList());
                for (TensorSource.Named t : back.tensors()) {
                    Array original = tensors.get(t.name());
                    ArrayShape got = t.array().shape();
                    int rank = original.shape().rank();
                    if (rank == 2) {
                        assertTrue(got.layout().isTiled(), t.name() + " " + got);
                    }
                    if (rank == 3) {
                        assertEquals(Layout.columnMajor(3), got.layout(), t.name());
                    }
                    ElementType want = original.shape().elementType().isFloating() ? ElementType.F32
                            : original.shape().elementType();
                    assertEquals(want, got.elementType(), t.name());
                    assertArrayEquals(original.toDoubleArray(), t.array().toDoubleArray(), t.name());
                }
                // and back to plain row-major: byte-identical tensors of the converted types
                Path plain = dir.resolve("plain.safetensors");
                TensorFiles.convert(out, plain, ConvertRules.all(), small());
                Map<String, Array> p = SafeTensors.read(plain, m);
                for (Map.Entry<String, Array> e : p.entrySet()) {
                    assertEquals(Layout.rowMajor(e.getValue().shape().rank()), e.getValue().shape().layout());
                    assertArrayEquals(tensors.get(e.getKey()).toDoubleArray(), e.getValue().toDoubleArray(), e.getKey());
                }
                assertTrue(SafeTensors.readHeader(plain).metadata().keySet().stream()
                        .noneMatch(k -> k.startsWith(SafeTensorsFormat.SHAPE_KEY)));
            }
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void npyDirectoryInAndOut() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path src = Files.createDirectory(dir.resolve("src"));
            Array a = random(arena, ArrayShape.of(ElementType.F32, 30, 40), 1);
            Array b = random(arena, ArrayShape.of(ElementType.S16, 7), 2);
            Npy.write(a, src.resolve("a.npy"));
            Npy.write(b, src.resolve("b.npy"));
            Path st = dir.resolve("both.safetensors");
            TensorFiles.convert(src, st, ConvertRules.all(), small());
            Path outDir = dir.resolve("out");
            Files.createDirectory(outDir);
            TensorFiles.convert(st, outDir, ConvertRules.all().layout("a", Layout.columnMajor(2)), small());
            Array a2 = Npy.read(outDir.resolve("a.npy"), arena);
            Array b2 = Npy.read(outDir.resolve("b.npy"), arena);
            assertTrue(Npy.readHeader(outDir.resolve("a.npy")).fortranOrder());
            assertTrue(a.contentEquals(a2));
            assertTrue(b.contentEquals(b2));
        }
    }

    @Test
    void rawInputWithAGivenShapeComesBack() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = random(arena, ArrayShape.of(ElementType.F32, 20, 300), 5);
            Path in = npy("a.npy", a);
            ArrayShape tiled = shape("f32[20,300]{1,0:T(8,128)}");
            Path raw = dir.resolve("a.bin");
            TensorFiles.convert(in, raw, ConvertRules.all().layout("*", tiled.layout()), small());
            Path back = dir.resolve("back.npy");
            TensorFiles.convert(raw, back, ConvertRules.all(), small().withRawShape(tiled));
            assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(back));
            IOException e = assertThrows(TensorFormatException.class, () -> TensorFiles.convert(raw, dir.resolve("x.npy"),
                    ConvertRules.all(), small().withRawShape(shape("f32[30,300]{1,0:T(8,128)}"))));
            assertTrue(e.getMessage().contains("bytes"), e.getMessage());
        }
    }

    @Test
    void anOutputLargerThanTheDiskIsRefusedWithItsSizeBeforeAnythingIsWritten() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path in = npy("a.npy", random(arena, ArrayShape.of(ElementType.F32, 2, 2), 1));
            Path out = dir.resolve("x.bin");
            Layout huge = shape("f32[2,2]{1,0:T(2000000,2000000)}").layout();
            IOException e = assertThrows(IOException.class,
                    () -> TensorFiles.convert(in, out, ConvertRules.all().layout("*", huge), small()));
            assertTrue(e.getMessage().contains("16000000000000 bytes"), e.getMessage());
            assertTrue(!Files.exists(out));
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void aFailurePartWayLeavesTheOldTargetAndNoTemporary() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path in = npy("a.npy", random(arena, ArrayShape.of(ElementType.F32, 1000, 700), 1));
            Path out = dir.resolve("keep.bin");
            Files.writeString(out, "old contents");
            ConvertProgress failing = (t, done, total) -> {
                if (done > 0 && done < total) {
                    throw new IllegalStateException("stop here");
                }
            };
            assertThrows(IllegalStateException.class, () -> TensorFiles.convert(in, out,
                    ConvertRules.all().layout("*", shape("f32[1,1]{1,0:T(8,128)}").layout()), small().withProgress(failing)));
            assertEquals("old contents", Files.readString(out));
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void aFailureInOneOfManySmallTensorsWrittenAtOnceLeavesTheOldTarget() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = new LinkedHashMap<>();
            for (int i = 0; i < 20; i++) {
                t.put("t" + i, random(arena, ArrayShape.of(ElementType.F32, 50, 60), i));
            }
            Path in = dir.resolve("m.safetensors");
            SafeTensors.write(t, in);
            Path out = dir.resolve("keep.safetensors");
            Files.writeString(out, "old contents");
            ConvertProgress failing = (tensor, done, total) -> {
                if (tensor.equals("t7")) {
                    throw new IllegalStateException("stop at t7");
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> TensorFiles.convert(in, out,
                    ConvertRules.all().layout("*", "{0,1}"), small().withParallelism(2).withProgress(failing)));
            assertEquals("stop at t7", e.getMessage());
            assertEquals("old contents", Files.readString(out));
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void badRulesAndTargetsAreRefusedNamingTheTensor() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = new LinkedHashMap<>();
            t.put("w", random(arena, ArrayShape.of(ElementType.F32, 4, 4), 1));
            t.put("b", random(arena, ArrayShape.of(ElementType.F32, 4), 2));
            Path in = dir.resolve("m.safetensors");
            SafeTensors.write(t, in);
            IllegalArgumentException rank = assertThrows(IllegalArgumentException.class, () -> TensorFiles.convert(in,
                    dir.resolve("o.safetensors"), ConvertRules.all().layout("*", Layout.columnMajor(2)), small()));
            assertTrue(rank.getMessage().contains("'b'"), rank.getMessage());
            IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
                    () -> TensorFiles.convert(in, dir.resolve("o.npy"), ConvertRules.all(), small()));
            assertTrue(two.getMessage().contains("one tensor"), two.getMessage());
            IllegalArgumentException gguf = assertThrows(IllegalArgumentException.class,
                    () -> TensorFiles.convert(in, dir.resolve("o.gguf"), ConvertRules.all(), small()));
            assertTrue(gguf.getMessage().contains(".gguf"), gguf.getMessage());
            TensorFormatException none = assertThrows(TensorFormatException.class, () -> TensorFiles.convert(in,
                    dir.resolve("o.npy"), ConvertRules.all().only("nope"), small()));
            assertTrue(none.getMessage().contains("nope"), none.getMessage());
            IllegalArgumentException tiledNpy = assertThrows(IllegalArgumentException.class, () -> TensorFiles.convert(in,
                    dir.resolve("o.npy"), ConvertRules.all().only("w").layout("w", shape("f32[1,1]{1,0:T(2,2)}").layout()),
                    small()));
            assertTrue(tiledNpy.getMessage().contains(".npy"), tiledNpy.getMessage());
            IoFixtures.assertNoTemporaries(dir);
        }
    }

    @Test
    void globsMatchWholeNamesFirstRuleWins() {
        ConvertRules r = ConvertRules.all().layout("model.*.weight", Layout.columnMajor(2))
                .layout("*", Layout.rowMajor(2)).type("*.q?", ElementType.BF16);
        ArrayShape s = ArrayShape.of(ElementType.F32, 2, 3);
        assertEquals(Layout.columnMajor(2), r.target("model.layers/0.weight", s).layout());
        assertEquals(Layout.rowMajor(2), r.target("model.weight.x", s).layout());
        assertEquals(ElementType.BF16, r.target("a.qk", s).elementType());
        assertEquals(ElementType.F32, r.target("a.qkv", s).elementType());
    }
}
