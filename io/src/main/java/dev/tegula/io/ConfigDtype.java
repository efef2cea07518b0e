package dev.tegula.io;

import dev.tegula.core.ElementType;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The type a Hugging Face {@code config.json} states for the weights ({@code torch_dtype} in
 * older transformers, {@code dtype} in newer), kept true when a checkpoint conversion changes the
 * tensors' type: loaders take the model's type from it, so a {@code bf16} conversion whose config
 * still said {@code float32} would be loaded as {@code float32}. Only those values change; every
 * other byte of the file is kept.
 */
final class ConfigDtype {
    /** The file a Hugging Face checkpoint describes its model in. */
    static final String CONFIG = "config.json";
    /** The keys that state the weights' type, at any depth (a multimodal model's {@code text_config} has its own). */
    private static final Set<String> KEYS = Set.of("torch_dtype", "dtype");
    /** PyTorch's names of the floating types a checkpoint's config may state. */
    private static final Map<ElementType, String> NAMES = Map.of(ElementType.F16, "float16", ElementType.BF16, "bfloat16",
            ElementType.F32, "float32", ElementType.F64, "float64");

    private ConfigDtype() {
    }

    /**
     * {@return PyTorch's name of the floating type the written tensors have, when the conversion
     * changes some tensor's type and every written floating-point tensor has that one type of
     * {@link #NAMES}; else null (the config is copied as it is)}
     */
    static String after(List<OutputFile.Planned> planned) {
        boolean changed = false;
        Set<ElementType> floating = EnumSet.noneOf(ElementType.class);
        for (OutputFile.Planned p : planned) {
            ElementType to = p.to().elementType();
            changed |= to != p.source().shape().elementType();
            if (to.isFloating()) {
                floating.add(to);
            }
        }
        return changed && floating.size() == 1 ? NAMES.get(floating.iterator().next()) : null;
    }

    /**
     * {@return the bytes of the config file {@code config} with each {@code torch_dtype} and
     * {@code dtype} value that names a floating type replaced by {@code name}, or null when nothing
     * changes (no such value, or every one already says {@code name}) or the file is not UTF-8 JSON,
     * which is then copied as it is}
     */
    static byte[] restated(Path config, String name) throws IOException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(config)))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        String edited;
        try {
            edited = Json.replaceStringValues(text, KEYS, v -> NAMES.containsValue(v) ? name : v);
        } catch (HeaderText.Malformed e) {
            return null;
        }
        return edited.equals(text) ? null : edited.getBytes(StandardCharsets.UTF_8);
    }
}
