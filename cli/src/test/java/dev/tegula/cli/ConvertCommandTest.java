package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tegula convert} and {@code tegula inspect FILE}, run in process. */
class ConvertCommandTest {
    @TempDir
    Path dir;
    Path model;

    @BeforeEach
    void writeModel() throws IOException {
        model = dir.resolve("model.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Array w = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 20, 300));
            w.copyFrom(IntStream.range(0, 6000).mapToDouble(i -> i % 200).toArray());
            Array b = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 4));
            b.copyFrom(IntStream.range(0, 12).mapToDouble(i -> i).toArray());
            Map<String, Array> t = new LinkedHashMap<>();
            t.put("w", w);
            t.put("b", b);
            SafeTensors.write(t, Map.of("format", "pt"), model);
        }
    }

    @Test
    void convertWritesTheDeviceReadyBufferAndPrintsItsShape() throws IOException {
        Path out = dir.resolve("w.bin");
        MainTest.Result r = MainTest.run("convert", model.toString(), "--tensor", "w", "--layout", "{1,0:T(8,128)(2,1)}",
                "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("bf16[20,300]{1,0:T(8,128)(2,1)}\n", r.out());
        ArrayShape shape = ArrayShape.parse("bf16[20,300]{1,0:T(8,128)(2,1)}");
        byte[] bytes = Files.readAllBytes(out);
        assertEquals(shape.bufferSize(), bytes.length);
        try (Arena arena = Arena.ofConfined()) {
            Array tiled = Array.wrap(MemorySegment.ofArray(bytes), shape);
            Array original = SafeTensors.read(model, "w", arena);
            assertTrue(original.contentEquals(tiled));
        }
    }

    @Test
    void aTemporaryAnInterruptedConvertLeftIsRemovedAndNamedInOneLine() throws IOException {
        Path out = dir.resolve("w.bin");
        Path stale = Files.write(dir.resolve(".w.bin.4242.tmp"), new byte[3000]);   // no writer holds it; 2.9 KiB
        MainTest.Result r = MainTest.run("convert", model.toString(), "--tensor", "w", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("tegula convert: removed a temporary (2.9 KiB) that an interrupted convert of the same output"
                + " left: " + stale + "\n", r.err());
        assertFalse(Files.exists(stale));
        MainTest.Result again = MainTest.run("convert", model.toString(), "--tensor", "w", "--out", out.toString());
        assertEquals("", again.err(), "nothing left to remove");
    }

    @Test
    void emptyTemporariesAKilledConvertLeftAreNamedEmptyNotZeroBytes() throws IOException {
        Path out = dir.resolve("w.bin");
        Path a = Files.write(dir.resolve(".w.bin.11.tmp"), new byte[0]);   // killed before its header was written
        Path b = Files.write(dir.resolve(".w.bin.22.tmp"), new byte[0]);
        MainTest.Result r = MainTest.run("convert", model.toString(), "--tensor", "w", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("tegula convert: removed 2 temporaries (all empty) that an interrupted convert of the same output"
                + " left: " + a + ", " + b + "\n", r.err());
    }

    @Test
    void convertToNpyUsesFortranOrderForColumnMajor() throws IOException {
        Path out = dir.resolve("b.npy");
        MainTest.Result r = MainTest.run("convert", model.toString(), "--tensor", "b", "--layout", "{0,1}", "--out",
                out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("f32[3,4]{0,1}\n", r.out());
        assertTrue(Npy.readHeader(out).fortranOrder());
        try (Arena arena = Arena.ofConfined()) {
            Array a = Npy.read(out, arena);
            assertEquals(Layout.columnMajor(2), a.shape().layout());
            assertArrayEquals(IntStream.range(0, 12).mapToDouble(i -> i).toArray(), a.toDoubleArray());
        }
        MainTest.Result back = MainTest.run("convert", out.toString(), "--out", dir.resolve("c.npy").toString());
        assertEquals("f32[3,4]{1,0}\n", back.out(), back.err());
        assertTrue(!Npy.readHeader(dir.resolve("c.npy")).fortranOrder());
    }

    @Test
    void badInputExitsTwoWithOneLine() throws IOException {
        Path bad = Files.write(dir.resolve("bad.safetensors"), new byte[] {1, 2, 3});
        String[][] cases = {
            {"convert", bad.toString(), "--out", dir.resolve("x").toString()},
            {"convert", model.toString(), "--tensor", "nope", "--out", dir.resolve("x").toString()},
            {"convert", model.toString(), "--out", dir.resolve("x").toString()},
            {"convert", model.toString(), "--tensor", "w", "--layout", "{1,0:T(8,", "--out", dir.resolve("x").toString()},
            {"convert", model.toString(), "--tensor", "w", "--layout", "{2,1,0}", "--out", dir.resolve("x").toString()},
            {"convert", model.toString(), "--tensor", "w", "--layout", "{1,0}", "--out", dir.resolve("x.npy").toString()},
            {"convert", model.toString(), "--tensor", "b", "--layout", "{1,0:T(2,2)}", "--out", dir.resolve("x.npy").toString()},
            {"convert", dir.resolve("missing.safetensors").toString(), "--tensor", "w", "--out", dir.resolve("x").toString()},
            {"inspect", bad.toString()},
            {"inspect", dir.resolve("missing.npy").toString()},
        };
        for (String[] args : cases) {
            MainTest.Result r = MainTest.run(args);
            assertEquals(2, r.status(), String.join(" ", args) + "\n" + r.out() + r.err());
            assertEquals(1, r.err().strip().split("\n").length, r.err());
            assertEquals("", r.out());
        }
        assertTrue(MainTest.run(cases[0]).err().contains("bad tensor file"), MainTest.run(cases[0]).err());
        assertTrue(MainTest.run(cases[1]).err().contains("nope"));
        assertTrue(MainTest.run(cases[2]).err().contains("(raw) holds one tensor and " + model + " has 2 [w, b]"),
                MainTest.run(cases[2]).err());
        assertTrue(MainTest.run(cases[5]).err().contains("bf16 has no .npy dtype"));
        assertTrue(MainTest.run(cases[6]).err().contains("row-major (C) or column-major"));
    }

    @Test
    void inspectListsTheTensorsOfAFile() throws IOException {
        MainTest.Result r = MainTest.run("inspect", model.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("safetensors, 2 tensors"), r.out());
        assertTrue(r.out().contains("__metadata__ format = pt"), r.out());
        assertTrue(r.out().matches("(?s).*\\n  w +bf16\\[20,300\\]\\{1,0\\} +BF16 +12000 B.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\n  b +f32\\[3,4\\]\\{1,0\\} +F32 +48 B.*"), r.out());
        Path npy = dir.resolve("f.npy");
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(Array.allocate(arena, ArrayShape.of(ElementType.S16, 2, 5).withLayout(Layout.columnMajor(2))), npy);
        }
        MainTest.Result n = MainTest.run("inspect", npy.toString());
        assertEquals(0, n.status(), n.err());
        assertTrue(n.out().contains(".npy version 1.0, Fortran order, little-endian, data at byte 128"), n.out());
        assertTrue(n.out().contains("s16[2,5]{0,1}"), n.out());
        assertTrue(n.out().contains("20 B"), n.out());
    }

    @Test
    void aFileOfNoKnownFormatIsSaidToBeUnknownWithItsFirstBytes() throws Exception {
        Path text = java.nio.file.Files.writeString(dir.resolve("readme.data"), "hello, world: not a tensor");
        MainTest.Result r = MainTest.run("convert", text.toString(), "--out", dir.resolve("out.npy").toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("unknown tensor file format: it starts with 68 65 6c 6c 6f"), r.err());
        assertFalse(r.err().contains("over the cap"), r.err());
    }
}
