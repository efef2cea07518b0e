package dev.tegula.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench cases: the same as the JMH benchmark's, and scaled down without changing their layouts. */
class BenchCasesTest {
    @Test
    void casesAreTheJmhBenchmarksParams() throws IOException {
        Path jmh = Path.of("..", "jmh", "src", "main", "java", "dev", "tegula", "jmh", "RelayoutBench.java");
        Assumptions.assumeTrue(Files.exists(jmh), "no jmh sources next to cli");
        String source = Files.readString(jmh);
        int start = source.indexOf("@Param({");
        String params = source.substring(start, source.indexOf("})", start));
        List<String> jmhCases = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]+)\"").matcher(params);
        while (m.find()) {
            jmhCases.add(m.group(1));
        }
        assertEquals(jmhCases, BenchCases.SPECS, "keep BenchCases.SPECS equal to RelayoutBench's @Param list");
    }

    @Test
    void scaledCasesFitAndKeepTheirLayouts() {
        for (BenchCases.Case c : BenchCases.all()) {
            for (long cap : new long[] {64 << 10, 16 << 20}) {
                BenchCases.Case s = BenchCases.scaled(c, cap);
                assertTrue(s.largestBuffer() <= cap, s.toString());
                assertTrue(s.largestBuffer() > cap / 4, s.toString());
                assertEquals(c.from().layout(), s.from().layout());
                assertEquals(c.to().layout(), s.to().layout());
                assertEquals(c.name(), s.name());
            }
            assertEquals(c, BenchCases.scaled(c, Long.MAX_VALUE));
        }
    }
}
