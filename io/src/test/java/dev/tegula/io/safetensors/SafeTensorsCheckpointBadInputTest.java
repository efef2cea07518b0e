package dev.tegula.io.safetensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.core.ArrayShape;
import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SafeTensorsCheckpoint#open} and {@link SafeTensorsIndex#read} on checkpoints whose index and
 * shards disagree or whose index is malformed: each is refused with the file, the field and the value.
 */
class SafeTensorsCheckpointBadInputTest {
    private static final String INDEX = "model.safetensors.index.json";

    @TempDir
    Path dir;

    /** A checkpoint of two shards: a.safetensors holds x and y, b.safetensors holds z. */
    private Path twoShards(String index) throws IOException {
        Path d = Files.createDirectories(dir.resolve("ckpt"));
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> a = new LinkedHashMap<>();
            a.put("x", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2)));
            a.put("y", Array.allocate(arena, ArrayShape.of(ElementType.F32, 3)));
            SafeTensors.write(a, d.resolve("a.safetensors"));
            SafeTensors.write(Map.of("z", Array.allocate(arena, ArrayShape.of(ElementType.BF16, 4))), d.resolve("b.safetensors"));
        }
        Files.writeString(d.resolve(INDEX), index);
        return d;
    }

    private static final String GOOD = """
            {"metadata": {"total_size": 28}, "weight_map": {"x": "a.safetensors", "y": "a.safetensors", "z": "b.safetensors"}}""";

    private String refusal(Path path) {
        return assertThrows(TensorFormatException.class, () -> SafeTensorsCheckpoint.open(path)).getMessage();
    }

    @Test
    void aWellFormedCheckpointOpensWithEveryTensorInItsShard() throws IOException {
        Path d = twoShards(GOOD);
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(d);
        assertEquals(List.of("a.safetensors", "b.safetensors"), List.copyOf(c.shards().keySet()));
        assertEquals("b.safetensors", c.shardOf("z"));
        assertEquals(null, c.shardOf("w"));
        assertEquals(3, c.tensorCount());
        assertEquals(28, c.tensorBytes());
        assertEquals(28, c.index().totalSize().orElseThrow());
        assertEquals(d.resolve(INDEX), c.indexFile());
        assertEquals(List.of(), c.otherFiles());
    }

    @Test
    void anIndexNamingAMissingShardIsRefusedNamingTheTensorAndTheShard() throws IOException {
        Path d = twoShards(GOOD);
        Files.delete(d.resolve("b.safetensors"));
        assertEquals(d.resolve(INDEX) + ": weight_map['z'] names shard 'b.safetensors', which is not a file in " + d,
                refusal(d));
    }

    @Test
    void aTensorMissingFromItsShardIsRefused() throws IOException {
        Path d = twoShards(GOOD.replace("\"z\": \"b.safetensors\"", "\"z\": \"b.safetensors\", \"w\": \"b.safetensors\""));
        assertEquals(d.resolve(INDEX) + ": weight_map['w'] names shard 'b.safetensors', which has no tensor 'w'",
                refusal(d));
    }

    @Test
    void aTensorInTwoShardsIsRefused() throws IOException {
        Path d = twoShards(GOOD);
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> b = new LinkedHashMap<>();
            b.put("z", Array.allocate(arena, ArrayShape.of(ElementType.BF16, 4)));
            b.put("x", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2)));
            SafeTensors.write(b, d.resolve("b.safetensors"));
        }
        assertEquals(d.resolve("b.safetensors") + ": tensor 'x' is in shard 'b.safetensors', but the weight_map of "
                + INDEX + " names 'a.safetensors' (a tensor is in one shard only)", refusal(d));
    }

    @Test
    void aShardTensorTheIndexDoesNotListIsRefused() throws IOException {
        Path d = twoShards(GOOD.replace(", \"y\": \"a.safetensors\"", ""));
        assertEquals(d.resolve("a.safetensors") + ": tensor 'y' is not in the weight_map of " + INDEX, refusal(d));
    }

    @Test
    void aTensorListedTwiceInTheIndexIsRefused() throws IOException {
        Path d = twoShards(GOOD.replace("\"z\": \"b.safetensors\"", "\"z\": \"b.safetensors\", \"x\": \"b.safetensors\""));
        String m = refusal(d);
        assertTrue(m.startsWith(d.resolve(INDEX) + ": file is not valid JSON: expected no repeated key (\"x\" appears"
                + " twice) at offset "), m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../a.safetensors", "sub/a.safetensors", "/etc/a.safetensors", "..", ".", "",
            "a\\\\b.safetensors", "C:a.safetensors", "a\\u0000.safetensors"})
    void aShardThatIsNotAPlainFileNameIsRefusedBeforeAnyFileIsOpened(String shard) throws IOException {
        Path d = twoShards(GOOD.replace("\"z\": \"b.safetensors\"", "\"z\": \"" + shard + "\""));
        String m = refusal(d);
        String decoded = shard.replace("\\\\", "\\").replace("\\u0000", "?");
        String why = switch (shard) {
            case "..", ".", "" -> "is not a file name";
            case "/etc/a.safetensors", "C:a.safetensors" -> "is an absolute path, not a file name in the checkpoint's"
                    + " directory";
            case "a\\u0000.safetensors" -> "has a control character";
            case "a\\\\b.safetensors" -> "is not a plain file name in the checkpoint's directory (it has a '\\')";
            default -> "is not a plain file name in the checkpoint's directory (it has a '/')";
        };
        assertEquals(d.resolve(INDEX) + ": weight_map['z'] '" + decoded + "' " + why, m);
    }

    @Test
    void anIndexOverTheCapIsRefusedWithoutReadingIt() throws IOException {
        Path d = twoShards(GOOD);
        try (RandomAccessFile f = new RandomAccessFile(d.resolve(INDEX).toFile(), "rw")) {
            f.setLength(SafeTensorsIndex.MAX_INDEX_BYTES + 5);   // sparse: nothing is stored
        }
        assertEquals(d.resolve(INDEX) + ": file is 100000005 bytes, over the cap of 100000000 for an index", refusal(d));
    }

    @Test
    void countsThatAreNotNonNegativeIntegersAreRefused() throws IOException {
        for (String bad : List.of("\"abc\"", "-1", "1.5", "99999999999999999999999", "null")) {
            Path d = twoShards(GOOD.replace("\"total_size\": 28", "\"total_size\": " + bad));
            assertEquals(d.resolve(INDEX) + ": metadata.total_size " + (bad.equals("\"abc\"") ? "abc" : bad)
                    + " is not a non-negative integer", refusal(d), bad);
            Files.walk(d).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Path d = twoShards(GOOD.replace("\"total_size\": 28", "\"total_size\": 28.0, \"total_parameters\": 9"));
        SafeTensorsIndex i = SafeTensorsCheckpoint.open(d).index();
        assertEquals(28, i.totalSize().orElseThrow());
        assertEquals(9, i.totalParameters().orElseThrow());
    }

    @Test
    void aTotalSizeThatDiffersFromTheShardsIsKeptAsTheIndexSaysIt() throws IOException {
        Path d = twoShards(GOOD.replace("\"total_size\": 28", "\"total_size\": 1000"));
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(d);
        assertEquals(1000, c.index().totalSize().orElseThrow());
        assertEquals(28, c.tensorBytes());
    }

    @Test
    void aMalformedIndexIsRefusedNamingTheField() throws IOException {
        String[][] cases = {
                {"[1]", "file is not a JSON object"},
                {"{\"metadata\": {}}", "weight_map is missing"},
                {"{\"weight_map\": {}}", "weight_map {} is not an object naming the shard of at least one tensor"},
                {"{\"weight_map\": [\"a.safetensors\"]}", "weight_map [a.safetensors] is not an object naming the shard"
                        + " of at least one tensor"},
                {"{\"weight_map\": {\"x\": 7}}", "weight_map['x'] 7 is not a string"},
                {"{\"metadata\": 3, \"weight_map\": {\"x\": \"a.safetensors\"}}", "metadata 3 is not an object"},
                {"{\"weight_map\": {\"x\": \"a.safetensors\"", "file is not valid JSON: expected ',' or '}' at offset 36,"
                        + " found end of input"},
        };
        for (String[] c : cases) {
            Path d = twoShards(c[0]);
            assertEquals(d.resolve(INDEX) + ": " + c[1], refusal(d), c[0]);
            Files.walk(d).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Path d = twoShards(GOOD);
        Files.write(d.resolve(INDEX), new byte[] {'{', (byte) 0xC3, '}'});
        assertEquals(d.resolve(INDEX) + ": file is not valid UTF-8", refusal(d));
    }

    @Test
    void aDirectoryIsACheckpointWithOneIndexOrOneSafetensorsFile() throws IOException {
        Path d = twoShards(GOOD);
        Files.writeString(d.resolve("other.safetensors.index.json"), GOOD);
        assertEquals(d + ": holds several indexes [" + INDEX + ", other.safetensors.index.json]; name the one to read",
                refusal(d));
        SafeTensorsCheckpoint named = SafeTensorsCheckpoint.open(d.resolve("other.safetensors.index.json"));
        assertEquals(3, named.tensorCount());
        Files.delete(d.resolve("other.safetensors.index.json"));
        Files.delete(d.resolve(INDEX));
        assertEquals(d + ": holds 2 .safetensors files [a.safetensors, b.safetensors] and no *.safetensors.index.json"
                + " index naming the tensors of each; read them one by one", refusal(d));
        Files.delete(d.resolve("b.safetensors"));
        Files.writeString(d.resolve("config.json"), "{}");
        Files.writeString(d.resolve(".hidden"), "");
        Files.writeString(d.resolve("pytorch_model.bin"), "");
        Files.writeString(d.resolve("pytorch_model.bin.index.json"), "{}");
        SafeTensorsCheckpoint single = SafeTensorsCheckpoint.open(d);
        assertEquals(null, single.index());
        assertEquals(null, single.indexFile());
        assertEquals(List.of("a.safetensors"), List.copyOf(single.shards().keySet()));
        assertEquals("a.safetensors", single.shardOf("y"));
        assertEquals(List.of(d.resolve("config.json")), single.otherFiles());
        Files.delete(d.resolve("a.safetensors"));
        assertEquals(d + ": holds no .safetensors file and no *.safetensors.index.json index", refusal(d));
        Path file = Files.writeString(dir.resolve("notes.json"), "{}");
        assertEquals(file + ": is neither a directory nor a *.safetensors.index.json file", refusal(file));
    }

    @Test
    void anIndexIsWrittenAsTransformersWritesIt() {
        SequencedMap<String, String> weights = new LinkedHashMap<>();
        weights.put("a\"b", "m-1.safetensors");
        weights.put("c", "m-2.safetensors");
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("total_size", "12");
        meta.put("note", "{\"k\":[1,2]}");
        String text = new String(new SafeTensorsIndex(meta, weights).toBytes(), StandardCharsets.UTF_8);
        assertEquals("""
                {
                  "metadata": {
                    "total_size": 12,
                    "note": {"k":[1,2]}
                  },
                  "weight_map": {
                    "a\\"b": "m-1.safetensors",
                    "c": "m-2.safetensors"
                  }
                }
                """, text);
        assertEquals(List.of("m-1.safetensors", "m-2.safetensors"), new SafeTensorsIndex(meta, weights).shards());
        assertEquals("weightMap['c']: '../m' is not a plain file name in the checkpoint's directory (it has a '/')",
                assertThrows(IllegalArgumentException.class, () -> new SafeTensorsIndex(Map.of(),
                        new LinkedHashMap<>(Map.of("c", "../m")))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SafeTensorsIndex(Map.of("k", "{"), weights));
        assertThrows(IllegalArgumentException.class, () -> new SafeTensorsIndex(Map.of(), new LinkedHashMap<>()));
    }

    /** Reading does not start until everything agrees: fixtures made by transformers open as they are. */
    @Test
    void transformersFixturesOpen() throws IOException {
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(IoFixtures.checkpoint("tiny-llama", dir));
        assertEquals(3, c.shards().size());
        assertEquals(21, c.tensorCount());
        assertEquals(c.tensorBytes(), c.index().totalSize().orElseThrow());
        assertEquals(List.of("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"),
                c.otherFiles().stream().map(p -> p.getFileName().toString()).toList());
    }
}
