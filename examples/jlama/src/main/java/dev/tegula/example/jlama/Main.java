package dev.tegula.example.jlama;

import com.github.tjake.jlama.model.AbstractModel;
import com.github.tjake.jlama.model.ModelSupport;
import com.github.tjake.jlama.safetensors.DType;
import com.github.tjake.jlama.safetensors.SafeTensorSupport;
import com.github.tjake.jlama.tensor.AbstractTensor;
import com.github.tjake.jlama.tensor.KvBufferCache;
import dev.tegula.core.ElementType;
import dev.tegula.io.ConvertOptions;
import dev.tegula.io.ConvertRules;
import dev.tegula.io.TensorFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Converts the transformers checkpoint of {@code data/tiny-llama} (f32) with Tegula, runs it in
 * Jlama and checks Jlama's greedy tokens against the ones transformers computed
 * ({@code data/expected.json}, made by {@code data/generate.py}):
 * <ol>
 * <li>to bf16, loaded by Jlama's own loader: the config.json Tegula copies says
 *     {@code "dtype": "bfloat16"}, as transformers' own bf16 save would;</li>
 * <li>to bf16 with every weight matrix tiled ({@code {1,0:T(8,128)(2,1)}}), which Jlama's loader
 *     refuses (the tensors are {@code U8} bytes), loaded through {@link TegulaWeightLoader}: the
 *     logits equal those of the plain bf16 load bit for bit, and so do the tokens.</li>
 * </ol>
 *
 * <p>Usage: {@code Main DATA_DIR}. Exit status 0 when every check passes, 1 when one fails, 2 on a
 * usage error.
 */
public final class Main {
    private final List<String> failed = new ArrayList<>();

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: jlama-example DATA_DIR");
            System.exit(2);
        }
        Main m = new Main();
        Path work = Files.createTempDirectory("tegula-jlama");
        try {
            m.run(Path.of(args[0]), work);
        } finally {
            try (Stream<Path> s = Files.walk(work)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        System.out.println(m.failed.isEmpty() ? "OK: Jlama's greedy tokens equal transformers'" : "FAIL: " + m.failed);
        System.exit(m.failed.isEmpty() ? 0 : 1);
    }

    private void run(Path data, Path work) throws IOException {
        String expected = Files.readString(data.resolve("expected.json"));
        int[] prompt = ints(expected, "prompt_ids");
        int[] reference = ints(expected, "greedy_ids");
        Path source = data.resolve("tiny-llama");

        // 1. Tegula converts to bf16; Jlama's own loader reads it
        Path bf16 = work.resolve("tiny-llama-bf16");
        TensorFiles.convert(source, bf16, ConvertRules.all().floatType(ElementType.BF16), ConvertOptions.defaults());
        check(Files.readString(bf16.resolve("config.json")).contains("\"dtype\": \"bfloat16\""),
                "bf16 conversion: config.json says \"dtype\": \"bfloat16\"");
        float[] plainLogits;
        AbstractModel plain = ModelSupport.loadModel(bf16.toFile(), DType.F32, DType.BF16);
        try {
            check(plain.getWeights().getModelDType() == DType.BF16, "Jlama's loader: model type " + plain.getWeights().getModelDType());
            Greedy g = greedy(plain, prompt, reference.length);
            plainLogits = g.firstLogits;
            check(Arrays.equals(g.tokens, reference), "Jlama's loader, bf16: greedy " + Arrays.toString(g.tokens)
                    + (Arrays.equals(g.tokens, reference) ? " equal transformers'" : " != transformers' " + Arrays.toString(reference)));
        } finally {
            plain.close();
        }

        // 2. Tegula converts to bf16 with tiled weight matrices; Jlama reads it through TegulaWeightLoader
        Path tiled = work.resolve("tiny-llama-tiled");
        TensorFiles.convert(source, tiled, ConvertRules.all().floatType(ElementType.BF16)
                .layout("rank2:*.weight", "{1,0:T(8,128)(2,1)}"), ConvertOptions.defaults());
        try {
            SafeTensorSupport.loadWeights(tiled.toFile()).load("model.layers.0.self_attn.q_proj.weight").close();
            check(false, "Jlama's own loader took a tiled tensor (stored as U8)");
        } catch (RuntimeException e) {
            check(true, "Jlama's own loader refuses the tiled checkpoint: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        try (TegulaWeightLoader loader = new TegulaWeightLoader(tiled.toFile())) {
            AbstractModel model = ModelSupport.loadModel(AbstractModel.InferenceType.FULL_GENERATION, tiled.toFile(), null,
                    DType.F32, DType.BF16, Optional.empty(), Optional.empty(), Optional.empty(), dir -> loader);
            try {
                Greedy g = greedy(model, prompt, reference.length);
                check(Arrays.equals(g.firstLogits, plainLogits), "tiled through TegulaWeightLoader: the logits of the"
                        + " first step equal the plain bf16 load's, bit for bit");
                check(Arrays.equals(g.tokens, reference), "tiled through TegulaWeightLoader: greedy " + Arrays.toString(g.tokens)
                        + (Arrays.equals(g.tokens, reference) ? " equal transformers'" : " != transformers' " + Arrays.toString(reference)));
            } finally {
                model.close();   // the model first: its tensors point into the loader's arena
            }
        }
    }

    private record Greedy(int[] tokens, float[] firstLogits) {
    }

    /**
     * Greedy decoding with Jlama's public model API: the prompt in one batch, then one token at a
     * time; the end-of-sequence token is passed over, as data/generate.py does, so that every step
     * has a token to compare.
     */
    private static Greedy greedy(AbstractModel model, int[] prompt, int n) {
        int vocabulary = model.getConfig().vocabularySize;
        int[] out = new int[n];
        float[] first = null;
        try (KvBufferCache cache = new KvBufferCache(model);
             KvBufferCache.KvBuffer kv = cache.getEphemeralKvBuffer();
             AbstractTensor logits = model.makeDenseTensor(vocabulary)) {
            AbstractTensor last = model.batchForward(prompt, 0, kv);
            AbstractTensor output = last.slice(last.shape().first() - 1);
            for (int i = 0; i < n; i++) {
                if (first == null) {
                    first = model.getLogits(output);
                }
                int next = model.sample(output, 0f, 0f, logits);
                if (next == 2) {   // </s>: the best token but it
                    logits.set(Float.NEGATIVE_INFINITY, 0, 2);
                    next = argmax(logits, vocabulary);
                }
                out[i] = next;
                output.close();
                if (i + 1 < n) {
                    output = model.forward(next, prompt.length + i, kv, Optional.empty());
                }
            }
            last.close();
        }
        return new Greedy(out, first);
    }

    private static int argmax(AbstractTensor logits, int vocabulary) {
        int best = 0;
        for (int i = 1; i < vocabulary; i++) {
            if (logits.get(0, i) > logits.get(0, best)) {
                best = i;
            }
        }
        return best;
    }

    private static int[] ints(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*\\[([0-9,\\s]*)]").matcher(json);
        if (!m.find()) {
            throw new IllegalArgumentException("expected.json: no \"" + key + "\"");
        }
        return Arrays.stream(m.group(1).split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
    }

    private void check(boolean ok, String what) {
        System.out.println((ok ? "ok    " : "FAIL  ") + what);
        if (!ok) {
            failed.add(what);
        }
    }
}
