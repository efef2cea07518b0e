package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.internal.WorkCounts;
import dev.tegula.io.internal.WorkCounts.Kind;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula inspect} and {@code tegula convert} of a safetensors file of 10^5 tensors (most of
 * them empty, some tiled tensors stored as U8 with their shape in the metadata) read its header
 * text once, whatever the number of tensors: no tensor's shape is found by reading the file again.
 */
class HostileHeaderCommandsTest {
    private static final int N = 100_000;
    /** Every this many tensors, one is a tiled u8[2,2]{0,1} stored as 4 U8 bytes. */
    private static final int TILED_EVERY = 100;

    @TempDir
    Path dir;

    /** {@return a file of {@link #N} tensors: empty U8 ones, and every 100th a tiled one of 4 bytes} */
    private Path file() throws Exception {
        StringBuilder meta = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"");
        StringBuilder tensors = new StringBuilder();
        long offset = 0;
        for (int i = 0; i < N; i++) {
            boolean tiled = i % TILED_EVERY == 0;
            long end = offset + (tiled ? 4 : 0);
            tensors.append(",\"t").append(i).append("\":{\"dtype\":\"U8\",\"shape\":[").append(tiled ? 4 : 0)
                    .append("],\"data_offsets\":[").append(offset).append(',').append(end).append("]}");
            if (tiled) {
                meta.append(",\"tegula.shape.t").append(i).append("\":\"u8[2,2]{0,1}\"");
            }
            offset = end;
        }
        byte[] json = meta.append('}').append(tensors).append('}').toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + json.length + (int) offset).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(json.length).put(json);
        return Files.write(dir.resolve("many.safetensors"), b.array());
    }

    @Test
    void inspectOfAHundredThousandTensorsParsesTheHeaderOnceAndShowsTiledOnesInTheirShape() throws Exception {
        Path p = file();
        MainTest.Result[] r = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> r[0] = MainTest.run("inspect", p.toString()));
        assertEquals(0, r[0].status(), r[0].err());
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
        assertEquals(Files.size(p) - 8 - N / TILED_EVERY * 4, c.get(Kind.TEXT_CHARS), c::toString);
        List<String> lines = r[0].out().lines().toList();
        assertTrue(lines.getFirst().endsWith(": safetensors, " + N + " tensors, data at byte "
                + (Files.size(p) - N / TILED_EVERY * 4)), lines.getFirst());
        assertEquals(1 + 1 + N / TILED_EVERY + N + 1, lines.size());
        String tiled = lines.stream().filter(l -> l.startsWith("  t200 ")).findFirst().orElseThrow();
        assertTrue(tiled.matches("  t200 +u8\\[2,2]\\{0,1} +U8 +4 B"), tiled);
        String empty = lines.stream().filter(l -> l.startsWith("  t201 ")).findFirst().orElseThrow();
        assertTrue(empty.matches("  t201 +u8\\[0]\\{0} +U8 +0 B"), empty);
    }

    @Test
    void convertOfAHundredThousandTensorsParsesTheHeaderOnceAndWritesEveryTensor() throws Exception {
        Path p = file();
        Path out = dir.resolve("out.safetensors");
        MainTest.Result[] r = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> r[0] = MainTest.run("convert", p.toString(), "--out=" + out));
        assertEquals(0, r[0].status(), r[0].err());
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
        assertEquals(N, r[0].out().lines().count());
        SafeTensorsHeader h = SafeTensors.readHeader(out);
        assertEquals(N, h.tensors().size());
        // with no rule, a tiled tensor is written row-major, as the format stores it
        assertEquals("u8[2,2]{1,0}", h.entry("t300").shape().toString());
        assertEquals(null, h.metadata().get("tegula.shape.t300"));
        assertEquals("u8[0]{0}", h.entry("t301").shape().toString());
    }
}
