package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula inspect} and {@code tegula convert} on a checkpoint that transformers saved in three
 * shards (the io fixture {@code tiny-llama}) or in one file ({@code tiny-llama-single}), and the
 * convert options that fit real models.
 */
class CheckpointCommandsTest {
    private static final Path FIXTURE = Path.of("../io/src/test/resources/dev/tegula/io/checkpoint/tiny-llama");
    private static final List<String> SHARDS = List.of("model-00001-of-00003.safetensors",
            "model-00002-of-00003.safetensors", "model-00003-of-00003.safetensors");

    @TempDir
    Path dir;
    Path llama;

    @BeforeEach
    void copyFixture() throws IOException {
        llama = Files.createDirectory(dir.resolve("tiny-llama"));
        try (Stream<Path> s = Files.list(FIXTURE)) {
            for (Path f : s.toList()) {
                Files.copy(f, llama.resolve(f.getFileName().toString()));
            }
        }
    }

    private static List<String> listing(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void inspectListsEveryTensorUnderItsShardFromTheDirectoryOrTheIndex() throws IOException {
        MainTest.Result r = MainTest.run("inspect", llama.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals(llama + ": safetensors checkpoint, index model.safetensors.index.json, 3 shards, 21 tensors",
                lines.getFirst());
        // the tensors under each shard's line are the shard's own, in its order
        Map<String, List<String>> listed = new LinkedHashMap<>();
        String shard = null;
        for (String line : lines) {
            if (line.startsWith("  model-")) {
                shard = line.substring(2, line.indexOf(':'));
                listed.put(shard, new ArrayList<>());
            } else if (line.startsWith("    ") && !line.startsWith("    __metadata__")) {
                listed.get(shard).add(line.strip().split(" +")[0]);
            }
        }
        assertEquals(SHARDS, List.copyOf(listed.keySet()));
        for (String s : SHARDS) {
            assertEquals(SafeTensors.readHeader(llama.resolve(s)).tensors().stream().map(SafeTensorsHeader.Entry::name)
                    .toList(), listed.get(s), s);
        }
        assertEquals("  other files: config.json, generation_config.json, tokenizer.json, tokenizer_config.json",
                lines.getLast());
        MainTest.Result viaIndex = MainTest.run("inspect", llama.resolve("model.safetensors.index.json").toString());
        assertEquals(0, viaIndex.status(), viaIndex.err());
        assertEquals(r.out().substring(r.out().indexOf('\n')), viaIndex.out().substring(viaIndex.out().indexOf('\n')));
    }

    @Test
    void inspectNamesTheFieldOfACheckpointWhoseIndexAndShardsDisagree() throws IOException {
        Files.delete(llama.resolve(SHARDS.get(1)));
        MainTest.Result r = MainTest.run("inspect", llama.toString());
        assertEquals(2, r.status());
        assertEquals("tegula inspect: bad tensor file: " + llama.resolve("model.safetensors.index.json")
                + ": weight_map['model.layers.0.input_layernorm.weight'] names shard '" + SHARDS.get(1)
                + "', which is not a file in " + llama + "\n", r.err());
    }

    @Test
    void convertWritesTheWholeCheckpointInOneCommand() throws IOException {
        Path out = dir.resolve("tiny-llama-f32");
        MainTest.Result r = MainTest.run("convert", llama.toString(), "--type", "f32", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals(23, lines.size());
        assertEquals("copied unchanged: generation_config.json, tokenizer.json, tokenizer_config.json", lines.get(21));
        assertEquals("copied, its dtype now the tensors' type: config.json", lines.getLast());
        for (String line : lines.subList(0, 21)) {
            assertTrue(line.matches("[a-z_.0-9]+ f32\\[[0-9,]+\\]\\{[0-9,]+\\}"), line);
        }
        assertEquals(listing(llama), listing(out));
        for (String s : SHARDS) {
            for (SafeTensorsHeader.Entry e : SafeTensors.readHeader(out.resolve(s)).tensors()) {
                assertEquals("F32", e.dtype(), e.name());
            }
        }
    }

    @Test
    void anUnqualifiedTypeWithTensorConvertsThatTensorWhateverItsType() throws IOException {
        Path model = dir.resolve("model.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = new LinkedHashMap<>();
            Array step = Array.allocate(arena, ArrayShape.of(ElementType.S64));
            step.setLong(new long[0], 1234);
            t.put("step", step);
            t.put("w", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3)));
            SafeTensors.write(t, model);
            Path npy = dir.resolve("step.npy");
            MainTest.Result r = MainTest.run("convert", model.toString(), "--tensor", "step", "--type", "f32", "--out",
                    npy.toString());
            assertEquals(0, r.status(), r.err());
            assertEquals("f32[]\n", r.out());
            assertEquals("", r.err());
            Array back = Npy.read(npy, arena);
            assertEquals(ElementType.F32, back.shape().elementType());
            assertEquals(1234f, back.getFloat(new long[0]));
        }
        // without --tensor, --type is for floating-point tensors: on integer ones only, it says it did nothing
        MainTest.Result ints = MainTest.run("convert", model.toString(), "--exclude", "w", "--type", "f32", "--out",
                dir.resolve("ints.safetensors").toString());
        assertEquals(0, ints.status(), ints.err());
        assertEquals("tegula convert: warning: the rule type f32 (for every floating-point tensor) matches no tensor\n",
                ints.err());
        assertEquals("s64[]\n", ints.out());
    }

    @Test
    void aFailedConvertLeavesNoDirectoryItMade() throws IOException {
        Path out = dir.resolve("made");
        MainTest.Result r = MainTest.run("convert", llama.toString(), "--layout", "*.weight={1,0:T(8,128)(2,1)}", "--out",
                out + "/");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("tegula convert: tensor 'model.layers.0.input_layernorm.weight' bf16[64] has rank 1,"
                + " but the layout"), r.err());
        assertFalse(Files.exists(out));
        // a single file to a directory of .npy files that cannot hold a tiled tensor: no directory either
        Path npys = dir.resolve("npys");
        MainTest.Result n = MainTest.run("convert", llama.resolve(SHARDS.get(2)).toString(), "--type", "bf16",
                "--layout", "lm_head.weight={1,0:T(8,128)(2,1)}", "--out", npys + "/");
        assertEquals(2, n.status());
        assertFalse(Files.exists(npys));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("tiny-llama"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void aConvertRefusedWhileWritingTheLastShardLeavesNoDirectoryAndNoTemporary() throws IOException {
        // lm_head.weight (the last shard's, bf16[128,64]) gets 69632 at [1, 36]: too large for f16
        Path shard = llama.resolve(SHARDS.get(2));
        SafeTensorsHeader h = SafeTensors.readHeader(shard);
        long at = h.dataOffset() + h.entry("lm_head.weight").begin() + 2L * (64 + 36);
        try (FileChannel ch = FileChannel.open(shard, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0x88, 0x47}), at);   // bf16 0x4788, little-endian
        }
        Path out = dir.resolve("f16");
        MainTest.Result r = MainTest.run("convert", llama.toString(), "--type", "*.weight=f16", "--out", out.toString());
        assertEquals(2, r.status(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("tegula convert: "), r.err());
        assertTrue(r.err().contains("tensor 'lm_head.weight' element [1, 36] is 69632.0, too large for f16"), r.err());
        assertEquals("", r.out());
        // neither the directory nor a temporary of it, nor a lock file
        assertEquals(List.of("tiny-llama"), listing(dir));
        // the planted value alone was refused: without that tensor, the same convert succeeds
        MainTest.Result rest = MainTest.run("convert", llama.toString(), "--type", "*.weight=f16", "--exclude",
                "lm_head.weight", "--out", out.toString());
        assertEquals(0, rest.status(), rest.err());
    }

    @Test
    void inspectShowsATiledTensorInTheShapeRecordedForItNotAsItsBytes() throws IOException {
        Path tiled = dir.resolve("tiled");
        MainTest.Result c = MainTest.run("convert", llama.toString(), "--layout", "rank2:*.weight={1,0:T(8,128)(2,1)}",
                "--out", tiled.toString());
        assertEquals(0, c.status(), c.err());
        // the checkpoint: lm_head.weight bf16[128,64], tiled to 128 columns, is 32768 bytes stored as U8;
        // the column of shapes as wide as the widest
        MainTest.Result r = MainTest.run("inspect", tiled.toString());
        assertEquals(0, r.status(), r.err());
        List<String> rows = r.out().lines().filter(l -> l.startsWith("    lm_head.weight ")).toList();
        assertEquals(List.of("    lm_head.weight" + " ".repeat(46 - 14) + "  bf16[128,64]{1,0:T(8,128)(2,1)} U8       32768 B"
                + " (32 KiB)"), rows, r.out());
        // a row-major tensor beside it as before, and no row left as bytes
        assertTrue(r.out().contains("    model.norm.weight" + " ".repeat(46 - 17) + "  bf16[64]{0}" + " ".repeat(21)
                + "BF16     128 B\n"), r.out());
        assertFalse(r.out().contains("u8["), r.out());
        // one shard file of it: its column of names as wide as its longest name, 46 characters
        MainTest.Result f = MainTest.run("inspect", tiled.resolve(SHARDS.get(2)).toString());
        assertEquals(0, f.status(), f.err());
        assertTrue(f.out().contains(String.format("  %-46s %-32s %-8s %s%n", "lm_head.weight",
                "bf16[128,64]{1,0:T(8,128)(2,1)}", "U8", "32768 B (32 KiB)")), f.out());
        assertFalse(f.out().contains("u8["), f.out());
    }

    @Test
    void inspectOfASingleFileCheckpointDirectoryListsItsOneFileAndTheFilesBesideIt() throws IOException {
        // transformers' save_pretrained below its shard size: model.safetensors and no index
        Path single = Files.createDirectory(dir.resolve("single"));
        Path fixture = FIXTURE.resolveSibling("tiny-llama-single");
        for (String f : List.of("model.safetensors", "config.json")) {
            Files.copy(fixture.resolve(f), single.resolve(f));
        }
        MainTest.Result r = MainTest.run("inspect", single.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        SafeTensorsHeader h = SafeTensors.readHeader(single.resolve("model.safetensors"));
        long bytes = h.tensors().stream().mapToLong(SafeTensorsHeader.Entry::byteSize).sum();
        int width = h.tensors().stream().mapToInt(e -> e.name().length()).max().orElseThrow();
        List<String> want = new ArrayList<>();
        want.add(single + ": safetensors checkpoint, one file, 12 tensors");
        want.add("  model.safetensors: 12 tensors, " + ByteCounts.text(bytes) + ", data at byte " + h.dataOffset());
        want.add("    __metadata__ format = pt");
        for (SafeTensorsHeader.Entry e : h.tensors()) {
            want.add(String.format("    %-" + width + "s  %-24s %-8s %s", e.name(), e.shape(), e.dtype(),
                    ByteCounts.text(e.byteSize())));
        }
        want.add("  total " + ByteCounts.text(bytes));
        want.add("  other files: config.json");
        assertEquals(want, r.out().lines().toList());
        assertEquals(12, h.tensors().size());   // one layer (expected.json lists the same 12)
        assertTrue(r.out().contains("    lm_head.weight "), r.out());
        // the fixture as transformers saved it: its generation config and tokenizer are the other files
        MainTest.Result all = MainTest.run("inspect", fixture.toString());
        assertEquals(0, all.status(), all.err());
        assertTrue(all.out().endsWith("  other files: config.json, generation_config.json, tokenizer.json,"
                + " tokenizer_config.json\n"), all.out());
    }

    @Test
    void anOutDirectoryWithFilesIsRefusedAndKept() throws IOException {
        Path out = Files.createDirectory(dir.resolve("mine"));
        Files.writeString(out.resolve("notes.txt"), "keep");
        MainTest.Result r = MainTest.run("convert", llama.toString(), "--out", out.toString());
        assertEquals(2, r.status());
        assertEquals("tegula convert: cannot read or write " + out + ": is a directory that is not empty; write to a new"
                + " or an empty directory\n", r.err());
        assertEquals(List.of("notes.txt"), listing(out));
    }

    @Test
    void aPatternWithABadRankIsRefused() {
        MainTest.Result r = MainTest.run("convert", llama.toString(), "--exclude", "rank99999999999:*", "--out",
                dir.resolve("x").toString());
        assertEquals(2, r.status());
        assertEquals("tegula convert: pattern: rank 99999999999 of 'rank99999999999:*' is not a rank\n", r.err());
    }
}
