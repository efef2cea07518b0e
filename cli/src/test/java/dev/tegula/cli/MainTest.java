package dev.tegula.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the {@code tegula} command line in process and checks exit status, stdout and stderr. */
public class MainTest {
    private static final String HEADLINE = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

    public record Result(int status, String out, String err) {
    }

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(status, out.toString(), err.toString());
    }

    /** The rows of slot numbers of a picture: lines that start with a row label and {@code |}. */
    static List<List<Long>> pictureRows(String text) {
        List<List<Long>> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            String t = line.strip();
            Matcher m = Pattern.compile("^(\\d+ )?\\|(.*)\\|$").matcher(t);
            if (!m.matches()) {
                continue;
            }
            List<Long> row = new ArrayList<>();
            for (String w : m.group(2).replace('|', ' ').strip().split("\\s+")) {
                row.add(Long.parseLong(w));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The padding slots listed after "are padding:", ranges {@code a-b} expanded. */
    static TreeSet<Long> paddingSlots(String text) {
        Matcher m = Pattern.compile("are padding: ([0-9 -]+)").matcher(text);
        assertTrue(m.find(), "no padding list in:\n" + text);
        TreeSet<Long> slots = new TreeSet<>();
        for (String w : m.group(1).strip().split(" ")) {
            if (w.contains("-")) {
                String[] ab = w.split("-");
                for (long s = Long.parseLong(ab[0]); s <= Long.parseLong(ab[1]); s++) {
                    slots.add(s);
                }
            } else {
                slots.add(Long.parseLong(w));
            }
        }
        return slots;
    }

    @Test
    void noArgumentsPrintsUsageNamingTheCommands() {
        Result r = run();
        assertEquals(0, r.status());
        assertTrue(r.out().contains("Usage: tegula"), r.out());
        assertTrue(r.out().contains("inspect"), r.out());
        assertTrue(r.out().contains("map"), r.out());
        assertTrue(r.out().contains("bench"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void versionNamesTheProjectAndJava() {
        Result r = run("--version");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("tegula "), r.out());
        assertTrue(r.out().contains("Java "), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "map", "bench", "help"})
    void everyCommandHasHelp(String command) {
        Result r = run(command, "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("Usage: tegula " + command), r.out());
    }

    @Test
    void headlineShapeIsExplained() {
        Result r = run("inspect", HEADLINE);
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("shape           " + HEADLINE + "\n"), out);
        assertTrue(Pattern.compile("(?m)^bufferSize +335544320 B \\(320 MiB\\)").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^byteSize +335544320 B").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^memory space +S\\(1\\): alternate").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^elements +167772160$").matcher(out).find(), out);
        assertTrue(out.contains("dims 1, 0, 2, 3, major to minor"), out);
        assertTrue(out.contains("(8,128): 8x128 tiles of the two most minor physical dims"), out);
        assertTrue(out.contains("(2,1): pairs of rows inside each tile"), out);
        assertTrue(out.contains("Addressing.Kind.TILED_N"), out);
        assertTrue(out.contains("too large to draw"), out);
        assertTrue(pictureRows(out).isEmpty(), out);
    }

    @Test
    void figureOnePictureHasTheSpecRowsAndPadding() {
        // spec section 11 A: memory map [0,1,4,5,8] [2,3,6,7,10] [12,13,16,17,20]; slots 9,11,14,15,18,19,21-23 padding
        Result r = run("inspect", "f32[3,5]{1,0:T(2,2)}");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of(List.of(0L, 1L, 4L, 5L, 8L), List.of(2L, 3L, 6L, 7L, 10L),
                List.of(12L, 13L, 16L, 17L, 20L)), pictureRows(r.out()), r.out());
        assertEquals(new TreeSet<>(List.of(9L, 11L, 14L, 15L, 18L, 19L, 21L, 22L, 23L)), paddingSlots(r.out()));
        assertTrue(r.out().contains("slots: 24 in all"), r.out());
        assertTrue(Pattern.compile("(?m)^bufferSize +96 B").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^byteSize +60 B").matcher(r.out()).find(), r.out());
        assertTrue(r.out().contains("36 B (60.00% of byteSize)"), r.out());
        // tile boundaries: a rule between rows 1 and 2, a bar between columns 1|2 and 3|4
        assertTrue(r.out().contains("  0 |  0  1 |  4  5 |  8 |\n"), r.out());
        assertTrue(r.out().contains("    +-------+-------+----+\n  2 | 12 13 | 16 17 | 20 |"), r.out());
    }

    @Test
    void figureTwoPictureFollowsTheSpecFormula() {
        // spec section 11 B: lin(r,c) = 16*(r/2) + 8*(c/4) + 2*(c%4) + (r%2)
        Result r = run("inspect", "bf16[4,8]{1,0:T(2,4)(2,1)}");
        assertEquals(0, r.status(), r.err());
        List<List<Long>> expected = new ArrayList<>();
        for (int row = 0; row < 4; row++) {
            List<Long> cells = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                cells.add(16L * (row / 2) + 8L * (c / 4) + 2L * (c % 4) + row % 2);
            }
            expected.add(cells);
        }
        assertEquals(expected, pictureRows(r.out()), r.out());
        assertTrue(r.out().contains("slots: 32 in all, 32 hold elements, 0 are padding"), r.out());
    }

    @Test
    void badTextExitsTwoWithACaretUnderTheProblem() {
        Result r = run("inspect", "f32[2,x]");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        String[] lines = r.err().split("\n");
        assertEquals(3, lines.length, r.err());
        assertTrue(lines[0].startsWith("tegula inspect: not a shape: "), lines[0]);
        assertTrue(lines[0].contains("(at offset 6)"), lines[0]);
        assertEquals("  f32[2,x]", lines[1]);
        assertEquals("  " + " ".repeat(6) + "^", lines[2]);
        assertEquals('x', lines[1].charAt(lines[2].indexOf('^')));
    }

    @Test
    void unfinishedTextPutsTheCaretAtTheEnd() {
        Result r = run("inspect", "f32[2,3");
        assertEquals(2, r.status());
        String[] lines = r.err().split("\n");
        assertEquals("  f32[2,3", lines[1]);
        assertEquals(lines[1].length(), lines[2].indexOf('^'), r.err());
    }

    @Test
    void invalidShapeExitsTwoWithOneLine() {
        Result r = run("inspect", "f32[2,3]{1,1}");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("tegula inspect: invalid shape: "), r.err());
        assertTrue(r.err().contains("duplicate"), r.err());
        assertTrue(r.err().strip().endsWith("(at offset 11)"), r.err());
    }

    @Test
    void badArgumentsExitTwoWithOneLine() {
        for (String[] args : new String[][] {{"inspect"}, {"inspect", "--frob", "f32[2]"}, {"frob"},
                {"map", "--max", "0", "f32[2]"}, {"map", "token[]"}, {"map", "--slice", "9", "f32[2,3,4]"}}) {
            Result r = run(args);
            assertEquals(2, r.status(), String.join(" ", args));
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    @Test
    void tupleElementsAreInspectedIndented() {
        Result r = run("inspect", "(f32[2]{0},", "token[])");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("tuple of 2 elements"), r.out());
        assertTrue(r.out().contains("element 0:\n  shape           f32[2]{0}\n"), r.out());
        assertTrue(r.out().contains("element 1:\n  shape           token[]\n"), r.out());
    }

    @Test
    void mapDrawsElementsWithALegend() {
        Result r = run("map", "--legend", "f32[3,5]{1,0:T(2,2)}");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of(List.of(0L, 1L, 4L, 5L, 8L), List.of(2L, 3L, 6L, 7L, 10L),
                List.of(12L, 13L, 16L, 17L, 20L)), pictureRows(r.out()), r.out());
        assertTrue(r.out().contains("rows 0-1, column 4: 2 elements, slots 8-11"), r.out());
        assertTrue(r.out().contains("row 2, column 4: 1 element, slots 20-23"), r.out());
        assertTrue(r.out().contains("key: "), r.out());
    }

    @Test
    void mapOfTheHeadlineDrawsTiles() {
        Result r = run("map", "--max", "4", HEADLINE);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("each cell is one tile of 8 x 128 elements"), r.out());
        // corners of tiles: slot = 131072*(e2/8) + 1024*(e3/128) for e0 = 0 (spec section 11 D)
        List<List<Long>> rows = pictureRows(r.out());
        assertEquals(4, rows.size(), r.out());
        for (int tr = 0; tr < 4; tr++) {
            for (int tc = 0; tc < 4; tc++) {
                assertEquals(131072L * tr + 1024L * tc, rows.get(tr).get(tc));
            }
        }
        assertTrue(r.out().contains("showing 4 of 160 cell rows and 4 of 128 cell columns"), r.out());
    }
}
