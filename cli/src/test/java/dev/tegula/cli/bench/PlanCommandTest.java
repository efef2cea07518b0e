package dev.tegula.cli.bench;

import static dev.tegula.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.cli.MainTest;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tegula plan}: the estimate, the measured candidates' table with the choice marked, the chart, bad input. */
class PlanCommandTest {
    /** A candidate row: mark, number, walk, run (sample or whole), MiB, ms, GB/s. */
    private static final Pattern ROW = Pattern.compile(
            "(?m)^([* ]) +([0-9]+)  (order=\\S+ split=[0-9]+(?: tile=[0-9]+ (?:block=[0-9]+x[0-9]+ strips=\\w+ bands=\\w+(?: touch=next)?|panel=[0-9]+x[0-9]+))?"
                    + "(?: stores=streamed)?(?: stage=[0-9]+)?)"
                    + " +(sample|whole) +([0-9.]+) +([0-9.]+) +([0-9.]+)$");

    @TempDir
    Path dir;

    @Test
    void estimateDescribesThePlanAndTimesNothing() {
        MainTest.Result r = run("plan", "f32[64,96]{1,0}", "{0,1}");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("plan: copy "), r.out());
        assertTrue(r.out().contains("(estimate)"), r.out());
        assertTrue(r.out().contains("chosen (ESTIMATE, estimate, 1 thread): order="), r.out());
        assertTrue(!ROW.matcher(r.out()).find(), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("streaming stores: on; ") || l.startsWith("streaming stores: off (")), r.out());
        // the facts the estimate read, last
        assertTrue(r.out().strip().lines().reduce((a, b) -> b).orElseThrow().matches(
                "machine facts: (\\d+-bit|no \\(scalar kernels\\)) vectors, L1d .*, L2 .*; stores to memory from a cached block: .*"),
                r.out());
    }

    @Test
    void measureListsEveryTimedCandidateAndMarksTheFastest() throws IOException {
        Path png = dir.resolve("plan.png");
        MainTest.Result r = run("plan", "f32[8,256,256]{2,1,0}", "{0,1,2}", "--measure", "--threads", "2", "--png",
                png.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        Matcher m = ROW.matcher(out);
        int rows = 0;
        int chosen = 0;
        String chosenWalk = null;
        double chosenGbs = 0;
        double fastestWhole = 0;
        int whole = 0;
        while (m.find()) {
            rows++;
            double mib = Double.parseDouble(m.group(5));
            double ms = Double.parseDouble(m.group(6));
            double gbs = Double.parseDouble(m.group(7));
            assertTrue(mib > 0 && ms > 0 && gbs > 0, m.group());
            assertEquals(mib * 1048576 / (ms * 1e6), gbs, 0.02 + 0.02 * gbs, m.group());
            if (m.group(4).equals("whole")) {
                whole++;
                fastestWhole = Math.max(fastestWhole, gbs);
            }
            if (m.group(1).equals("*")) {
                chosen++;
                chosenWalk = m.group(3);
                chosenGbs = gbs;
                assertTrue(whole > 0 || m.group(4).equals("sample"), m.group());
            }
        }
        assertTrue(rows >= 1, out);
        assertEquals(1, chosen, out);
        if (whole > 0) {
            // the final round ran the finalists on the whole relayout; the choice is its fastest, or
            // the estimate's walk where no walk ran 5% faster than it (GB/s printed to 0.01)
            assertTrue(whole >= 2, out);
            if (Math.abs(fastestWhole - chosenGbs) > 0.011) {
                MainTest.Result est = run("plan", "f32[8,256,256]{2,1,0}", "{0,1,2}", "--threads", "2");
                assertTrue(est.out().contains("chosen (ESTIMATE, estimate, 2 threads): " + chosenWalk + "\n"),
                        est.out() + "\n" + out);
                assertTrue(chosenGbs >= fastestWhole * 0.95 - 0.011, out);
                assertTrue(out.contains("the estimate kept (no walk ran 5% faster)"), out);
            }
        }
        assertTrue(out.contains("chosen (MEASURE, measured, 2 threads): " + chosenWalk), out);
        assertTrue(out.contains("planning f32[8,256,256]{2,1,0} -> f32[8,256,256]{0,1,2} (MEASURE, 2 threads)"), out);
        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img);
        assertTrue(img.getWidth() >= 900, "width " + img.getWidth());
    }

    @Test
    void aRelayoutTooSmallToTimeSaysSoAndDrawsNoChart() {
        Path png = dir.resolve("small.png");
        MainTest.Result r = run("plan", "f32[64,64]{1,0}", "{0,1}", "--measure", "--png", png.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("nothing was timed"), r.out());
        assertTrue(r.out().contains("no chart written"), r.out());
        assertTrue(!java.nio.file.Files.exists(png));
    }

    @Test
    void aWholeDestinationShapeOrATypedLayoutIsADestination() {
        MainTest.Result r = run("plan", "f32[64,96]{1,0}", "bf16[64,96]{0,1}");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("plan: f32 -> bf16 copy "), r.out());
        MainTest.Result t = run("plan", "f32[64,96]{1,0}", "bf16{1,0:T(8,128)(2,1)}");
        assertEquals(0, t.status(), t.err());
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        MainTest.Result notShape = run("plan", "f32[64,", "{0,1}");
        assertEquals(2, notShape.status());
        assertTrue(notShape.err().contains("SRC_SHAPE: not a shape"), notShape.err());
        MainTest.Result dims = run("plan", "f32[64,96]{1,0}", "f32[96,64]{1,0}");
        assertEquals(2, dims.status());
        assertTrue(dims.err().contains("does not have the dimensions of f32[64,96]{1,0}"), dims.err());
        MainTest.Result layout = run("plan", "f32[64,96]{1,0}", "{0,1,2}");
        assertEquals(2, layout.status());
        assertTrue(layout.err().contains("DST_LAYOUT: {0,1,2} is not a layout for f32[64,96]"), layout.err());
        MainTest.Result save = run("plan", "f32[64,96]{1,0}", "{0,1}", "--save");
        assertEquals(2, save.status());
        assertTrue(save.err().contains("--save: keeps a measured choice"), save.err());
        MainTest.Result threads = run("plan", "f32[64,96]{1,0}", "{0,1}", "--threads", "0");
        assertEquals(2, threads.status());
        MainTest.Result both = run("plan", "f32[64,96]{1,0}", "{0,1}", "--measure", "--exhaustive");
        assertEquals(2, both.status());
    }
}
