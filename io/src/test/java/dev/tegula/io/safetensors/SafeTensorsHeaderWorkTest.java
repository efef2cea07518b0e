package dev.tegula.io.safetensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.WorkCounts;
import dev.tegula.io.internal.WorkCounts.Kind;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headers of 10^5 tensors and index files of 10^5 entries cost work in proportion to their size:
 * the text is parsed once, each character read once, and the offset check sorts (at most
 * {@code 2 n log2 n} comparisons, where a pairwise check would make {@code n^2 / 2}), whatever
 * order the entries come in and however many are then looked up by name.
 */
class SafeTensorsHeaderWorkTest {
    private static final int N = 100_000;

    @TempDir
    Path dir;

    /** {@code 2 n log2 n}: a bound a sort meets and a pairwise comparison of {@code n} entries does not. */
    private static long sortBound(long n) {
        return 2 * n * (64 - Long.numberOfLeadingZeros(n));
    }

    /**
     * The JSON of {@code n} one-byte U8 tensors {@code t0..t(n-1)}, listed in a shuffled order so the
     * offset check must sort them; with {@code overlap}, the last listed tensor's bytes are another's.
     */
    private static String header(int n, long seed, boolean overlap) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Random r = new Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        StringBuilder b = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
        for (int k = 0; k < n; k++) {
            int i = order[k];
            long begin = overlap && k == n - 1 ? (i + 1L) % n : i;
            b.append(",\"t").append(i).append("\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[").append(begin)
                    .append(',').append(begin + 1).append("]}");
        }
        return b.append('}').toString();
    }

    @Test
    void aHeaderOfAHundredThousandShuffledTensorsIsParsedOnceAndSorted() throws Exception {
        String json = header(N, 1, false);
        Path p = IoFixtures.write(dir, "many.safetensors", IoFixtures.safetensors(json, new byte[N]));
        try (Arena arena = Arena.ofConfined()) {
            SafeTensorsFile[] file = {null};
            WorkCounts.Counts open = WorkCounts.of(() -> file[0] = SafeTensors.open(p, arena));
            assertEquals(1, open.get(Kind.TEXT_PARSES), open::toString);
            assertEquals(json.length(), open.get(Kind.TEXT_CHARS), open::toString);
            long comparisons = open.get(Kind.COMPARISONS);
            assertTrue(comparisons >= N - 1 && comparisons <= sortBound(N), open::toString);

            SafeTensorsHeader h = file[0].header();
            assertEquals(N, h.tensors().size());
            for (int i = 0; i < N; i++) {
                assertEquals(i, h.tensors().get(i).begin(), "sorted by offset");
            }
            WorkCounts.Counts lookups = WorkCounts.of(() -> {
                for (int i = N - 1; i >= 0; i--) {
                    String name = "t" + i;
                    assertSame(h.tensors().get(i), h.entry(name));
                    assertEquals(1, file[0].tensor(name).segment().byteSize());
                }
            });
            assertEquals(0, lookups.get(Kind.TEXT_PARSES), "a lookup parses nothing again");
            assertEquals(null, h.entry("t" + N));
        }
    }

    @Test
    void anOverlapAmongAHundredThousandTensorsIsFoundBySortingNotByPairs() throws Exception {
        String json = header(N, 2, true);
        Path p = IoFixtures.write(dir, "overlap.safetensors", IoFixtures.safetensors(json, new byte[N]));
        TensorFormatException[] e = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> e[0] = assertThrows(TensorFormatException.class,
                () -> SafeTensors.readHeader(p)));
        assertTrue(e[0].getMessage().contains("do not continue the data"), e[0].getMessage());
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
        assertTrue(c.get(Kind.COMPARISONS) <= sortBound(N), c::toString);
    }

    @Test
    void anIndexOfAHundredThousandTensorsAndAsManyMetadataValuesIsReadInOnePassAndOneCheckOfEach()
            throws Exception {
        StringBuilder b = new StringBuilder("{\"metadata\":{\"total_size\":0");
        for (int i = 0; i < N; i++) {
            b.append(",\"m").append(i).append("\":[").append(i).append(",\"x\"]");
        }
        b.append("},\"weight_map\":{");
        for (int i = 0; i < N; i++) {
            b.append(i > 0 ? "," : "").append("\"t").append(i).append("\":\"model-0000").append(i % 3 + 1)
                    .append("-of-00003.safetensors\"");
        }
        String text = b.append("}}").toString();
        Path p = Files.writeString(dir.resolve("model.safetensors.index.json"), text, StandardCharsets.UTF_8);
        SafeTensorsIndex[] index = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> index[0] = SafeTensorsIndex.read(p));
        assertEquals(N, index[0].weightMap().size());
        assertEquals(N + 1, index[0].metadata().size());
        assertEquals("[7,\"x\"]", index[0].metadata().get("m7"));
        // the file once, then each metadata value (kept as JSON text) once as the index checks it
        assertEquals(1 + N + 1, c.get(Kind.TEXT_PARSES), c::toString);
        assertTrue(c.get(Kind.TEXT_CHARS) <= 2L * text.length(), c::toString);
        WorkCounts.Counts shards = WorkCounts.of(() -> assertEquals(3, index[0].shards().size()));
        assertEquals(0, shards.get(Kind.TEXT_PARSES));
    }

    @Test
    void aCheckpointOfAHundredThousandTensorsInThreeShardsParsesEachFileOnce() throws Exception {
        StringBuilder map = new StringBuilder("{\"metadata\":{\"total_size\":" + N + "},\"weight_map\":{");
        StringBuilder[] shards = new StringBuilder[3];
        int[] count = new int[3];
        for (int s = 0; s < 3; s++) {
            shards[s] = new StringBuilder("{");
        }
        for (int i = 0; i < N; i++) {
            int s = i % 3;
            String shard = "model-0000" + (s + 1) + "-of-00003.safetensors";
            map.append(i > 0 ? "," : "").append("\"t").append(i).append("\":\"").append(shard).append('"');
            shards[s].append(count[s] > 0 ? "," : "").append("\"t").append(i)
                    .append("\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[").append(count[s]).append(',')
                    .append(count[s] + 1).append("]}");
            count[s]++;
        }
        long chars = 0;
        for (int s = 0; s < 3; s++) {
            String json = shards[s].append('}').toString();
            chars += json.length();
            IoFixtures.write(dir, "model-0000" + (s + 1) + "-of-00003.safetensors",
                    IoFixtures.safetensors(json, new byte[count[s]]));
        }
        String index = map.append("}}").toString();
        chars += index.length();
        Files.writeString(dir.resolve("model.safetensors.index.json"), index, StandardCharsets.UTF_8);
        SafeTensorsCheckpoint[] c = {null};
        WorkCounts.Counts w = WorkCounts.of(() -> c[0] = SafeTensorsCheckpoint.open(dir));
        assertEquals(N, c[0].tensorCount());
        assertEquals("model-00002-of-00003.safetensors", c[0].shardOf("t4"));
        // the index, its one metadata value, and each of the three shards' headers
        assertEquals(1 + 1 + 3, w.get(Kind.TEXT_PARSES), w::toString);
        assertTrue(w.get(Kind.TEXT_CHARS) <= chars + 100, w::toString);
        assertTrue(w.get(Kind.COMPARISONS) <= sortBound(N), w::toString);
    }
}
