package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The weights' type that a checkpoint's {@code config.json} states ({@code torch_dtype},
 * {@code dtype}) after {@link TensorFiles#convert}: it follows the tensors when their type changes,
 * and every other byte of the file stays as it was.
 */
class ConvertConfigDtypeTest {
    /** A config as an older transformers wrote it, with a nested config, escapes and odd spacing to keep. */
    private static final String CONFIG = """
            {
              "architectures": ["LlamaForCausalLM"],
              "torch_dtype"  :   "bfloat16",
              "name_or_path": "caf\\u00e9 \\"tiny\\"",
              "text_config": {"dtype": "bfloat16", "hidden_size": 64},
              "quantization_config": {"dtype": "int8"},
              "note": "torch_dtype: bfloat16",
              "dtype": "bfloat16"
            }
            """;

    @TempDir
    Path dir;

    private Path checkpointWithConfig(String config) throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        Files.writeString(in.resolve("config.json"), config, StandardCharsets.UTF_8);
        return in;
    }

    @Test
    void aConversionToBf16OrF32RestatesEveryFloatDtypeOfTheConfigAndNothingElse() throws Exception {
        Path in = checkpointWithConfig(CONFIG);
        Path out = dir.resolve("f32");
        TensorFiles.convert(in, out, ConvertRules.all().floatType(ElementType.F32), ConvertOptions.defaults());
        String expected = CONFIG.replace("\"torch_dtype\"  :   \"bfloat16\"", "\"torch_dtype\"  :   \"float32\"")
                .replace("{\"dtype\": \"bfloat16\", \"hidden_size\"", "{\"dtype\": \"float32\", \"hidden_size\"")
                .replace("\"dtype\": \"bfloat16\"\n}", "\"dtype\": \"float32\"\n}");
        assertNotEquals(CONFIG, expected);
        assertEquals(expected, Files.readString(out.resolve("config.json"), StandardCharsets.UTF_8));

        // and back: f32 to bf16 says bfloat16 again, byte for byte the original file
        Path back = dir.resolve("bf16");
        TensorFiles.convert(out, back, ConvertRules.all().floatType(ElementType.BF16), ConvertOptions.defaults());
        assertEquals(CONFIG, Files.readString(back.resolve("config.json"), StandardCharsets.UTF_8));
    }

    @Test
    void aConversionToF16SaysFloat16() throws Exception {
        Path in = IoFixtures.checkpoint("tiny-llama", dir);
        byte[] saved = Files.readAllBytes(in.resolve("config.json"));
        Path out = dir.resolve("f16");
        TensorFiles.convert(in, out, ConvertRules.all().floatType(ElementType.F16), ConvertOptions.defaults());
        String expected = new String(saved, StandardCharsets.UTF_8).replace("\"dtype\": \"bfloat16\",", "\"dtype\": \"float16\",");
        assertEquals(expected, Files.readString(out.resolve("config.json"), StandardCharsets.UTF_8));
    }

    @Test
    void aConversionThatKeepsEveryTypeCopiesTheConfigByteForByte() throws Exception {
        Path in = checkpointWithConfig(CONFIG);
        Path out = dir.resolve("tiled");
        TensorFiles.convert(in, out, ConvertRules.all().layout("model.layers.*.mlp.*.weight", "{1,0:T(8,128)}")
                .layout("*embed*", Layout.rowMajor(2)), ConvertOptions.defaults());
        assertArrayEquals(Files.readAllBytes(in.resolve("config.json")), Files.readAllBytes(out.resolve("config.json")));
    }

    @Test
    void tensorsLeftInTwoFloatTypesLeaveTheConfigAsItIs() throws Exception {
        Path in = checkpointWithConfig(CONFIG);
        Path out = dir.resolve("mixed");
        TensorFiles.convert(in, out, ConvertRules.all().type("*norm*", ElementType.F32), ConvertOptions.defaults());
        assertArrayEquals(Files.readAllBytes(in.resolve("config.json")), Files.readAllBytes(out.resolve("config.json")));
    }

    @Test
    void aConfigThatIsNotJsonIsCopiedAsItIs() throws Exception {
        String broken = "{\"dtype\": \"bfloat16\",";
        Path in = checkpointWithConfig(broken);
        Path out = dir.resolve("broken");
        TensorFiles.convert(in, out, ConvertRules.all().floatType(ElementType.F32), ConvertOptions.defaults());
        assertEquals(broken, Files.readString(out.resolve("config.json"), StandardCharsets.UTF_8));
    }

    @Test
    void replacingAStringValueKeepsEveryOtherCharacterAndQuotesTheNewValue() throws HeaderText.Malformed {
        String text = "[ {\"k\" :\"a\\u0041\", \"k2\": 1, \"x\": {\"k\": [\"k\"], \"y\": {\"k\":\"z\"}}} ]";
        assertEquals("[ {\"k\" :\"say \\\"hi\\\"\", \"k2\": 1, \"x\": {\"k\": [\"k\"], \"y\": {\"k\":\"z\"}}} ]",
                Json.replaceStringValues(text, Set.of("k"), v -> v.equals("aA") ? "say \"hi\"" : v));
    }
}
