package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.TensorFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed GGUF files, built byte by byte: each is refused with a {@link TensorFormatException} whose
 * message names the file and the field at fault, and no lying count allocates what it claims.
 */
class GgufBadInputTest {
    @TempDir
    Path dir;

    /** A little-endian byte builder for GGUF files. */
    static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u8(int v) {
            out.write(v);
            return this;
        }

        Bytes u32(long v) {
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array());
            return this;
        }

        Bytes u64(long v) {
            out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
            return this;
        }

        Bytes str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u64(b.length);
            out.writeBytes(b);
            return this;
        }

        Bytes raw(byte... b) {
            out.writeBytes(b);
            return this;
        }

        /** Magic, version 3, the counts. */
        static Bytes header(long tensors, long kvs) {
            return new Bytes().raw("GGUF".getBytes(StandardCharsets.US_ASCII)).u32(3).u64(tensors).u64(kvs);
        }

        /** A tensor info: name, dims (ne order), type id, offset. */
        Bytes tensor(String name, long[] ne, int type, long offset) {
            str(name).u32(ne.length);
            for (long n : ne) {
                u64(n);
            }
            return u32(type).u64(offset);
        }

        /** Pads to {@code align} and appends {@code n} data bytes. */
        Bytes data(int align, int n) {
            while (out.size() % align != 0) {
                out.write(0);
            }
            out.writeBytes(new byte[n]);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private TensorFormatException refused(byte[] file, String... inMessage) throws IOException {
        Path p = Files.write(dir.resolve("bad.gguf"), file);
        TensorFormatException e = assertThrows(TensorFormatException.class, () -> Gguf.readHeader(p));
        assertTrue(e.getMessage().startsWith(p.toString() + ": "), e.getMessage());
        for (String s : inMessage) {
            assertTrue(e.getMessage().contains(s), "'" + s + "' not in: " + e.getMessage());
        }
        return e;
    }

    @Test
    void aValidHandMadeFileReads() throws IOException {
        byte[] f = Bytes.header(1, 1).str("k").u32(4).u32(7).tensor("t", new long[] {4, 2}, 0, 0).data(32, 32).bytes();
        Path p = Files.write(dir.resolve("ok.gguf"), f);
        GgufHeader h = Gguf.readHeader(p);
        assertEquals(7, h.metadata().get("k").asLong());
        assertEquals(32, h.tensors().get(0).byteSize());
    }

    @Test
    void magicAndVersion() throws IOException {
        TensorFormatException e = refused("GGUX".getBytes(StandardCharsets.US_ASCII));
        assertTrue(e.getMessage().endsWith(": magic: expected 47 47 55 46 (\"GGUF\"), found 47 47 55 58 (\"GGUX\")"),
                e.getMessage());
        e = refused(new byte[] {(byte) 0xa0, 0x01, 0x00, 0x7f, '{'});
        assertTrue(e.getMessage().endsWith("found a0 01 00 7f (\"....\")"), e.getMessage());
        refused(new Bytes().raw("GGUF".getBytes(StandardCharsets.US_ASCII)).u32(3L << 24).u64(0).u64(0).bytes(),
                "version", "big-endian");
        refused(new Bytes().raw("GGUF".getBytes(StandardCharsets.US_ASCII)).u32(1).u64(0).u64(0).bytes(),
                "version: 1 is not supported");
        refused(new Bytes().raw("GGUF".getBytes(StandardCharsets.US_ASCII)).u32(4).bytes(), "version: 4");
        refused(new byte[] {'G', 'G'}, "magic");
    }

    @Test
    void lyingCountsAndLengths() throws IOException {
        refused(Bytes.header(1L << 40, 0).bytes(), "tensor_count", "1099511627776");
        refused(Bytes.header(0, -1).bytes(), "metadata_kv_count", "18446744073709551615");
        refused(Bytes.header(0, 1).u64(1L << 50).raw(new byte[16]).bytes(), "metadata key #0 length");
        refused(Bytes.header(0, 1).str("k").u32(8).u64(1000).raw(new byte[20]).bytes(), "metadata 'k' length", "1000");
        // an array that claims 2^61 u64 items, and 2^40 strings: refused before anything is allocated
        refused(Bytes.header(0, 1).str("k").u32(9).u32(10).u64(1L << 61).raw(new byte[64]).bytes(),
                "metadata 'k' array length");
        refused(Bytes.header(0, 1).str("k").u32(9).u32(8).u64(1L << 40).raw(new byte[64]).bytes(),
                "metadata 'k' array length");
        refused(Bytes.header(0, 1).str("k").u32(9).u32(0).u64(5).raw(new byte[4]).bytes(), "metadata 'k' array length");
    }

    @Test
    void unknownTypesBadValuesAndNesting() throws IOException {
        refused(Bytes.header(0, 1).str("k").u32(13).u64(0).bytes(), "metadata 'k' type", "unknown value type 13");
        refused(Bytes.header(0, 1).str("k").u32(9).u32(99).u64(0).bytes(), "array type", "unknown value type 99");
        refused(Bytes.header(0, 1).str("k").u32(7).u8(2).bytes(), "metadata 'k'", "bool byte 2");
        refused(Bytes.header(0, 1).u64(2).raw((byte) 0xC3, (byte) 0x28).u32(4).u32(1).bytes(), "metadata key #0",
                "UTF-8");
        refused(Bytes.header(0, 2).str("k").u32(4).u32(1).str("k").u32(4).u32(2).bytes(), "metadata 'k'", "repeated");
        Bytes deep = Bytes.header(0, 1).str("k").u32(9);
        for (int i = 0; i < 9; i++) {
            deep.u32(9).u64(1);
        }
        deep.u32(4).u64(1).u32(0);
        refused(deep.bytes(), "nested deeper than 8");
        Bytes ok = Bytes.header(0, 1).str("k").u32(9);
        for (int i = 0; i < 7; i++) {
            ok.u32(9).u64(1);
        }
        ok.u32(4).u64(1).u32(0);
        Gguf.readHeader(Files.write(dir.resolve("deep-ok.gguf"), ok.bytes()));
    }

    @Test
    void alignment() throws IOException {
        refused(Bytes.header(0, 1).str("general.alignment").u32(10).u64(32).bytes(), "general.alignment", "UINT32");
        refused(Bytes.header(0, 1).str("general.alignment").u32(4).u32(48).bytes(), "general.alignment",
                "48 is not a power of two");
        refused(Bytes.header(0, 1).str("general.alignment").u32(4).u32(0).bytes(), "general.alignment");
        byte[] f = Bytes.header(1, 1).str("general.alignment").u32(4).u32(64)
                .tensor("t", new long[] {8}, 0, 0).data(64, 32).bytes();
        GgufHeader h = Gguf.readHeader(Files.write(dir.resolve("a64.gguf"), f));
        assertEquals(64, h.alignment());
        assertEquals(0, h.dataOffset() % 64);
    }

    @Test
    void tensorInfos() throws IOException {
        refused(Bytes.header(1, 0).tensor("t", new long[9], 0, 0).bytes(), "tensor 't' n_dimensions: 9");
        refused(Bytes.header(1, 0).tensor("t", new long[] {-1}, 0, 0).bytes(), "tensor 't' ne[0]",
                "18446744073709551615");
        refused(Bytes.header(1, 0).tensor("t", new long[] {1L << 40, 1L << 40}, 0, 0).bytes(), "tensor 't' ne", "overflows");
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 4, 0).data(32, 64).bytes(), "tensor 't' type",
                "unknown ggml type 4");
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 1000, 0).data(32, 64).bytes(), "unknown ggml type 1000");
        refused(Bytes.header(1, 0).tensor("t", new long[] {33}, 2, 0).data(32, 64).bytes(), "tensor 't' ne[0]: 33",
                "Q4_0's block size 32");
        refused(Bytes.header(2, 0).tensor("t", new long[] {1}, 0, 0).tensor("t", new long[] {1}, 0, 32).data(32, 64)
                .bytes(), "tensor 't'", "name repeated");
        refused(Bytes.header(1, 0).tensor("t", new long[] {1L << 62}, 0, 0).data(32, 4).bytes(), "overflows");
        // no elements (a zero in ne), but the other dimensions overflow int64 in Tegula's order (ne reversed),
        // which the shape rule refuses: found by GgufFuzzTest (regression-zero-dimension-overflowing-shape)
        refused(Bytes.header(1, 0).tensor("t", new long[] {3, 0, 1L << 40, 1L << 40}, 0, 0).data(32, 0).bytes(),
                "tensor 't' ne", "is not a valid shape", "exceeds int64");
        refused(Bytes.header(1, 0).tensor("t", new long[] {0, 1L << 40, 1L << 40}, 0, 0).data(32, 0).bytes(),
                "tensor 't' ne", "is not a valid shape", "exceeds int64");
        // the same dimensions in the order that stays in range reads (1 << 40 times 3 times 0)
        Path ok = Files.write(dir.resolve("empty.gguf"),
                Bytes.header(1, 0).tensor("t", new long[] {1L << 40, 3, 0}, 0, 0).data(32, 0).bytes());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(0, Gguf.open(ok, arena).tensor("t").array().shape().elementCount());
        }
    }

    @Test
    void offsetsAndSizes() throws IOException {
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 0, 8).data(32, 64).bytes(), "tensor 't' offset: 8",
                "alignment 32");
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 0, 64).data(32, 64).bytes(), "tensor 't'",
                "exceed the data section");
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 0, -32).data(32, 64).bytes(), "tensor 't' offset");
        // the tensor's byte size (type and shape) does not fit the bytes the file has
        refused(Bytes.header(1, 0).tensor("t", new long[] {32, 2}, 8, 0).data(32, 67).bytes(), "tensor 't'",
                "+ 68", "exceed the data section (67 bytes");
        refused(Bytes.header(2, 0).tensor("a", new long[] {16}, 0, 0).tensor("b", new long[] {8}, 0, 32).data(32, 96)
                .bytes(), "tensor 'b' offset: 32 overlaps tensor 'a' [0, 64)");
        refused(Bytes.header(1, 0).tensor("t", new long[] {4}, 0, 0).bytes(), "data section");
    }

    @Test
    void everyTruncationOfARealFileIsRefused() throws IOException {
        byte[] full;
        try (InputStream in = getClass().getResourceAsStream("all_types_v3.gguf")) {
            full = in.readAllBytes();
        }
        Path whole = Files.write(dir.resolve("whole.gguf"), full);
        long end = Gguf.readHeader(whole).tensors().stream().mapToLong(t -> t.offset() + t.byteSize()).max().orElseThrow()
                + Gguf.readHeader(whole).dataOffset();
        for (int n = 0; n < end; n += n < 1200 ? 1 : 37) {
            Path p = Files.write(dir.resolve("cut.gguf"), Arrays.copyOf(full, n));
            assertThrows(TensorFormatException.class, () -> Gguf.readHeader(p), "cut at " + n);
        }
    }
}
