package dev.tegula.io.safetensors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafeTensorsTest {
    @TempDir
    Path dir;

    /** The example of the reference implementation's documentation, written by hand from the format. */
    @Test
    void readsAHandWrittenFile() throws IOException {
        ByteBuffer data = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(-2).putInt(3).putInt(4);
        Path p = IoFixtures.write(dir, "t.safetensors", IoFixtures.safetensors(
                "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
                        + "\"__metadata__\":{\"format\":\"pt\"}}", data.array()));
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = SafeTensors.read(p, arena);
            Array a = t.get("test");
            assertEquals("s32[2,2]{1,0}", a.shape().toString());
            assertArrayEquals(new long[] {1, -2, 3, 4}, a.toLongArray());
            assertTrue(a.segment().isMapped());
            assertTrue(a.isReadOnly());
        }
        assertEquals(Map.of("format", "pt"), SafeTensors.readHeader(p).metadata());
    }

    @Test
    void everyDtypeRoundTripsInOrderWithMetadata() throws IOException {
        List<ElementType> types = List.of(ElementType.PRED, ElementType.U8, ElementType.S8, ElementType.U16, ElementType.S16,
                ElementType.U32, ElementType.S32, ElementType.U64, ElementType.S64, ElementType.F16, ElementType.BF16,
                ElementType.F32, ElementType.F64, ElementType.C64, ElementType.F8E5M2, ElementType.F8E4M3FN,
                ElementType.F8E8M0FNU, ElementType.F6E2M3FN, ElementType.F6E3M2FN, ElementType.F4E2M1FN);
        Path p = dir.resolve("all.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            SequencedMap<String, Array> in = new LinkedHashMap<>();
            for (ElementType t : types) {
                Array a = Array.allocate(arena, ArrayShape.of(t, 3, 4));
                for (int i = 0; i < 12; i++) {
                    long[] idx = {i / 4, i % 4};
                    if (t.isComplex()) {
                        a.setComplex(idx, i, -i);
                    } else if (t == ElementType.F8E8M0FNU) {
                        a.setDouble(idx, Math.scalb(1.0, i - 3));
                    } else if (t.isPred()) {
                        a.setBoolean(idx, i % 3 == 0);
                    } else {
                        a.setDouble(idx, (i % 5) * (t.isUnsigned() ? 1 : -1) * 0.5 * (t.isIntegral() ? 2 : 1));
                    }
                }
                in.put("z_" + t.hloName(), a);   // names not sorted: the map's order is the file's order
            }
            SafeTensors.write(in, Map.of("source", "tegula"), p);
            SequencedMap<String, Array> out = SafeTensors.read(p, arena);
            assertEquals(List.copyOf(in.keySet()), List.copyOf(out.keySet()));
            for (String k : in.keySet()) {
                assertTrue(in.get(k).contentEquals(out.get(k)), k + "\n" + in.get(k) + "\n" + out.get(k));
            }
            assertEquals("f4e2m1fn[3,4]{1,0:E(4)}", out.get("z_f4e2m1fn").shape().toString());
            assertTrue(out.get("z_f4e2m1fn").segment().isMapped(), "F4 is wrapped packed, without a copy");
            assertFalse(out.get("z_f6e2m3fn").segment().isMapped(), "F6 is unpacked into a new array");
            SafeTensorsHeader h = SafeTensors.readHeader(p);
            assertEquals(0, h.dataOffset() % SafeTensors.ALIGNMENT);
            assertEquals(Map.of("source", "tegula"), h.metadata());
            assertEquals("F8_E4M3", h.entry("z_f8e4m3fn").dtype());
            assertEquals(9, h.entry("z_f6e2m3fn").byteSize(), "12 six-bit codes pack into 9 bytes");
        }
    }

    @Test
    void sixBitCodesPackAsALittleEndianBitStream() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F6E3M2FN, 4));
            long[] codes = {0x3F, 0x01, 0x20, 0x15};
            for (int i = 0; i < 4; i++) {
                a.setRawBits(new long[] {i}, codes[i]);
            }
            Path p = dir.resolve("f6.safetensors");
            SafeTensors.write(Map.of("x", a), p);
            SafeTensorsHeader h = SafeTensors.readHeader(p);
            byte[] file = Files.readAllBytes(p);
            int bits = 0x3F | 0x01 << 6 | 0x20 << 12 | 0x15 << 18;
            assertArrayEquals(new byte[] {(byte) bits, (byte) (bits >>> 8), (byte) (bits >>> 16)},
                    java.util.Arrays.copyOfRange(file, (int) h.dataOffset(), file.length));
            Array b = SafeTensors.read(p, "x", arena);
            for (int i = 0; i < 4; i++) {
                assertEquals(codes[i], b.getRawBits(i));
            }
        }
    }

    @Test
    void nonRowMajorArraysAreWrittenRowMajor() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array tiled = Array.allocate(arena, ArrayShape.parse("bf16[16,256]{1,0:T(8,128)(2,1)}"));
            tiled.copyFrom(java.util.stream.IntStream.range(0, 16 * 256).mapToDouble(i -> i % 251).toArray());
            Array col = Array.allocate(arena, ArrayShape.of(ElementType.S64, 3, 5).withLayout(Layout.columnMajor(2)));
            col.copyFrom(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
            Array packed = Array.allocate(arena, ArrayShape.parse("f4e2m1fn[4,6]{0,1:E(4)}"));
            packed.fill(1.5);
            Path p = dir.resolve("mixed.safetensors");
            SafeTensors.write(Map.of("tiled", tiled), p);
            assertTrue(tiled.contentEquals(SafeTensors.read(p, "tiled", arena)));
            SafeTensors.write(Map.of("col", col, "packed", packed), p);
            assertTrue(col.contentEquals(SafeTensors.read(p, "col", arena)));
            assertTrue(packed.contentEquals(SafeTensors.read(p, "packed", arena)));
        }
    }

    @Test
    void streamingWriterTakesOneTensorAtATimeInDeclaredOrder() throws IOException {
        SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
        shapes.put("w", ArrayShape.of(ElementType.F32, 64, 64));
        shapes.put("b", ArrayShape.of(ElementType.F32, 64));
        Path p = dir.resolve("stream.safetensors");
        try (SafeTensorsWriter w = SafeTensors.writer(p, shapes, Map.of())) {
            try (Arena one = Arena.ofConfined()) {      // each tensor lives only while it is written
                Array a = Array.allocate(one, shapes.get("w"));
                a.fill(2.0);
                assertThrows(IllegalArgumentException.class, () -> w.write("b", a));
                w.write("w", a);
            }
            try (Arena one = Arena.ofConfined()) {
                MemorySegmentBytes.writeBias(w, one);
            }
            assertThrows(IllegalStateException.class, () -> w.write("w", null));
        }
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = SafeTensors.read(p, arena);
            assertEquals(2.0f, t.get("w").getFloat(63, 63));
            assertEquals(63f, t.get("b").getFloat(63));
        }
    }

    /** Writes tensor "b" from raw little-endian bytes. */
    private static final class MemorySegmentBytes {
        static void writeBias(SafeTensorsWriter w, Arena arena) throws IOException {
            var seg = arena.allocate(64 * 4);
            for (int i = 0; i < 64; i++) {
                seg.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i, i);
            }
            w.writeBytes("b", seg);
        }
    }

    @Test
    void aWriterClosedEarlyDeletesTheIncompleteFileAndSaysWhichTensorsAreMissing() throws IOException {
        SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
        shapes.put("a", ArrayShape.of(ElementType.U8, 4));
        shapes.put("b", ArrayShape.of(ElementType.U8, 4));
        Path p = dir.resolve("partial.safetensors");
        SafeTensorsWriter w = SafeTensors.writer(p, shapes, Map.of());
        IOException e = assertThrows(IOException.class, w::close);
        assertTrue(e.getMessage().contains("[a, b]"), e.getMessage());
        assertFalse(Files.exists(p));
    }

    @Test
    void writerRefusesWhatTheFormatCannotHold() {
        try (Arena arena = Arena.ofConfined()) {
            Array s4 = Array.allocate(arena, ArrayShape.of(ElementType.S4, 2));
            assertThrows(IllegalArgumentException.class, () -> SafeTensors.write(Map.of("x", s4), dir.resolve("x")));
            Array f4 = Array.allocate(arena, ArrayShape.of(ElementType.F4E2M1FN, 3));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SafeTensors.write(Map.of("x", f4), dir.resolve("x")));
            assertTrue(e.getMessage().contains("12 bits"), e.getMessage());
            Array u8 = Array.allocate(arena, ArrayShape.of(ElementType.U8, 1));
            assertThrows(IllegalArgumentException.class, () -> SafeTensors.write(Map.of("__metadata__", u8), dir.resolve("x")));
        }
    }

    @Test
    void namesWithQuotesAndUnicodeSurviveAndEmptyFilesWork() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F64));
            a.fill(7.0);
            String name = "we\"ird\\name\n\u00e9\u4e2d";
            Path p = dir.resolve("n.safetensors");
            SafeTensors.write(Map.of(name, a), p);
            assertEquals(7.0, SafeTensors.read(p, arena).get(name).getDouble());
            SafeTensors.write(Map.of(), p);
            assertTrue(SafeTensors.read(p, arena).isEmpty());
        }
    }

    /** The header of declared tensors, written by hand from the format: offsets one after another, then spaces to 64. */
    @Test
    void headerOfDeclaredTensorsIsTheFormatsJson() throws IOException {
        SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
        shapes.put("w", ArrayShape.of(ElementType.BF16, 2, 3));
        shapes.put("q\"", ArrayShape.parse("f4e2m1fn[2,2]{0,1}"));   // layout ignored: stored row-major, packed
        SafeTensorsHeader h = SafeTensorsHeader.of(shapes, Map.of("format", "pt"));
        String json = "{\"__metadata__\":{\"format\":\"pt\"},\"w\":{\"dtype\":\"BF16\",\"shape\":[2,3],\"data_offsets\":[0,12]},"
                + "\"q\\\"\":{\"dtype\":\"F4\",\"shape\":[2,2],\"data_offsets\":[12,14]}}";
        byte[] bytes = h.toBytes();
        assertEquals(192, bytes.length, "8 + 147 bytes of text, padded to a multiple of 64");
        assertEquals(147, json.length());
        assertEquals(bytes.length, h.dataOffset());
        assertEquals(bytes.length - 8, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong());
        assertEquals(json + " ".repeat(bytes.length - 8 - json.length()), new String(bytes, 8, bytes.length - 8, "UTF-8"));
        assertEquals("f4e2m1fn[2,2]{1,0:E(4)}", h.entry("q\"").shape().toString());
        Path p = dir.resolve("h.safetensors");
        Files.write(p, java.util.Arrays.copyOf(bytes, bytes.length + 14));
        assertEquals(h, SafeTensors.readHeader(p), "what is written reads back as the same header");
    }

    @Test
    void headerRefusesWhatAFileCannotHold() {
        SequencedMap<String, ArrayShape> odd = new LinkedHashMap<>();
        odd.put("x", ArrayShape.of(ElementType.F4E2M1FN, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SafeTensorsHeader.of(odd, Map.of()));
        assertTrue(e.getMessage().contains("not a whole number of bytes"), e.getMessage());
        SequencedMap<String, ArrayShape> reserved = new LinkedHashMap<>();
        reserved.put("__metadata__", ArrayShape.of(ElementType.F32, 1));
        e = assertThrows(IllegalArgumentException.class, () -> SafeTensorsHeader.of(reserved, Map.of()));
        assertTrue(e.getMessage().contains("__metadata__ is reserved"), e.getMessage());
        SequencedMap<String, ArrayShape> s4 = new LinkedHashMap<>();
        s4.put("x", ArrayShape.of(ElementType.S4, 2));
        e = assertThrows(IllegalArgumentException.class, () -> SafeTensorsHeader.of(s4, Map.of()));
        assertTrue(e.getMessage().contains("s4 has no safetensors dtype"), e.getMessage());
    }

    @Test
    void openGivesTheHeaderAndTheTensorsOfOneMapping() throws IOException {
        Path p = dir.resolve("o.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            SequencedMap<String, Array> in = new LinkedHashMap<>();
            in.put("b", Array.allocate(arena, ArrayShape.of(ElementType.F32, 3)));
            in.put("a", Array.allocate(arena, ArrayShape.of(ElementType.F6E2M3FN, 4)));
            in.get("b").fill(2.5);
            in.get("a").fill(1.5);
            SafeTensors.write(in, Map.of("k", "v"), p);
            SafeTensorsFile f = SafeTensors.open(p, arena);
            assertEquals(Map.of("k", "v"), f.header().metadata());
            assertEquals(List.of("b", "a"), List.copyOf(f.tensors().keySet()));
            assertTrue(in.get("b").contentEquals(f.tensor("b")));
            assertTrue(f.tensor("b").isReadOnly() && f.tensor("b").segment().isMapped(), "a view of the mapping");
            assertTrue(in.get("a").contentEquals(f.tensor("a")), "f6 unpacked one per byte");
            TensorFormatException e = assertThrows(TensorFormatException.class, () -> f.tensor("c"));
            assertEquals(p + ": tensor 'c' is not in the file (it has [b, a])", e.getMessage());
        }
    }
}
