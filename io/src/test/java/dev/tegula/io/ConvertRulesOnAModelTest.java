package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import dev.tegula.io.safetensors.SafeTensorsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConvertRules} on a real model's tensor list: the Llama checkpoint transformers saved
 * (embed_tokens, q/k/v/o_proj, gate/up/down_proj, 1-D input_layernorm / post_attention_layernorm /
 * norm weights, lm_head), and a GGUF file with a type Tegula does not dequantize.
 */
class ConvertRulesOnAModelTest {
    private static final String TILED = "{1,0:T(8,128)(2,1)}";
    private static final Layout TILES = Layout.rowMajor(2).withTiles(Tile.of(8, 128), Tile.of(2, 1));

    @TempDir
    Path dir;

    /** {@return the tensors of the Llama fixture as transformers saved them: name to shape} */
    @SuppressWarnings("unchecked")
    private static Map<String, ArrayShape> llama() {
        Map<String, Object> saved = (Map<String, Object>) IoFixtures.checkpointExpectations().get("tiny-llama");
        Map<String, ArrayShape> out = new LinkedHashMap<>();
        ((Map<String, Map<String, Object>>) saved.get("tensors")).forEach((name, t) -> {
            assertEquals("BF16", t.get("dtype"));
            long[] dims = ((List<?>) t.get("shape")).stream().mapToLong(x -> (Long) x).toArray();
            out.put(name, ArrayShape.of(ElementType.BF16, dims));
        });
        return out;
    }

    @Test
    void aRankConditionTilesTheWeightMatricesAndLeavesTheNormWeightsRowMajor() {
        ConvertRules rules = ConvertRules.all().layout("rank2:*.weight", TILED);
        Map<String, ArrayShape> model = llama();
        assertEquals(21, model.size());
        int tiled = 0;
        for (Map.Entry<String, ArrayShape> t : model.entrySet()) {
            ArrayShape to = rules.target(t.getKey(), t.getValue());
            if (t.getValue().rank() == 2) {
                assertEquals(t.getValue().withLayout(TILES), to, t.getKey());
                tiled++;
            } else {
                assertTrue(t.getKey().endsWith("norm.weight"), t.getKey());
                assertEquals(t.getValue(), to, t.getKey());
            }
        }
        assertEquals(16, tiled);
        assertTrue(rules.selects("model.norm.weight", model.get("model.norm.weight")));
    }

