package dev.tegula.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

import static dev.tegula.cli.MainTest.run;

import dev.tegula.cli.MainTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tegula bench} on tiny arrays: the table, the ratio column, the chart, bad options. */
class BenchCommandTest {
    private static final Pattern ROW = Pattern.compile(
            "(?m)^(\\S+)\\s+.+ -> \\S+\\s+([0-9]+ [KM]iB)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)$");

    @TempDir
    Path dir;

    @Test
    void quickRunOnTinyCasesPrintsTheTableWithRatios() {
        MainTest.Result r = run("bench", "--quick", "--size", "64K", "--case", "f32_3d_102,bf16_to_T8x128", "--case",
                "s4_pack_E4");
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("tegula bench: 3 relayout cases, 1 thread, arrays of at most 64 KiB"), out);
        assertTrue(Pattern.compile("(?m)^case +relayout +size +relayout GB/s +best GB/s +copy GB/s +ratio$")
                .matcher(out).find(), out);
        Matcher m = ROW.matcher(out);
        int rows = 0;
        while (m.find()) {
            rows++;
            double relayout = Double.parseDouble(m.group(3));
            double copy = Double.parseDouble(m.group(5));
            double ratio = Double.parseDouble(m.group(6));
            assertTrue(relayout > 0 && copy > 0, m.group());
            assertEquals(relayout / copy, ratio, 0.02 + 0.02 * ratio, m.group());
        }
        assertEquals(3, rows, out);
        // f32[256,512,512] halved to 64 KiB
        assertTrue(Pattern.compile("(?m)^f32_3d_102 +f32\\[16,32,32\\]\\{2,1,0\\} -> \\{2,0,1\\} +64 KiB ").matcher(out).find(), out);
        assertTrue(out.contains("JMH (./run bench RelayoutBench) gives the authoritative figures"), out);
        // the progress, one line per case when stderr is not a terminal
        for (String name : List.of("f32_3d_102", "bf16_to_T8x128", "s4_pack_E4")) {
            assertTrue(r.err().contains(name), r.err());
        }
    }

    @Test
    void deviceRunTimesTheRelayoutsIntoAndWithinDeviceMemoryAgainstTheOpenCLCopies() {
        MainTest.Result r = run("bench", "--device", "--quick", "--size", "256K");
        if (dev.tegula.opencl.OpenCLMemory.forMemorySpace(1) == null) {
            assertEquals(2, r.status(), r.out());
            assertTrue(r.err().contains("--device: no OpenCL device serves S(1)"), r.err());
            return;
        }
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("tegula bench --device: ") && out.contains("bf16[32,4096]"), out);
        Matcher m = Pattern.compile("(?m)^(\\S+)\\s+bf16\\[32,4096\\]\\S* -> \\S+\\s+256 KiB\\s+([0-9.]+)\\s+(clEnqueue\\w+)"
                + "\\s+([0-9.]+)\\s+([0-9.]+)$").matcher(out);
        List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            seen.add(m.group(1) + " " + m.group(3));
            double device = Double.parseDouble(m.group(2));
            double copy = Double.parseDouble(m.group(4));
            assertTrue(device > 0 && copy > 0, m.group());
            assertEquals(device / copy, Double.parseDouble(m.group(5)), 0.02 + 0.02 * device / copy, m.group());
        }
        assertEquals(List.of("host_to_device_T8x128_mapped clEnqueueWriteBuffer", "host_to_device_T8x128_staged clEnqueueWriteBuffer",
                "device_to_device_T8x128 clEnqueueCopyBuffer"),
                seen, out);
        assertTrue(out.contains("Relayout.copy host -> device chose by measuring its first runs: mapped (relayouts under 1 MiB"), out);
        assertEquals(2, run("bench", "--device", "--case", "f32_3d_102").status());
    }

    @Test
    void twoThreadsAndAChart() throws IOException {
        Path png = dir.resolve("bench.png");
        MainTest.Result r = run("bench", "--quick", "--size", "256K", "--threads", "2", "--case", "f32_8192x8192_T",
                "--png", png.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("1 relayout case, 2 threads"), r.out());
        assertTrue(r.out().contains("wrote " + png), r.out());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(900, image.getWidth());
        assertEquals(620, image.getHeight());
    }

    @Test
    void badOptionsExitTwoWithOneLine() {
        for (String[] args : new String[][] {{"bench", "--threads", "0"}, {"bench", "--case", "nope"},
                {"bench", "--size", "lots"}, {"bench", "--size", "12"}, {"bench", "--frob"},
                {"bench", "--quick", "--size", "64K", "--case", "f32_3d_102", "--png",
                        dir.resolve("no/such/dir/x.png").toString()}}) {
            MainTest.Result r = run(args);
            assertEquals(2, r.status(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().strip().lines().anyMatch(l -> l.startsWith("tegula bench: ")), r.err());
        }
    }

    @Test
    void numbersStayPlain() {
        assertEquals("12.35", BenchCommand.number(12.3456));
        assertEquals("0.10", BenchCommand.number(0.1));
        assertEquals("0.094", BenchCommand.number(0.0943));
        assertEquals("0.000025", BenchCommand.number(2.5e-5));
    }

    @Test
    void sizesParse() {
        assertEquals(16L << 20, BenchCommand.parseSize("16M"));
        assertEquals(16L << 20, BenchCommand.parseSize("16MiB"));
        assertEquals(512L << 10, BenchCommand.parseSize("512k"));
        assertEquals(1L << 30, BenchCommand.parseSize("1G"));
        assertEquals(4096, BenchCommand.parseSize("4096"));
    }
}
