package dev.tegula.cli.pictures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.cli.MainTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the SVG that {@code map --svg} writes shows: tiles larger than the array are drawn element by
 * element, as the text map does; the red memory-order path never crosses a cell's slot number; the
 * legend mentions padding only when there is some.
 */
class SvgMapCellsPathAndLegendTest {
    private static final Pattern TEXT = Pattern.compile(
            "<text x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" font-size=\"([0-9.]+)\"([^>]*)>([^<]*)</text>");

    @TempDir
    Path dir;

    private String svg(String shape) throws IOException {
        Path p = dir.resolve("m.svg");
        MainTest.Result r = MainTest.run("map", shape, "--svg", p.toString());
        assertEquals(0, r.status(), r.err());
        return Files.readString(p);
    }

    @Test
    void tilesLargerThanTheArrayDrawTheElements() throws IOException {
        Path p = dir.resolve("m.svg");
        MainTest.Result r = MainTest.run("map", "f32[3,5]{1,0:T(8,128)}", "--svg", p.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("one cell per element"), r.out());
        String doc = Files.readString(p);
        Set<String> texts = new HashSet<>();
        Matcher m = TEXT.matcher(doc);
        while (m.find()) {
            texts.add(m.group(5));
        }
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 5; col++) {
                String slot = Long.toString(row * 128L + col);
                assertTrue(texts.contains(slot), "slot " + slot + " of element (" + row + "," + col + ") is drawn");
            }
        }
        // the text map agrees: element level, same slots
        MainTest.Result text = MainTest.run("map", "f32[3,5]{1,0:T(8,128)}");
        assertTrue(text.out().contains("slot of each element"), text.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32[4,6]", "f32[4,6]{0,1}", "f32[6,8]{1,0:T(2,4)}", "f32[5,7]{0,1:T(2,2)}",
            "f32[3,5]{1,0:T(8,128)}", "bf16[16,16]{1,0:T(4,8)(2,1)}"})
    void theMemoryOrderPathNeverCrossesASlotNumber(String shape) throws IOException {
        String doc = svg(shape);
        Matcher pm = Pattern.compile("class=\"memory-order\"[^>]*points=\"([^\"]+)\"").matcher(doc);
        assertTrue(pm.find(), "a path is drawn");
        List<double[]> points = new ArrayList<>();
        for (String pt : pm.group(1).split(" ")) {
            String[] xy = pt.split(",");
            points.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
        }
        // the slot numbers of the cells: middle-anchored text of the cells' font size (12 or 11)
        List<double[]> boxes = new ArrayList<>();
        Matcher m = TEXT.matcher(doc);
        while (m.find()) {
            double size = Double.parseDouble(m.group(3));
            if (!m.group(4).contains("text-anchor=\"middle\"") || !m.group(5).matches("\\d+") || size < 11) {
                continue;
            }
            double x = Double.parseDouble(m.group(1));
            double y = Double.parseDouble(m.group(2));
            double half = m.group(5).length() * size * 0.62 / 2;
            boxes.add(new double[] {x - half, y - 0.72 * size, x + half, y});   // digits: cap height above the baseline
        }
        assertFalse(boxes.isEmpty());
        for (int i = 0; i + 1 < points.size(); i++) {
            double[] a = points.get(i);
            double[] b = points.get(i + 1);
            int steps = (int) Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) * 2) + 1;
            for (int k = 0; k <= steps; k++) {
                double x = a[0] + (b[0] - a[0]) * k / steps;
                double y = a[1] + (b[1] - a[1]) * k / steps;
                for (double[] box : boxes) {
                    assertFalse(x > box[0] && x < box[2] && y > box[1] && y < box[3],
                            () -> shape + ": path segment " + java.util.Arrays.toString(a) + " -> "
                                    + java.util.Arrays.toString(b) + " crosses a slot number");
                }
            }
        }
    }

    @Test
    void theLegendMentionsPaddingOnlyWhenThereIsSome() throws IOException {
        String none = svg("f32[4,8]");
        assertFalse(none.contains("padding, slots that hold no element"), "no padding in f32[4,8]");
        assertFalse(none.contains("class=\"padding\""), "nothing hatched");
        String some = svg("f32[3,5]{1,0:T(2,2)}");
        assertTrue(some.contains("hatched: padding, slots that hold no element"));
    }
}
