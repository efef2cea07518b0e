package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversion killed part-way (SIGTERM, as Ctrl-C's shutdown) leaves the old target and no
 * temporary; a checkpoint's, no directory at all.
 */
class ConvertInterruptTest {
    @TempDir
    Path dir;

    @Test
    void killedPartWayLeavesTheOldTargetAndNoTemporary() throws Exception {
        Path in = dir.resolve("a.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 1024));   // 8 MiB: 16+ bands
            a.fill(1.5);
            Npy.write(a, in);
        }
        Path out = dir.resolve("keep.bin");
        Files.writeString(out, "old contents");
        killPartWay(in, out);
        assertEquals("old contents", Files.readString(out));
        assertNoTemporaries();
    }

    @Test
    void aCheckpointKilledPartWayLeavesNoDirectoryAndNoTemporary() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path out = dir.resolve("tiny-llama-tiled");
        killPartWay(in, out);
        assertTrue(Files.notExists(out), out + " was left");
        assertNoTemporaries();
    }

    /** Starts a child converting {@code in} to {@code out} slowly and sends it SIGTERM once it has written a band. */
    private void killPartWay(Path in, Path out) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ConvertChild.class.getName(), in.toString(), out.toString())
                .redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean started = false;
            while ((line = r.readLine()) != null) {
                if (line.equals("started")) {
                    started = true;
                    break;
                }
            }
            assertTrue(started, "the child never started converting");
            try (Stream<Path> s = Files.list(dir)) {
                assertTrue(s.anyMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no temporary while converting");
            }
            p.destroy();   // SIGTERM: the JVM runs its shutdown hooks, as on Ctrl-C
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
        } finally {
            p.destroyForcibly();
        }
        assertNotEquals(0, p.exitValue());
    }

    private void assertNoTemporaries() throws IOException {
        IoFixtures.assertNoTemporaries(dir);
    }
}