    @Test
    void anUnqualifiedRuleOnAOneDimensionalNormWeightSaysTheRankDoesNotFit() {
        ArrayShape norm = llama().get("model.layers.0.input_layernorm.weight");
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
                () -> ConvertRules.all().layout("*.weight", TILED).target("model.layers.0.input_layernorm.weight", norm));
        assertEquals("tensor 'model.layers.0.input_layernorm.weight' bf16[64] has rank 1, but the layout '" + TILED
                + "' of rule '*.weight' is for rank 2 (the pattern 'rank2:*.weight' selects only the tensors of rank 2)",
                text.getMessage());
        IllegalArgumentException layout = assertThrows(IllegalArgumentException.class,
                () -> ConvertRules.all().layout("*.weight", TILES).target("model.norm.weight", norm));
        assertEquals("tensor 'model.norm.weight' bf16[64] has rank 1, but the layout " + TILED + " of rule '*.weight'"
                + " is for rank 2 (the pattern 'rank2:*.weight' selects only the tensors of rank 2)", layout.getMessage());
        // a rank-1 layout on a matrix: the same words the other way round
        assertEquals("tensor 'lm_head.weight' bf16[128,64] has rank 2, but the layout '{0}' of rule 'rank2:*' is for"
                + " rank 1", assertThrows(IllegalArgumentException.class, () -> ConvertRules.all().layout("rank2:*", "{0}")
                .target("lm_head.weight", llama().get("lm_head.weight"))).getMessage());
        // a layout of the right rank that does not parse still says so
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConvertRules.all().layout("*", "{0:T(x)}")
                .target("model.norm.weight", norm)).getMessage().contains("does not parse"));
    }

    @Test
    void rankConditionsSelectTypeRulesAndExcludesToo() {
        ConvertRules rules = ConvertRules.all().type("rank1:*", ElementType.F32).exclude("rank2:*.embed_tokens.*")
                .floatType(ElementType.F16);
        Map<String, ArrayShape> model = llama();
        assertEquals(ElementType.F32, rules.target("model.norm.weight", model.get("model.norm.weight")).elementType());
        assertEquals(ElementType.F16, rules.target("lm_head.weight", model.get("lm_head.weight")).elementType());
        assertFalse(rules.selects("model.embed_tokens.weight", model.get("model.embed_tokens.weight")));
        assertTrue(rules.selects("model.embed_tokens.weight", ArrayShape.of(ElementType.BF16, 64)));
        assertEquals("pattern: rank 99999999999 of 'rank99999999999:*' is not a rank",
                assertThrows(IllegalArgumentException.class, () -> ConvertRules.all().exclude("rank99999999999:*"))
                        .getMessage());
    }

    @Test
    void excludedTensorsAreNotWrittenAndAShardLeftEmptyIsNotWrittenAtAll() throws IOException {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Path out = dir.resolve("out");
        // everything of shard 3: lm_head, layer 1's down_proj and the 1-D weights
        ConvertRules rules = ConvertRules.all().exclude("lm_head.weight").exclude("*.1.mlp.down_proj.*").exclude("rank1:*");
        ConvertReport r = TensorFiles.convert(in, out, rules, ConvertOptions.defaults());
        assertEquals(14, r.tensors().size());
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(List.of("config.json", "generation_config.json", "model-00001-of-00003.safetensors",
                    "model-00002-of-00003.safetensors", "model.safetensors.index.json", "tokenizer.json",
                    "tokenizer_config.json"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(out);
        assertEquals(14, c.index().weightMap().size());
        assertFalse(c.index().weightMap().containsKey("lm_head.weight"));
        assertEquals(c.tensorBytes(), c.index().totalSize().orElseThrow());
        long elements = 0;
        for (SafeTensorsHeader h : c.shards().values()) {
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                elements += e.shape().elementCount();
                assertEquals(2, e.shape().rank(), e.name());
            }
        }
        assertEquals(elements, c.index().totalParameters().orElseThrow());
        assertEquals(List.of(), r.unusedRules());
    }

    @Test
    void skipUnsupportedLeavesOutEachTensorARuleDoesNotFitAndNamesIt() throws IOException {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        ConvertRules rules = ConvertRules.all().layout("*.weight", TILED);
        Path stopped = dir.resolve("stopped");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TensorFiles.convert(in, stopped, rules, ConvertOptions.defaults()));
        assertTrue(e.getMessage().startsWith("tensor 'model.layers.0.input_layernorm.weight' bf16[64] has rank 1"),
                e.getMessage());
        assertFalse(Files.exists(stopped));

        Path out = dir.resolve("out");
        ConvertReport r = TensorFiles.convert(in, out, rules, ConvertOptions.defaults().withSkipUnsupported(true));
        assertEquals(List.of("model.layers.0.input_layernorm.weight", "model.layers.0.post_attention_layernorm.weight",
                        "model.layers.1.input_layernorm.weight", "model.layers.1.post_attention_layernorm.weight",
                        "model.norm.weight"),
                r.skipped().stream().map(ConvertReport.Skipped::name).sorted().toList());
        for (ConvertReport.Skipped s : r.skipped()) {
            assertTrue(s.reason().startsWith("tensor '" + s.name() + "' bf16[64] has rank 1, but the layout"), s.reason());
        }
        assertEquals(16, r.tensors().size());
        SafeTensorsIndex index = SafeTensorsCheckpoint.open(out).index();
        assertEquals(16, index.weightMap().size());
        assertFalse(index.weightMap().containsKey("model.norm.weight"));
    }

    @Test
    void aGgufTypeTegulaDoesNotDequantizeIsLeftOutWithSkipUnsupported() throws IOException {
        Path gguf = IoFixtures.gguf("all_types_v3.gguf");
        Path out = dir.resolve("all.safetensors");
        UnsupportedTensorException e = assertThrows(UnsupportedTensorException.class,
                () -> TensorFiles.convert(gguf, out, ConvertRules.all(), ConvertOptions.defaults()));
        assertEquals("tensor 'q.IQ4_NL' is GGUF IQ4_NL, which Tegula does not dequantize", e.getMessage());
        assertEquals("q.IQ4_NL", e.tensor());
        ConvertReport r = TensorFiles.convert(gguf, out, ConvertRules.all(), ConvertOptions.defaults()
                .withSkipUnsupported(true));
        assertEquals(List.of(new ConvertReport.Skipped("q.IQ4_NL", e.getMessage())), r.skipped());
        assertEquals(19, r.tensors().size());
        assertEquals(19, dev.tegula.io.safetensors.SafeTensors.readHeader(out).tensors().size());
    }

    @Test
    void aRuleThatDecidesNothingIsReportedWithTheReason() throws IOException {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        ConvertRules rules = ConvertRules.all()
                .layout("rank2:*.weight", TILED)
                .layout("*proj.weight", "{0,1}")            // every tensor it matches takes the rule before
                .layout("*.bias", "{0}")                    // Llama has no bias
                .type("rank3:*", ElementType.F32)           // nor a tensor of rank 3
                .exclude("*.rotary_emb.inv_freq")           // transformers does not save it
                .floatType(ElementType.F32);
        ConvertReport r = TensorFiles.convert(in, dir.resolve("out"), rules, ConvertOptions.defaults());
        assertEquals(List.of(
                "layout '*proj.weight' {0,1} decides nothing: each tensor it matches takes an earlier rule",
                "layout '*.bias' {0} matches no tensor",
                "type 'rank3:*' f32 matches no tensor",
                "exclude '*.rotary_emb.inv_freq' matches no tensor"), r.unusedRules());
        assertEquals(21, r.tensors().size());
        // a floating-point type rule on an integer tensor matches nothing either
        ConvertRules floats = ConvertRules.all().floatType(ElementType.BF16);
        assertEquals(List.of("type bf16 (for every floating-point tensor) matches no tensor"), floats.unused(
                List.of(new TensorSource.Named("step", dev.tegula.ffm.Array.allocate(java.lang.foreign.Arena.global(),
                        ArrayShape.of(ElementType.S64)))),
                List.of(new TensorSource.Named("step", dev.tegula.ffm.Array.allocate(java.lang.foreign.Arena.global(),
                        ArrayShape.of(ElementType.S64))))));
        assertEquals(ArrayShape.parse("s64[]"), floats.target("step", ArrayShape.of(ElementType.S64)));
    }
}
