package dev.tegula.bench;

import dev.tegula.core.ArrayShape;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench cases: every one in the JMH benchmark's {@code @Param} list, and scaled down without changing their layouts. */
class RelayoutCasesTest {
    @Test
    void jmhParamsNameEveryCaseInOrder() throws IOException, ReflectiveOperationException {
        Path jmh = Path.of("..", "jmh", "src", "main", "java", "dev", "tegula", "jmh", "RelayoutBench.java");
        Assumptions.assumeTrue(Files.exists(jmh), "no jmh sources next to vector");
        String source = Files.readString(jmh);
        int start = source.indexOf("@Param({");
        String params = source.substring(start, source.indexOf("})", start));
        List<String> jmhCases = new ArrayList<>();
        Matcher m = Pattern.compile("RelayoutCases\\.([A-Z0-9_]+)").matcher(params);
        while (m.find()) {
            jmhCases.add((String) RelayoutCases.class.getField(m.group(1)).get(null));
        }
        assertEquals(RelayoutCases.SPECS, jmhCases, "RelayoutBench's @Param must list RelayoutCases.SPECS in order");
    }

    @Test
    void everyCaseParsesToTwoShapesOfTheSameDimensions() {
        assertEquals(26, RelayoutCases.all().size());
        for (RelayoutCases.Case c : RelayoutCases.all()) {
            assertTrue(java.util.Arrays.equals(c.from().dimensions(), c.to().dimensions()), c.toString());
            assertTrue(c.bytes() >= 64L << 20, c.toString());
        }
    }

    @Test
    void inCacheAndNarrowCasesAreFoundByNameAndNotInTheReport() {
        long bytes = 0;
        for (String spec : RelayoutCases.IN_CACHE) {
            RelayoutCases.Case c = RelayoutCases.parse(spec);
            assertEquals(spec, RelayoutCases.byName(c.name()));
            assertTrue(c.bytes() <= 4L << 20 && c.bytes() > bytes, c + " is not the next larger in-cache case");
            bytes = c.bytes();
            assertEquals(ArrayShape.parse(c.from().toString().replace("{1,0}", "{0,1}")), c.to(), c.toString());
            assertTrue(RelayoutCases.SPECS.stream().noneMatch(s -> s.startsWith(c.name() + "|")), c.name());
        }
        for (String spec : RelayoutCases.NARROW) {
            RelayoutCases.Case c = RelayoutCases.parse(spec);
            assertEquals(spec, RelayoutCases.byName(c.name()));
            long[] dims = c.from().dimensions();
            assertEquals(2, dims.length, c.toString());
            assertTrue(Math.min(dims[0], dims[1]) * (c.from().slotBits() / 8) < 64, c + " has no side narrower than a line");
            assertTrue(RelayoutCases.SPECS.stream().noneMatch(s -> s.startsWith(c.name() + "|")), c.name());
        }
        assertEquals(RelayoutCases.F32_3D_210, RelayoutCases.byName("f32_3d_210"));
        assertEquals("x|f32[8]{0}|{0}", RelayoutCases.byName("x|f32[8]{0}|{0}"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RelayoutCases.byName("f32_3d"));
        assertTrue(e.getMessage().contains("relayoutCase") && e.getMessage().contains("f32_3d"), e.getMessage());
    }

    @Test
    void targetGivesTheSourceDimensionsTheLayoutAndTheNamedElementType() {
        ArrayShape from = ArrayShape.parse("f32[64,<=96]{1,0}");
        assertEquals(ArrayShape.parse("f32[64,<=96]{0,1}"), RelayoutCases.target(from, "{0,1}"));
        assertEquals(ArrayShape.parse("bf16[64,<=96]{1,0:T(8,128)(2,1)}"),
                RelayoutCases.target(from, "bf16{1,0:T(8,128)(2,1)}"));
        assertEquals(RelayoutCases.target(from, "{0,1}"), RelayoutCases.parse("x|f32[64,<=96]{1,0}|{0,1}").to());
        for (String bad : new String[] {"{0,1,2}", "{0,0}", "nope{0,1}", "bf16", "{0,1"}) {
            assertThrows(IllegalArgumentException.class, () -> RelayoutCases.target(from, bad), bad);
        }
    }

    @Test
    void scaledCasesFitAndKeepTheirLayouts() {
        for (RelayoutCases.Case c : RelayoutCases.all()) {
            for (long cap : new long[] {64 << 10, 16 << 20}) {
                RelayoutCases.Case s = RelayoutCases.scaled(c, cap);
                assertTrue(s.largestBuffer() <= cap, s.toString());
                assertTrue(s.largestBuffer() > cap / 4, s.toString());
                assertEquals(c.from().layout(), s.from().layout());
                assertEquals(c.to().layout(), s.to().layout());
                assertEquals(c.name(), s.name());
            }
            assertEquals(c, RelayoutCases.scaled(c, Long.MAX_VALUE));
        }
    }
}
