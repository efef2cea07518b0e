package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufValue;
import dev.tegula.io.gguf.GgufValueType;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names, metadata, shape text and messages that carry terminal escape sequences and control
 * characters reach the terminal escaped, and a long name is cut, on every path the command prints:
 * inspect (safetensors, GGUF metadata), convert (its lines, its progress bar, its errors), map,
 * plan, picocli's own argument errors.
 */
class HostileTextTest {
    /** A colour change, a window title (OSC ... BEL), CR/LF/TAB, NEL (C1), a right-to-left override. */
    static final String RED = "red\u001b[31mname";
    static final String TITLE = "title\u001b]0;pwned\u0007";
    static final String LINES = "cr\rlf\nlf\ttab";
    static final String NEL = "nel\u0085x";
    static final String RLO = "rlo\u202eevil";
    static final String LONG = "w".repeat(5000);
    static final List<String> NAMES = List.of(RED, TITLE, LINES, NEL, RLO, LONG);

    @TempDir
    Path dir;
    Path file;

    @BeforeEach
    void hostileFile() throws IOException {
        file = dir.resolve("hostile.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> tensors = new LinkedHashMap<>();
            for (String n : NAMES) {
                tensors.put(n, Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3)));
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put(TITLE, RED);
            metadata.put("long", LONG);
            SafeTensors.write(tensors, metadata, file);
        }
    }

    /**
     * Fails if {@code text} holds a character a terminal acts on (C0 but the line end, DEL, C1,
     * bidirectional and zero-width format characters, line and paragraph separators), or a run of
     * more than 250 {@code w} (the long name printed whole or cut elsewhere than at 200).
     */
    static void assertSafe(String text, boolean carriageReturns) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 && c != '\n' && !(carriageReturns && c == '\r') || c == 0x7f
                    || c >= 0x80 && c < 0xa0 || c >= 0x200b && c <= 0x200f || c >= 0x202a && c <= 0x202e
                    || c >= 0x2066 && c <= 0x2069 || c == 0x2028 || c == 0x2029;
            int at = i;
            assertFalse(control, () -> "character U+" + Integer.toHexString(c) + " at " + at + " in:\n" + text);
        }
        assertFalse(text.contains("w".repeat(201)), () -> "the 5,000-character name is not cut at 200:\n" + text);
    }

    private static void assertNamesEscaped(String text) {
        assertTrue(text.contains("red\\x1b[31mname"), text);
        assertTrue(text.contains("title\\x1b]0;pwned\\x07"), text);
        assertTrue(text.contains("cr\\rlf\\nlf\\ttab"), text);
        assertTrue(text.contains("nel\\x85x"), text);
        assertTrue(text.contains("rlo\\u{202e}evil"), text);
        assertTrue(text.contains("w".repeat(200) + "... (4800 more characters)"), text);
    }

    @Test
    void inspectEscapesNamesAndMetadataAndCutsTheLongName() {
        MainTest.Result r = MainTest.run("inspect", file.toString());
        assertEquals(0, r.status(), r.err());
        assertSafe(r.out(), false);
        assertNamesEscaped(r.out());
        assertTrue(r.out().contains("__metadata__ title\\x1b]0;pwned\\x07 = red\\x1b[31mname"), r.out());
    }

    @Test
    void convertEscapesTheNamesItPrintsAndItsProgressBar() {
        MainTest.Result r = MainTest.run("convert", file.toString(), "--layout", "{0,1}", "--progress", "always",
                "--stats", "--out", dir.resolve("out.safetensors").toString());
        assertEquals(0, r.status(), r.err());
        assertSafe(r.out(), false);
        assertNamesEscaped(r.out());
        assertSafe(r.err(), true);   // the bar returns to the start of its line, and only it
        assertTrue(r.err().contains("w".repeat(200) + "... (4800 more characters)"), r.err());
        assertFalse(r.err().replace("\r[", "[").contains("\r"), () -> "a carriage return that is not the bar's: " + r.err());
    }

    @Test
    void convertErrorsFromTheLibraryCutAndEscapeTheNamesTheyQuote() {
        // a rule that fits no tensor of rank 2: the library's message names the tensor
        MainTest.Result r = MainTest.run("convert", file.toString(), "--tensor", LONG, "--layout", "{2,1,0}",
                "--out", dir.resolve("one.npy").toString());
        assertEquals(2, r.status(), r.err());
        assertSafe(r.err(), false);
        assertTrue(r.err().contains("w".repeat(200) + "... (4800 more characters)"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        // no such tensor: the message lists every name the file has
        MainTest.Result missing = MainTest.run("convert", file.toString(), "--tensor", "missing\u001b[2J", "--out",
                dir.resolve("one.npy").toString());
        assertEquals(2, missing.status(), missing.err());
        assertSafe(missing.err(), false);
        assertTrue(missing.err().contains("missing\\x1b[2J"), missing.err());
        assertTrue(missing.err().length() < 2 * TerminalText.MAX_MESSAGE,
                () -> missing.err().length() + " characters: " + missing.err());
    }

    @Test
    void shapeTextTypedWithEscapesIsEchoedEscapedUnderItsCaret() {
        MainTest.Result r = MainTest.run("inspect", "f32[3,\u001b]0;pwned\u0007" + "5]");
        assertEquals(2, r.status());
        assertSafe(r.err(), false);
        List<String> lines = r.err().lines().toList();
        assertEquals("  f32[3,\\x1b]0;pwned\\x075]", lines.get(1), r.err());
        assertEquals("  " + " ".repeat("f32[3,".length()) + "^", lines.get(2), "the caret under the escaped character");

        String longShape = "f32[" + "1,".repeat(3000) + "\u001b[31m]";
        MainTest.Result map = MainTest.run("map", longShape);
        assertEquals(2, map.status());
        assertSafe(map.err(), false);
        assertTrue(map.err().lines().allMatch(l -> l.length() <= TerminalText.MAX_MESSAGE), map.err());
        assertTrue(map.err().contains("\\x1b[31m"), map.err());
    }

    @Test
    void optionValuesAndUnknownOptionsAreEchoedEscaped() {
        for (String[] args : List.of(
                new String[] {"convert", file.toString(), "--layout", "{1,0\u001b]0;x\u0007}", "--out", "o.npy"},
                new String[] {"convert", file.toString(), "--type", "f\u001b[31m32", "--out", "o.npy"},
                new String[] {"convert", file.toString(), "--memory", "1\u009b2J", "--out", "o.npy"},
                new String[] {"convert", file.toString(), "--shape", "f32[2\u202e]", "--out", "o.npy"},
                new String[] {"map", "f32[4,4]", "--slice", "\u001b[31m"},
                new String[] {"plan", "f32[8,8]", "{0,1\u001b[31m}"},
                new String[] {"inspect", "--bogus\u001b[31m"},
                new String[] {"bench", "--case", "x\u001b]0;t\u0007"})) {
            MainTest.Result r = MainTest.run(args);
            assertEquals(2, r.status(), () -> String.join(" ", args) + ": " + r.err());
            assertSafe(r.err(), false);
            assertSafe(r.out(), false);
        }
    }

    @Test
    void aMissingFileWithEscapesInItsNameIsNamedEscaped() {
        MainTest.Result r = MainTest.run("inspect", dir.resolve("gone\u001b[31m.npy").toString());
        assertEquals(2, r.status());
        assertSafe(r.err(), false);
        assertTrue(r.err().contains("gone\\x1b[31m.npy"), r.err());
        MainTest.Result c = MainTest.run("convert", dir.resolve("gone\u001b]0;t\u0007.npy").toString(), "--out", "x.npy");
        assertEquals(2, c.status());
        assertSafe(c.err(), false);
        assertTrue(c.err().contains("gone\\x1b]0;t\\x07.npy"), c.err());
    }

    @Test
    void ggufMetadataStringsAndArraysOfStringsFollowTheSameRule() throws IOException {
        Path gguf = dir.resolve("meta.gguf");
        try (Arena arena = Arena.ofConfined()) {
            Gguf.writer()
                    .put("general.name", GgufValue.string(TITLE))
                    .put(RED, GgufValue.string(LONG))
                    .put("tokenizer.ggml.tokens", GgufValue.array(GgufValueType.STRING,
                            new String[] {LINES, NEL, RLO, "plain \"quoted\""}))
                    .tensor("t", Array.allocate(arena, ArrayShape.of(ElementType.F32, 4)))
                    .write(gguf);
        }
        MainTest.Result r = MainTest.run("inspect", gguf.toString());
        assertEquals(0, r.status(), r.err());
        assertSafe(r.out(), false);
        assertTrue(r.out().contains("general.name = \"title\\x1b]0;pwned\\x07\""), r.out());
        assertTrue(r.out().contains("red\\x1b[31mname = \"" + "w".repeat(200) + "... (4800 more characters)\""), r.out());
        assertTrue(r.out().contains("tokenizer.ggml.tokens = string[4] [\"cr\\rlf\\nlf\\ttab\", \"nel\\x85x\","
                + " \"rlo\\u{202e}evil\", \"plain \\\"quoted\\\"\"]"), r.out());
    }

    @Test
    void theOutputStreamsEscapeWhatNoValueRuleCaught() {
        java.io.StringWriter sink = new java.io.StringWriter();
        java.io.PrintWriter w = TerminalText.writer(sink);
        w.print("a\u001b[31mb\rc\td\u0085e\u202ef\n\\x");
        w.print("\ud83d");   // a surrogate pair split between two writes stays one character
        w.print("\ude00");
        w.flush();
        assertEquals("a\\x1b[31mb\\rc\\td\\x85e\\u{202e}f\n\\x\ud83d\ude00", sink.toString());
        // System.out and System.err, for a library's logger: bytes in, the same rule
        java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
        java.io.PrintStream s = TerminalText.stream(raw, java.nio.charset.StandardCharsets.UTF_8);
        byte[] utf8 = "log: n\u001b]0;t\u0007 \u00fc\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        s.write(utf8, 0, 10);   // the two bytes of \u00fc split between two writes below
        s.write(utf8, 10, utf8.length - 10 - 2);
        s.write(utf8, utf8.length - 2, 2);
        s.flush();
        assertEquals("log: n\\x1b]0;t\\x07 \u00fc\n", raw.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
