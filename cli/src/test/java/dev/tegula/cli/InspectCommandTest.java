package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula inspect} on hostile and awkward input, in process: nesting past the cap is one line
 * of refusal and deep valid nesting is summarised; names and metadata from a file are escaped and
 * cut; file sizes use the units of shape inspection; missing files, directories and structured
 * dtypes are named in words; several files print one after another, a bad one among them named.
 */
class InspectCommandTest {
    @TempDir
    Path dir;

    private Path npy(String name, long... dims) throws IOException {
        Path p = dir.resolve(name);
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(Array.allocate(arena, ArrayShape.of(ElementType.F32, dims)), p);
        }
        return p;
    }

    /** A safetensors file with this header JSON (already escaped) and {@code dataBytes} zero bytes. */
    private Path safetensors(String name, String json, int dataBytes) throws IOException {
        byte[] h = json.getBytes(StandardCharsets.UTF_8);
        int padded = h.length + (8 - h.length % 8) % 8;
        ByteBuffer b = ByteBuffer.allocate(8 + padded + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(padded).put(h);
        while (b.position() < 8 + padded) {
            b.put((byte) ' ');
        }
        Path p = dir.resolve(name);
        Files.write(p, b.array());
        return p;
    }

    private static void assertNoControlCharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertTrue(c == '\n' || (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && c != '\u202e'),
                    () -> "control character " + (int) text.charAt(text.indexOf(c)) + " in:\n" + text);
        }
    }

    // ---- shape text nested deeply -----------------------------------------------------------------------

    @Test
    void deeplyNestedTextIsOneLineOfRefusal() {
        MainTest.Result r = MainTest.run("inspect", "(".repeat(2000));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("nesting deeper than 64"), r.err());
        assertTrue(r.err().contains("offset 64"), r.err());
        assertTrue(r.err().lines().count() <= 3, r.err());
    }

    @Test
    void deepButValidNestingIsSummarised() {
        String text = "(".repeat(64) + "f32[2]" + ")".repeat(64);
        MainTest.Result r = MainTest.run("inspect", text);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().length() < 8_000, () -> r.out().length() + " characters");
        assertTrue(r.out().contains("nested more than 4 levels deep"), r.out());
        MainTest.Result wide = MainTest.run("inspect", "(" + "f32[2], ".repeat(1000) + "f32[2])");
        assertEquals(0, wide.status(), wide.err());
        assertTrue(wide.out().contains("969 more elements, not described"), wide.out());
        assertTrue(wide.out().length() < 40_000, () -> wide.out().length() + " characters");
    }

    // ---- control characters and long values from a file -----------------------------------------------

    @Test
    void namesAndMetadataAreEscapedAndCut() throws IOException {
        String big = "x".repeat(1_000_000);
        Path p = safetensors("evil.safetensors", "{\"__metadata__\":{\"k\":\"" + big + "\",\"e\\u001b[31mvil\":\"v\\nw\\u0000z\"},"
                + "\"n\\u001b[31mame\\nx\\u0000y\\u202e\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8);
        MainTest.Result r = MainTest.run("inspect", p.toString());
        assertEquals(0, r.status(), r.err());
        assertNoControlCharacters(r.out());
        assertTrue(r.out().contains("n\\x1b[31mame\\nx\\x00y\\u{202e}"), r.out());
        assertTrue(r.out().contains("e\\x1b[31mvil = v\\nw\\x00z"), r.out());
        assertTrue(r.out().contains("... (999800 more characters)"), r.out());
        assertTrue(r.out().length() < 2_000, () -> r.out().length() + " characters");
    }

    // ---- sizes -------------------------------------------------------------------------------------------

    @Test
    void fileSizesUseTheUnitsOfShapeInspect() throws IOException {
        Path p = npy("a.npy", 256, 1024);
        MainTest.Result r = MainTest.run("inspect", p.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("1048576 B (1 MiB)"), r.out());
        assertFalse(r.out().contains("KiB"), r.out());
        MainTest.Result shape = MainTest.run("inspect", "f32[256,1024]");
        assertTrue(shape.out().contains("1048576 B (1 MiB)"), "the same text as shape inspect");
    }

    // ---- error texts -------------------------------------------------------------------------------------

    @Test
    void missingFileAndDirectoryAreNamedInWords() throws IOException {
        MainTest.Result missing = MainTest.run("inspect", dir.resolve("nosuch.npy").toString());
        assertEquals(2, missing.status());
        assertEquals("tegula inspect: cannot read " + dir.resolve("nosuch.npy") + ": no such file\n", missing.err());
        Path d = Files.createDirectory(dir.resolve("d.npy"));
        MainTest.Result directory = MainTest.run("inspect", d.toString());
        assertEquals(2, directory.status());
        assertEquals("tegula inspect: cannot read " + d + ": is a directory\n", directory.err());
    }

    @Test
    void structuredDtypeIsReadable() throws IOException {
        String h = "{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (3,), }";
        h = h + " ".repeat((64 - (10 + h.length() + 1) % 64) % 64) + "\n";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) h.length(), 0});
        b.write(h.getBytes(StandardCharsets.US_ASCII));
        b.write(new byte[24]);
        Path p = dir.resolve("st.npy");
        Files.write(p, b.toByteArray());
        MainTest.Result r = MainTest.run("inspect", p.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("structured dtype (each element a record of 2 fields: 'a', 'b')"), r.err());
        assertFalse(r.err().contains("Tuple["), r.err());
    }

    // ---- several files -----------------------------------------------------------------------------------

    @Test
    void inspectTakesSeveralFiles() throws IOException {
        Path a = npy("a.npy", 2, 3);
        Path b = npy("b.npy", 4);
        MainTest.Result r = MainTest.run("inspect", a.toString(), b.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith(a + ": .npy"), r.out());
        assertTrue(r.out().contains("\n\n" + b + ": .npy"), r.out());
        assertTrue(r.out().contains("f32[2,3]{1,0}") && r.out().contains("f32[4]{0}"), r.out());
        // a bad file among good ones is named, the others still print, and the status is 2
        MainTest.Result mixed = MainTest.run("inspect", a.toString(), dir.resolve("gone.npy").toString(), b.toString());
        assertEquals(2, mixed.status());
        assertTrue(mixed.out().contains("f32[2,3]{1,0}") && mixed.out().contains("f32[4]{0}"), mixed.out());
        assertEquals("tegula inspect: cannot read " + dir.resolve("gone.npy") + ": no such file\n", mixed.err());
    }
}
