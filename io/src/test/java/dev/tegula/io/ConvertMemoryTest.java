package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory bound: a child JVM converts a 512 MiB tensor to T(8,128) while this test samples its
 * anonymous memory ({@code RssAnon} in {@code /proc/PID/status}); it stays near the JVM's own,
 * far under the tensor's size (the former convert held an anonymous destination of full size).
 */
class ConvertMemoryTest {
    @TempDir
    Path dir;

    @Test
    void anonymousMemoryStaysFarUnderTheTensorsSize() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux /proc");
        long rows = 8192;
        long cols = 16384;   // f32: 512 MiB
        Path in = dir.resolve("big.npy");
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + rows + ", " + cols + "), }";
        int total = (10 + dict.length() + 1 + 63) / 64 * 64;
        String padded = dict + " ".repeat(total - 10 - dict.length() - 1) + "\n";
        ByteBuffer h = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        h.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        h.putShort((short) padded.length()).put(padded.getBytes(StandardCharsets.US_ASCII));
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(h.flip());
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 3.5f), total + 4 * (rows * cols - 1));
        }
        try (RandomAccessFile f = new RandomAccessFile(in.toFile(), "r")) {
            assertEquals(total + 4 * rows * cols, f.length());
        }
        Path out = dir.resolve("big.bin");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ConvertChild.class.getName(), in.toString(), out.toString(), "fast")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long peakKiB = 0;
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        try {
            while (p.isAlive()) {
                try {
                    for (String line : Files.readAllLines(status)) {
                        if (line.startsWith("RssAnon:")) {
                            peakKiB = Math.max(peakKiB, Long.parseLong(line.replaceAll("[^0-9]", "")));
                        }
                    }
                } catch (IOException gone) {
                    break;   // exited between the check and the read
                }
                Thread.sleep(10);
            }
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child did not finish");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue());
        assertEquals(4 * rows * cols, Files.size(out));
        assertTrue(peakKiB > 0, "no sample taken");
        assertTrue(peakKiB < 192 * 1024, "peak RssAnon " + peakKiB / 1024 + " MiB for a 512 MiB tensor");
        Files.delete(out);
        Files.delete(in);
    }
}
