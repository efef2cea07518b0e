package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula convert}: outputs of 2 GiB and more, layouts larger than memory, the output format
 * from the extension, raw files read back with {@code --shape}, the progress bar, the options that
 * only some inputs take, shape text and scalar layouts in {@code --layout}, error texts, and whole
 * checkpoints.
 */
class ConvertCommandFormatsTest {
    @TempDir
    Path dir;

    private Path npy(String name, ArrayShape shape) throws IOException {
        Path p = dir.resolve(name);
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, shape);
            a.copyFrom(IntStream.range(0, (int) shape.elementCount()).mapToDouble(i -> i % 1000).toArray());
            Npy.write(a, p);
        }
        return p;
    }

    /** A raw output of 2 GiB or more was refused by an asByteBuffer and left a 0-byte file. */
    @Test
    void rawOutputOfMoreThan2GiBIsWritten() throws IOException {
        long rows = 8;
        long cols = (1L << 26) + 128;   // 8 x 67108992 f32 = 2 GiB + 4 KiB
        Path in = dir.resolve("big.npy");
        byte[] header = npyHeader("<f4", rows, cols);
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(header));
            // a sparse file of zeros, with a few known values
            for (long[] rc : new long[][] {{0, 0}, {3, 12345}, {7, cols - 1}, {5, 1L << 25}}) {
                ByteBuffer v = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(rc[0] * 1000 + rc[1] % 1000 + 1);
                ch.write(v.flip(), header.length + 4 * (rc[0] * cols + rc[1]));
            }
            try (RandomAccessFile f = new RandomAccessFile(in.toFile(), "rw")) {
                f.setLength(header.length + 4 * rows * cols);
            }
        }
        Path out = dir.resolve("big.bin");
        try {
            MainTest.Result r = MainTest.run("convert", in.toString(), "--layout", "{1,0:T(8,128)}", "--out", out.toString());
            assertEquals(0, r.status(), r.err());
            ArrayShape tiled = ArrayShape.parse("f32[8," + cols + "]{1,0:T(8,128)}");
            assertEquals(tiled + "\n", r.out());
            assertEquals(tiled.bufferSize(), Files.size(out));
            try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(out, StandardOpenOption.READ)) {
                Array a = Array.wrap(ch.map(FileChannel.MapMode.READ_ONLY, 0, Files.size(out), arena), tiled);
                for (long[] rc : new long[][] {{0, 0}, {3, 12345}, {7, cols - 1}, {5, 1L << 25}}) {
                    assertEquals(rc[0] * 1000 + rc[1] % 1000 + 1, a.getFloat(rc[0], rc[1]), "at " + rc[0] + "," + rc[1]);
                }
                assertEquals(0f, a.getFloat(6, 1L << 25));
            }
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(in);
        }
    }

    private static byte[] npyHeader(String descr, long... dims) {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims[0] + ", " + dims[1] + "), }";
        int total = (10 + dict.length() + 1 + 63) / 64 * 64;
        String padded = dict + " ".repeat(total - 10 - dict.length() - 1) + "\n";
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.putShort((short) padded.length()).put(padded.getBytes(StandardCharsets.US_ASCII));
        return b.array();
    }

    /** A layout far larger than memory threw OutOfMemoryError; now refused with its size. */
    @Test
    void aLayoutFarLargerThanMemoryOrDiskIsRefusedWithItsSize() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 3, 5));
        Path out = dir.resolve("x.bin");
        MainTest.Result r = MainTest.run("convert", in.toString(), "--layout", "{1,0:T(2000000,2000000)}", "--out",
                out.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("16000000000000 bytes") && r.err().contains("TiB"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertFalse(Files.exists(out));
        MainTest.Result o = MainTest.run("convert", in.toString(), "--layout", "{1,0:T(4000000000,4000000000)}", "--out",
                out.toString());
        assertEquals(2, o.status(), o.err());
        assertEquals(1, o.err().strip().split("\n").length, o.err());
        assertFalse(Files.exists(out));
        assertNoTemporaries();
    }

    /** --out x.safetensors wrote a headerless raw buffer; the extension now picks the format. */
    @Test
    void outPicksTheFormatByItsExtension() throws IOException {
        Path in = npy("w.npy", ArrayShape.of(ElementType.F32, 4, 6));
        Path st = dir.resolve("w.safetensors");
        MainTest.Result r = MainTest.run("convert", in.toString(), "--out", st.toString());
        assertEquals(0, r.status(), r.err());
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = SafeTensors.read(st, arena);
            assertEquals(1, t.size());
            assertArrayEquals(IntStream.range(0, 24).mapToDouble(i -> i).toArray(), t.get("w").toDoubleArray());
        }
        for (String ext : new String[] {"gguf", "pt", "npz"}) {
            MainTest.Result bad = MainTest.run("convert", in.toString(), "--out", dir.resolve("w." + ext).toString());
            assertEquals(2, bad.status(), ext);
            assertTrue(bad.err().contains("does not write ." + ext), bad.err());
            assertFalse(Files.exists(dir.resolve("w." + ext)));
        }
    }

    /** "Tiled and back" with the CLI alone: a raw file is read back with --shape. */
    @Test
    void tiledAndBackWithTheCliAlone() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 20, 300));
        Path raw = dir.resolve("a.bin");
        MainTest.Result there = MainTest.run("convert", in.toString(), "--layout", "{1,0:T(8,128)}", "--out", raw.toString());
        assertEquals(0, there.status(), there.err());
        String printed = there.out().strip();
        Path back = dir.resolve("back.npy");
        MainTest.Result r = MainTest.run("convert", raw.toString(), "--shape", printed, "--out", back.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("f32[20,300]{1,0}\n", r.out());
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(back));
        MainTest.Result wrong = MainTest.run("convert", raw.toString(), "--shape", "f32[30,300]{1,0:T(8,128)}", "--out",
                dir.resolve("x.npy").toString());
        assertEquals(2, wrong.status());
        assertTrue(wrong.err().contains("bytes"), wrong.err());
        MainTest.Result none = MainTest.run("convert", raw.toString(), "--out", dir.resolve("y.npy").toString());
        assertEquals(2, none.status());
    }

    /** Convert was silent for 27 s; a bar with bytes, rate and time left now shows on a terminal. */
    @Test
    void progressShowsBytesOnATerminalAndNothingOtherwise() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 1024, 1024));
        MainTest.Result bar = MainTest.run("convert", in.toString(), "--layout", "{0,1}", "--memory", "1M", "--progress",
                "always", "--out", dir.resolve("a.bin").toString());
        assertEquals(0, bar.status(), bar.err());
        assertTrue(bar.err().contains("\r"), bar.err());
        assertTrue(bar.err().matches("(?s).*4\\.0 MiB / 4\\.0 MiB.*"), bar.err());
        assertTrue(bar.err().matches("(?s).*100%.* [0-9.]+ s .*"), bar.err());   // the time taken; rates: ProgressBarTest
        MainTest.Result quiet = MainTest.run("convert", in.toString(), "--layout", "{0,1}", "--memory", "1M", "--out",
                dir.resolve("b.bin").toString());
        assertEquals(0, quiet.status(), quiet.err());
        assertEquals("", quiet.err());
    }

    /** --tensor on an .npy file was ignored; now refused. */
    @Test
    void tensorOnAnNpyIsRefused() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 2, 3));
        MainTest.Result r = MainTest.run("convert", in.toString(), "--tensor", "w", "--out", dir.resolve("x.npy").toString());
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("--tensor"), r.err());
        assertFalse(Files.exists(dir.resolve("x.npy")));
    }

    /** --layout takes the full shape text convert itself prints. */
    @Test
    void layoutAcceptsTheFullShapeTextConvertPrints() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 20, 300));
        MainTest.Result first = MainTest.run("convert", in.toString(), "--layout", "{1,0:T(8,128)}", "--out",
                dir.resolve("a.bin").toString());
        assertEquals(0, first.status(), first.err());
        MainTest.Result again = MainTest.run("convert", in.toString(), "--layout", first.out().strip(), "--out",
                dir.resolve("b.bin").toString());
        assertEquals(0, again.status(), again.err());
        assertEquals(first.out(), again.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.bin")), Files.readAllBytes(dir.resolve("b.bin")));
        MainTest.Result dims = MainTest.run("convert", in.toString(), "--layout", "f32[20,301]{1,0:T(8,128)}", "--out",
                dir.resolve("c.bin").toString());
        assertEquals(2, dims.status());
        assertTrue(dims.err().contains("[20, 301]") || dims.err().contains("20,301"), dims.err());
    }

    /** A scalar's {} layout works. */
    @Test
    void aScalarsEmptyLayoutWorks() throws IOException {
        Path in = dir.resolve("s.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array s = Array.allocate(arena, ArrayShape.of(ElementType.F32));
            s.setFloat(new long[0], 2.5f);
            Npy.write(s, in);
        }
        Path out = dir.resolve("s2.npy");
        MainTest.Result r = MainTest.run("convert", in.toString(), "--layout", "{}", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("f32[]"), r.out());
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
    }

    /** An error names the file and says what is wrong with it, without an exception's class name. */
    @Test
    void errorsNameTheFile() throws IOException {
        Path in = npy("a.npy", ArrayShape.of(ElementType.F32, 2, 3));
        Path missing = dir.resolve("missing.npy");
        MainTest.Result r = MainTest.run("convert", missing.toString(), "--out", dir.resolve("x.npy").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("no such file") && r.err().contains(missing.toString()), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        Path noDir = dir.resolve("no/such/dir/x.bin");
        MainTest.Result o = MainTest.run("convert", in.toString(), "--out", noDir.toString());
        assertEquals(2, o.status());
        assertTrue(o.err().contains("no such file") && o.err().contains("x.bin"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
    }

    /** A whole checkpoint with per-name rules and a type, then back, checked tensor by tensor. */
    @Test
    void aWholeCheckpointWithRulesAndBack() throws IOException {
        Path model = dir.resolve("model.safetensors");
        Map<String, Array> tensors = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            for (int n = 0; n < 12; n++) {
                int i = n;
                ArrayShape s = i % 3 == 0 ? ArrayShape.of(ElementType.BF16, 16 + i, 130)
                        : i % 3 == 1 ? ArrayShape.of(ElementType.F32, 40 + i) : ArrayShape.of(ElementType.S32, 3, 4, 5);
                Array a = Array.allocate(arena, s);
                a.copyFrom(IntStream.range(0, (int) s.elementCount()).mapToDouble(k -> (k * 7 + i) % 100).toArray());
                tensors.put("layers." + i + (i % 3 == 0 ? ".weight" : i % 3 == 1 ? ".bias" : ".index"), a);
            }
            SafeTensors.write(tensors, Map.of("format", "pt"), model);
            Path tiled = dir.resolve("model-tiled.safetensors");
            MainTest.Result r = MainTest.run("convert", model.toString(), "--layout", "*.weight={1,0:T(8,128)(2,1)}",
                    "--layout", "*.index={0,1,2}", "--type", "f32", "--out", tiled.toString());
            assertEquals(0, r.status(), r.err());
            assertEquals(12, r.out().strip().split("\n").length, r.out());
            assertTrue(r.out().contains("layers.0.weight f32[16,130]{1,0:T(8,128)(2,1)}"), r.out());
            assertTrue(r.out().contains("layers.2.index s32[3,4,5]{0,1,2}"), r.out());
            Path back = dir.resolve("back.safetensors");
            MainTest.Result b = MainTest.run("convert", tiled.toString(), "--out", back.toString());
            assertEquals(0, b.status(), b.err());
            Map<String, Array> got = SafeTensors.read(back, arena);
            assertEquals(tensors.keySet(), got.keySet());
            for (String name : tensors.keySet()) {
                assertArrayEquals(tensors.get(name).toDoubleArray(), got.get(name).toDoubleArray(), name);
            }
            assertEquals("pt", SafeTensors.readHeader(back).metadata().get("format"));
        }
        assertNoTemporaries();
    }

    private void assertNoTemporaries() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")));
        }
    }

}
