package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.Json;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TensorFiles#convert} and {@link TensorFiles#read} on checkpoints that transformers'
 * {@code save_pretrained} made (the fixtures and their generator are in
 * {@code resources/dev/tegula/io/checkpoint}): the output is checked against what transformers saved
 * ({@code expected.json}: files, each tensor's dtype, shape and shard, the shards' metadata, the
 * keys its loader looks for), and every tensor bit for bit against the input. That transformers
 * loads the output, with identical logits, is checked by {@code make_checkpoints.py check}.
 */
class CheckpointConvertTest {
    private static final String INDEX = "model.safetensors.index.json";

    @TempDir
    Path dir;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> saved(String fixture) {
        return (Map<String, Object>) IoFixtures.checkpointExpectations().get(fixture);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> savedTensors(String fixture) {
        return (Map<String, Map<String, Object>>) saved(fixture).get("tensors");
    }

    private static List<String> listing(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws Exception {
        return (Map<String, Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    private static long[] dims(Object shape) {
        return ((List<?>) shape).stream().mapToLong(x -> (Long) x).toArray();
    }

    private static long elements(Object shape) {
        long n = 1;
        for (long d : dims(shape)) {
            n *= d;
        }
        return n;
    }

    /**
     * Waits up to {@code millis} for the temporaries of two or more shards under {@code root}
     * ({@code .model-…safetensors.N.tmp}); {@return how many there were when the wait ended}
     */
    private static int shardTemporariesWithin(Path root, long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (true) {
            int n;
            try (Stream<Path> s = Files.walk(root)) {
                n = (int) s.map(p -> p.getFileName().toString())
                        .filter(f -> f.startsWith(".model-") && f.endsWith(".tmp")).count();
            } catch (IOException | java.io.UncheckedIOException e) {
                n = 0;   // a temporary renamed or removed while listed: look again
            }
            if (n >= 2 || System.nanoTime() > end) {
                return n;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return n;
            }
        }
    }

    private static ConvertOptions options() {
        return ConvertOptions.defaults();
    }

    @Test
    void aShardedCheckpointConvertsToF32InOneCallAsTransformersSavesIt() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path out = dir.resolve("tiny-llama-f32");
        ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all().floatType(ElementType.F32), options());

        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, r.format());
        assertEquals(21, r.tensors().size());
        assertEquals(List.of(), r.unusedRules());
        assertEquals(List.of(), r.skipped());
        assertEquals(saved("tiny-llama").get("files"), listing(out));
        // the files transformers wrote beside the weights, byte for byte but for the config's dtype,
        // which says the new type (bf16 was saved, f32 written)
        List<String> copied = r.copied().stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"), copied);
        for (Path p : r.copied()) {
            assertEquals(out.resolve(p.getFileName()), p);
            String saved = Files.readString(in.resolve(p.getFileName()));
            String expected = p.getFileName().toString().equals("config.json")
                    ? saved.replace("\"dtype\": \"bfloat16\",", "\"dtype\": \"float32\",") : saved;
            assertEquals(expected, Files.readString(p), p.toString());
        }
        // the index: the weight map names each tensor transformers' loader looks for, in the shard it
        // was saved in; metadata counts what was written (f32: 4 bytes per element)
        Map<String, Object> index = json(out.resolve(INDEX));
        @SuppressWarnings("unchecked")
        Map<String, Object> weightMap = (Map<String, Object>) index.get("weight_map");
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) index.get("metadata");
        assertEquals(saved("tiny-llama").get("state_dict_keys"), weightMap.keySet().stream().sorted().toList());
        long elements = 0;
        for (Map.Entry<String, Map<String, Object>> t : savedTensors("tiny-llama").entrySet()) {
            assertEquals(t.getValue().get("shard"), weightMap.get(t.getKey()), t.getKey());
            elements += elements(t.getValue().get("shape"));
        }
        assertEquals(4 * elements, metadata.get("total_size"));
        assertEquals(elements, metadata.get("total_parameters"));
        // each shard: the tensors transformers put there, as F32 of the same shape, and its metadata
        @SuppressWarnings("unchecked")
        Map<String, Object> shardMetadata = (Map<String, Object>) saved("tiny-llama").get("shard_metadata");
        try (Arena arena = Arena.ofConfined()) {
            for (Map.Entry<String, Object> shard : shardMetadata.entrySet()) {
                SafeTensorsHeader h = SafeTensors.readHeader(out.resolve(shard.getKey()));
                assertEquals(shard.getValue(), h.metadata(), shard.getKey());
                for (SafeTensorsHeader.Entry e : h.tensors()) {
                    Map<String, Object> want = savedTensors("tiny-llama").get(e.name());
                    assertEquals(shard.getKey(), want.get("shard"), e.name());
                    assertEquals("F32", e.dtype(), e.name());
                    assertArrayEquals(dims(want.get("shape")), e.shape().dimensions(), e.name());
                    // bf16 to f32 is exact: the high 16 bits of each f32 are the bf16
                    Array bf16 = SafeTensors.read(in.resolve(shard.getKey()), e.name(), arena);
                    Array f32 = SafeTensors.read(out.resolve(shard.getKey()), e.name(), arena);
                    for (long i = 0; i < bf16.shape().elementCount(); i++) {
                        assertEquals(bf16.segment().getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i),
                                (short) (f32.segment().getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i) >>> 16), e.name());
                        assertEquals(0, f32.segment().getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i) & 0xFFFF, e.name());
                    }
                }
            }
        }
        assertNoTemporaries();
    }

    @Test
    void tiledWeightMatricesReadBackAndConvertBackToTheSavedBytes() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path tiled = dir.resolve("tiled");
        ConvertRules rules = ConvertRules.all().layout("rank2:*.weight", "{1,0:T(8,128)(2,1)}");
        ConvertReport r = TensorFiles.convert(in, tiled, rules, options());
        assertEquals(List.of(), r.unusedRules());
        try (Arena arena = Arena.ofConfined()) {
            for (Map.Entry<String, Map<String, Object>> t : savedTensors("tiny-llama").entrySet()) {
                String name = t.getKey();
                long[] d = dims(t.getValue().get("shape"));
                Array got = TensorFiles.read(tiled, name, arena);
                ArrayShape want = ArrayShape.of(ElementType.BF16, d);
                if (d.length == 2) {
                    want = want.withLayout(Layout.rowMajor(2).withTiles(dev.tegula.core.Tile.of(8, 128),
                            dev.tegula.core.Tile.of(2, 1)));
                }
                assertEquals(want, got.shape(), name);
                Array plain = TensorFiles.readAs(tiled, name, Layout.rowMajor(d.length), arena);
                Array original = TensorFiles.read(in, name, arena);
                assertArrayEquals(original.segment().toArray(ValueLayout.JAVA_BYTE),
                        plain.segment().toArray(ValueLayout.JAVA_BYTE), name);
            }
        }
        // and back: every tensor's bytes and the index are what transformers saved
        Path back = dir.resolve("back");
        TensorFiles.convert(tiled, back, ConvertRules.all(), options());
        assertEquals(listing(in), listing(back));
        assertArrayEquals(Files.readAllBytes(in.resolve(INDEX)), Files.readAllBytes(back.resolve(INDEX)));
        try (Arena arena = Arena.ofConfined()) {
            for (String shard : List.of("model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors",
                    "model-00003-of-00003.safetensors")) {
                Map<String, Array> a = SafeTensors.read(in.resolve(shard), arena);
                Map<String, Array> b = SafeTensors.read(back.resolve(shard), arena);
                assertEquals(new ArrayList<>(a.keySet()), new ArrayList<>(b.keySet()), shard);
                for (String name : a.keySet()) {
                    assertEquals(a.get(name).shape(), b.get(name).shape(), name);
                    assertArrayEquals(a.get(name).segment().toArray(ValueLayout.JAVA_BYTE),
                            b.get(name).segment().toArray(ValueLayout.JAVA_BYTE), name);
                }
                assertEquals(Map.of("format", "pt"), SafeTensors.readHeader(back.resolve(shard)).metadata());
            }
        }
    }

    @Test
    void aSingleFileCheckpointConvertsTheSameWayWithoutAnIndex() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama-single", dir);
        Path out = dir.resolve("single-f16");
        ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all().floatType(ElementType.F16), options());
        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, r.format());
        assertEquals(saved("tiny-llama-single").get("files"), listing(out));
        assertEquals(4, r.copied().size());
        SafeTensorsHeader h = SafeTensors.readHeader(out.resolve("model.safetensors"));
        assertEquals(Map.of("format", "pt"), h.metadata());
        assertEquals(savedTensors("tiny-llama-single").keySet(),
                h.tensors().stream().map(SafeTensorsHeader.Entry::name).collect(java.util.stream.Collectors.toSet()));
        try (Arena arena = Arena.ofConfined()) {
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                assertEquals("F16", e.dtype());
                float[] original = TensorFiles.read(in, e.name(), arena).toFloatArray();
                Array f16 = TensorFiles.read(out, e.name(), arena);
                // each value rounded to the nearest f16, ties to even (the JDK's rounding; small
                // weights become subnormal f16)
                for (int i = 0; i < original.length; i++) {
                    assertEquals(Float.floatToFloat16(original[i]),
                            f16.segment().getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i), e.name() + "[" + i + "]");
                }
            }
        }
    }

    @Test
    void theIndexFileStandsForItsCheckpoint() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path viaIndex = dir.resolve("via-index");
        Path viaDir = dir.resolve("via-dir");
        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, TensorFormat.ofSource(in.resolve(INDEX), null));
        TensorFiles.convert(in.resolve(INDEX), viaIndex, ConvertRules.all(), options());
        TensorFiles.convert(in, viaDir, ConvertRules.all(), options());
        assertEquals(listing(viaDir), listing(viaIndex));
        for (String f : listing(viaDir)) {
            assertArrayEquals(Files.readAllBytes(viaDir.resolve(f)), Files.readAllBytes(viaIndex.resolve(f)), f);
        }
        try (Arena arena = Arena.ofConfined()) {
            Array a = TensorFiles.read(in.resolve(INDEX), "lm_head.weight", arena);
            Array b = SafeTensors.read(in.resolve("model-00003-of-00003.safetensors"), "lm_head.weight", arena);
            assertTrue(a.contentEquals(b));
            TensorFormatException missing = assertThrows(TensorFormatException.class,
                    () -> TensorFiles.read(in, "lm_head.bias", arena));
            assertEquals(in + ": no tensor 'lm_head.bias' in the checkpoint's 21 tensors", missing.getMessage());
        }
    }

    @Test
    void shardsWrittenSeveralAtOnceAreTheShardsWrittenOneAfterAnother() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        ConvertRules rules = ConvertRules.all().layout("rank2:*", "{0,1}").floatType(ElementType.F32);
        Path one = dir.resolve("one");
        Path many = dir.resolve("many");
        // 1 thread: one file at a time; 4 threads and 256 MiB: the three shards at once, 85 MiB each
        TensorFiles.convert(in, one, rules, options().withParallelism(1));
        // the first progress call holds its shard's writer until another shard's temporary is
        // there: written one after another, the next shard cannot begin while the first is held
        int[] inFlight = {-1};
        ConvertProgress waitForAnother = (tensor, done, total) -> {
            if (inFlight[0] < 0) {
                inFlight[0] = shardTemporariesWithin(dir, 10_000);
            }
        };
        TensorFiles.convert(in, many, rules,
                options().withParallelism(4).withMemory(256L << 20).withProgress(waitForAnother));
        assertTrue(inFlight[0] >= 2, inFlight[0] + " shard(s) in flight at the first progress call; want 2 or more");
        assertEquals(listing(one), listing(many));
        for (String f : listing(one)) {
            assertArrayEquals(Files.readAllBytes(one.resolve(f)), Files.readAllBytes(many.resolve(f)), f);
        }
    }

    @Test
    void aFailureWhileWritingLeavesNoDirectoryAndNoTemporary() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        for (int threads : new int[] {1, 4}) {
            Path out = dir.resolve("out-" + threads);
            int[] calls = {0};
            ConvertOptions failing = options().withParallelism(threads).withProgress((t, done, total) -> {
                if (++calls[0] == 5) {
                    throw new IllegalStateException("disk gone");
                }
            });
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> TensorFiles.convert(in, out, ConvertRules.all(), failing));
            assertEquals("disk gone", e.getMessage());
            assertFalse(Files.exists(out), out + " was left");
        }
        // an empty directory named as the target stays as it was, empty
        Path empty = Files.createDirectory(dir.resolve("empty"));
        ConvertOptions failing = options().withProgress((t, done, total) -> {
            throw new IllegalStateException("disk gone");
        });
        assertThrows(IllegalStateException.class, () -> TensorFiles.convert(in, empty, ConvertRules.all(), failing));
        assertEquals(List.of(), listing(empty));
        assertNoTemporaries();
        // into the empty directory, when nothing fails
        TensorFiles.convert(in, empty, ConvertRules.all(), options());
        assertEquals(listing(in), listing(empty));
    }

    @Test
    void aTargetThatIsAFileOrADirectoryWithFilesIsRefusedAndLeftAsItWas() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path full = Files.createDirectory(dir.resolve("full"));
        Files.writeString(full.resolve("notes.txt"), "mine");
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> TensorFiles.convert(in, full, ConvertRules.all(), options()));
        assertEquals(full + ": is a directory that is not empty; write to a new or an empty directory", e.getMessage());
        assertEquals(List.of("notes.txt"), listing(full));
        Path file = Files.writeString(dir.resolve("model-out"), "mine");
        IllegalArgumentException f = assertThrows(IllegalArgumentException.class,
                () -> TensorFiles.convert(in, file, ConvertRules.all(), options()));
        assertEquals("target: " + file + " is a file; convert writes a checkpoint to a directory (a new one, or an"
                + " empty one)", f.getMessage());
        assertEquals("mine", Files.readString(file));
        assertNoTemporaries();
    }

    @Test
    void aCheckpointConvertsToOneSafetensorsFileToo() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path out = dir.resolve("all.safetensors");
        ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all(), options());
        assertEquals(TensorFormat.SAFETENSORS, r.format());
        assertEquals(List.of(), r.copied());
        SafeTensorsHeader h = SafeTensors.readHeader(out);
        assertEquals(21, h.tensors().size());
        assertEquals(Map.of("format", "pt"), h.metadata());
        try (Arena arena = Arena.ofConfined()) {
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                assertTrue(TensorFiles.read(in, e.name(), arena).contentEquals(TensorFiles.read(out, e.name(), arena)));
            }
        }
    }

    @Test
    void checkpointsAreRecognisedAndWrittenFromCheckpoints() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path single = IoFixtures.checkpoint("tiny-llama-single", dir);
        Path npys = Files.createDirectory(dir.resolve("npys"));
        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, TensorFormat.ofSource(in, null));
        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, TensorFormat.ofSource(single, null));
        assertEquals(TensorFormat.NPY_DIRECTORY, TensorFormat.ofSource(npys, null));
        assertEquals(TensorFormat.SAFETENSORS_CHECKPOINT, TensorFormat.named(Path.of("Model.SafeTensors.Index.JSON")));
        TensorFormat ckpt = TensorFormat.SAFETENSORS_CHECKPOINT;
        assertEquals(ckpt, TensorFormat.ofTarget(dir.resolve("Llama-3.1-8B-tiled"), ckpt));
        assertEquals(ckpt, TensorFormat.ofTarget(npys, ckpt));
        assertEquals(TensorFormat.SAFETENSORS, TensorFormat.ofTarget(dir.resolve("all.safetensors"), ckpt));
        assertEquals(TensorFormat.NPY, TensorFormat.ofTarget(dir.resolve("one.npy"), ckpt));
        assertEquals(TensorFormat.NPY_DIRECTORY, TensorFormat.ofTarget(npys, TensorFormat.SAFETENSORS));
        assertEquals("target: convert does not write .gguf files (" + dir.resolve("m.gguf") + "); it writes .npy,"
                        + " .safetensors, a directory of .npy files, a checkpoint directory (from a checkpoint), or a raw"
                        + " buffer (any other name, e.g. .bin)",
                assertThrows(IllegalArgumentException.class, () -> TensorFormat.ofTarget(dir.resolve("m.gguf"), ckpt))
                        .getMessage());
        assertEquals("target: " + dir.resolve(INDEX) + " is the name of a checkpoint's index; convert writes a"
                        + " checkpoint to a directory: name the directory",
                assertThrows(IllegalArgumentException.class, () -> TensorFormat.ofTarget(dir.resolve(INDEX), ckpt))
                        .getMessage());
        assertEquals("safetensors-checkpoint", ckpt.name());
        assertFalse(ckpt.holdsOneTensor());
        assertTrue(ckpt.isWritable());
        ArrayShape s = ArrayShape.parse("bf16[64]{0}");
        assertEquals(s, ckpt.stored("x", s));
    }

    private void assertNoTemporaries() throws IOException {
        IoFixtures.assertNoTemporaries(dir);
    }
}
