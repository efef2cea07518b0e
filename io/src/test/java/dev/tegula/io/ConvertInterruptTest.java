package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * temporary; a checkpoint's, no directory at all. One killed outright ({@code kill -9}, which no
 * shutdown hook sees) leaves its temporary, which the next conversion of the same target removes and
 * reports, leaving alone the temporary of a conversion that still runs. A write that fails names
 * the output, not its temporary.
 */
class ConvertInterruptTest {
    @TempDir
    Path dir;

    @Test
    void killedPartWayLeavesTheOldTargetAndNoTemporary() throws Exception {
        Path in = dir.resolve("a.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 1024));   // 8 MiB: 16+ windows
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

    @Test
    void aTemporaryLeftByKill9IsRemovedAndReportedByTheNextConversionButALiveOnesIsNot() throws Exception {
        Path in = matrix();
        Path out = dir.resolve("out.bin");
        Process live = startedChild(in, out, "hold");   // first: a conversion that starts later would remove the stale one itself
        try {
            Path alive = temporaryOf(out, null);
            Process killed = startedChild(in, out);
            Path stale;
            try {
                stale = temporaryOf(out, alive);
                killed.destroyForcibly();   // SIGKILL: no shutdown hook runs
                assertTrue(killed.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
            } finally {
                killed.destroyForcibly();
            }
            long staleBytes = Files.size(stale);
            assertTrue(staleBytes > 0, "kill -9 leaves the temporary, as large as what was written: " + stale);
            ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all(), ConvertOptions.defaults());
            assertEquals(1, r.staleTemporaries().size(), r.staleTemporaries().toString());
            assertEquals(stale, r.staleTemporaries().getFirst().path());
            assertEquals(staleBytes, r.staleTemporaries().getFirst().bytes());
            assertTrue(Files.notExists(stale), "the stale temporary is gone");
            assertTrue(Files.exists(alive), "the temporary of the conversion that still runs is untouched");
            assertEquals(8L << 20, Files.size(out), "the conversion itself went through");
        } finally {
            live.destroy();   // SIGTERM: its shutdown hook deletes its own temporary
            assertTrue(live.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
            live.destroyForcibly();
        }
        assertNoTemporaries();
    }

    @Test
    void killedOutrightAtRandomPointsLeavesOnlyTemporariesTheNextConversionRemovesAndReportsWithTheirSizes()
            throws Exception {
        Path in = matrix();
        Path out = dir.resolve("r.bin");
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        for (int k = 0; k < 5; k++) {
            // from before the JVM is up to the middle of the slowed-down conversion: startup, the claim of a
            // temporary, the header, the windows
            long delay = random.nextLong(2500);
            Process p = new ProcessBuilder(java(), "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), ConvertChild.class.getName(), in.toString(), out.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                Thread.sleep(delay);
            } finally {
                p.destroyForcibly();   // SIGKILL
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the child did not exit (seed " + seed + ")");
            }
        }
        java.util.Map<Path, Long> left = new java.util.TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                String n = f.getFileName().toString();
                if (n.startsWith(".r.bin.") && n.endsWith(".tmp")) {
                    left.put(f, Files.size(f));
                }
            }
        }
        ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all(), ConvertOptions.defaults());
        java.util.Map<Path, Long> reported = new java.util.TreeMap<>();
        for (ConvertReport.StaleTemporary t : r.staleTemporaries()) {
            reported.put(t.path(), t.bytes());
        }
        assertEquals(left, reported, "seed " + seed + ": the temporaries left are those reported, with their sizes");
        assertEquals(8L << 20, Files.size(out), "the conversion went through");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("m.npy", "r.bin"), s.map(f -> f.getFileName().toString()).sorted().toList(),
                    "seed " + seed + ": only the input and the output are left");
        }
    }

    @Test
    void aCheckpointDirectoryLeftByKill9IsRemovedByTheNextConversion() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path out = dir.resolve("tiny-llama-tiled");
        Process killed = startedChild(in, out);
        Path stale;
        try {
            stale = temporaryOf(out, null);
            killed.destroyForcibly();
            assertTrue(killed.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
        } finally {
            killed.destroyForcibly();
        }
        assertTrue(Files.isDirectory(stale), stale + " left");
        ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all(), ConvertOptions.defaults());
        assertEquals(List.of(stale), r.staleTemporaries().stream().map(ConvertReport.StaleTemporary::path).toList());
        assertTrue(Files.isDirectory(out));
        assertNoTemporaries();
    }

    @Test
    void aWriteThatFailsNamesTheOutputNotItsTemporary() throws Exception {
        Path in = matrix();
        for (Path out : List.of(dir.resolve("big.bin"), dir.resolve("ckpt"))) {
            Path from = out.getFileName().toString().equals("ckpt") ? IoFixtures.checkpoint("tiny-llama", dir) : in;
            // files of at most 64 KiB (ulimit -f counts 512- or 1024-byte blocks): the output's first window fails
            Process p = new ProcessBuilder("/bin/sh", "-c", "ulimit -f 64 && exec \"$@\"", "sh", java(), "--add-modules",
                    "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    ConvertChild.class.getName(), from.toString(), out.toString(), "fast")
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertNotEquals(0, p.exitValue(), output);
            String first = output.lines().filter(l -> l.startsWith("Exception in thread")).findFirst().orElse(output);
            assertTrue(first.contains(out.toString()), () -> "names " + out + ": " + first);
            assertFalse(first.contains(".tmp") || first.contains(".lock"), () -> "names a temporary: " + first);
        }
        assertNoTemporaries();
    }

    /** An 8 MiB f32 matrix: 16 and more windows of the 1 MiB budget {@link ConvertChild} converts with. */
    private Path matrix() throws IOException {
        Path in = dir.resolve("m.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 1024));
            a.fill(1.5);
            Npy.write(a, in);
        }
        return in;
    }

    /** {@return the one temporary of {@code target} in its directory other than {@code not}} */
    private static Path temporaryOf(Path target, Path not) throws IOException {
        try (Stream<Path> s = Files.list(target.getParent())) {
            List<Path> tmp = s.filter(f -> f.getFileName().toString().startsWith("." + target.getFileName() + ".")
                    && f.getFileName().toString().endsWith(".tmp") && !f.equals(not)).toList();
            assertEquals(1, tmp.size(), "one temporary: " + tmp);
            return tmp.getFirst();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts a child converting {@code in} to {@code out} slowly; returns once it has written a window. */
    private Process startedChild(Path in, Path out) throws IOException {
        return startedChild(in, out, "slow");
    }

    /** Starts a child converting {@code in} to {@code out} in {@code mode} ({@link ConvertChild}); returns once it has written a window. */
    private Process startedChild(Path in, Path out, String mode) throws IOException {
        Process p = new ProcessBuilder(java(), "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ConvertChild.class.getName(), in.toString(), out.toString(),
                mode).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        boolean started = false;
        while ((line = r.readLine()) != null) {
            if (line.equals("started")) {
                started = true;
                break;
            }
        }
        if (!started) {
            p.destroyForcibly();
        }
        assertTrue(started, "the child never started converting");
        // the child's further output is left unread: it prints one more line at most
        return p;
    }

    /** Starts a child converting {@code in} to {@code out} slowly and sends it SIGTERM once it has written a window. */
    private void killPartWay(Path in, Path out) throws Exception {
        Process p = startedChild(in, out);
        try {
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
