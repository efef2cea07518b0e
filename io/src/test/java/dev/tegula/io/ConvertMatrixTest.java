package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every input format to every output format, bit for bit ({@link ConvertMatrix}): the {@code .npy}
 * inputs of both byte orders in this JVM, and the whole matrix in a child JVM whose C heap detects corruption: glibc's malloc debugging ({@code MALLOC_CHECK_=3}, which
 * glibc 2.34 and later honour with {@code libc_malloc_debug.so} preloaded) and {@code MALLOC_PERTURB_},
 * which fills freed and new chunks with a byte pattern so that a use of either shows. A conversion that
 * writes outside memory it owns, or throws away memory it does not (page hints on anonymous memory),
 * aborts that child or changes its output.
 */
class ConvertMatrixTest {
    /** glibc's malloc debugging library, where the system has one. */
    private static final Path MALLOC_DEBUG = Path.of("/lib/x86_64-linux-gnu/libc_malloc_debug.so.0");

    @TempDir
    Path dir;

    @Test
    void npyOfEitherByteOrderAndEveryWidthConvertsToEveryOutputFormatBitForBit() throws Exception {
        int checked = ConvertMatrix.run(dir, in -> in.label().endsWith(".npy") && !in.label().contains("fortran"), false);
        assertTrue(checked >= 50, "checked " + checked + " conversions");
    }

    @Test
    void theMatrixRunsCleanInAJvmWhoseCHeapChecksItself() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ConvertMatrix.class.getName(), dir.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("MALLOC_CHECK_", "3");
        pb.environment().put("MALLOC_PERTURB_", "165");
        if (Files.exists(MALLOC_DEBUG)) {
            pb.environment().put("LD_PRELOAD", MALLOC_DEBUG.toString());
        } else {
            System.out.println("ConvertMatrixTest: " + MALLOC_DEBUG + " is missing; the child runs with MALLOC_CHECK_ and"
                    + " MALLOC_PERTURB_ only (enough for a glibc older than 2.34)");
        }
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the child did not finish");
        assertEquals(0, p.exitValue(), () -> "the child failed (134 is glibc's abort on a corrupt heap):\n" + output);
        assertTrue(output.lines().anyMatch(l -> l.startsWith("checked ")), output);
    }
}
