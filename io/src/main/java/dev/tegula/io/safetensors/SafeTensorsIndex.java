package dev.tegula.io.safetensors;

import static dev.tegula.io.internal.HeaderText.bad;
import static dev.tegula.io.internal.HeaderText.shorten;

import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import dev.tegula.io.internal.MappedFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SequencedMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The index of a sharded safetensors checkpoint ({@code model.safetensors.index.json}, as
 * transformers' {@code save_pretrained} and huggingface_hub write it): a JSON object whose
 * {@code weight_map} names, for each tensor, the shard file that holds it, and whose
 * {@code metadata} holds figures such as {@code total_size} (the bytes of tensor data in all
 * shards) and {@code total_parameters}. Immutable.
 *
 * <p>A shard is named by a plain file name in the index's directory: not empty, not {@code .} or
 * {@code ..}, without {@code /}, {@code \}, NUL or other control characters (so an index can never
 * point outside its directory). Metadata values are kept as compact JSON text, exactly as they
 * parse; other top-level keys of the file are not kept.
 *
 * @param metadata  each {@code metadata} key with its value as compact JSON text (e.g. {@code 180864}
 *                  or {@code "pt"}), in file order
 * @param weightMap each tensor name with the file name of its shard, in file order
 */
public record SafeTensorsIndex(Map<String, String> metadata, SequencedMap<String, String> weightMap) {
    /** The largest index file read, in bytes (the cap of a safetensors header). */
    public static final long MAX_INDEX_BYTES = SafeTensorsHeader.MAX_HEADER_BYTES;
    /** A Windows drive letter and colon, as an absolute path starts. */
    private static final Pattern DRIVE = Pattern.compile("[A-Za-z]:");
    /** The metadata key of the bytes of tensor data in all shards. */
    public static final String TOTAL_SIZE = "total_size";
    /** The metadata key of the elements of all tensors (transformers 5 writes it). */
    public static final String TOTAL_PARAMETERS = "total_parameters";

    /**
     * @throws IllegalArgumentException if the weight map is empty, a shard is not a plain file
     *                                  name, or a metadata value is not JSON text
     */
    public SafeTensorsIndex {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(weightMap, "weightMap");
        if (weightMap.isEmpty()) {
            throw new IllegalArgumentException("weightMap: is empty; an index names at least one tensor");
        }
        for (Map.Entry<String, String> e : weightMap.entrySet()) {
            String why = notAFileName(Objects.requireNonNull(e.getValue(), "weightMap value"));
            if (why != null) {
                throw new IllegalArgumentException("weightMap['" + shorten(e.getKey()) + "']: '" + shorten(e.getValue())
                        + "' " + why);
            }
        }
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            try {
                Json.parse(Objects.requireNonNull(e.getValue(), "metadata value"));
            } catch (HeaderText.Malformed m) {
                throw new IllegalArgumentException("metadata['" + shorten(e.getKey()) + "']: is not JSON text: "
                        + m.getMessage(), m);
            }
        }
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        weightMap = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(weightMap));
    }

    /**
     * {@return the index file at {@code path}, validated} The file is at most
     * {@value #MAX_INDEX_BYTES} bytes of UTF-8 JSON: an object with a {@code weight_map} object of
     * strings (at least one), each a plain file name, and an optional {@code metadata} object whose
     * {@code total_size} and {@code total_parameters}, when present, are non-negative integers. A
     * key repeated anywhere (a tensor listed twice) is an error.
     *
     * @throws TensorFormatException naming the file, the field and the value, if it is not such a file
     * @throws IOException           if it cannot be read
     */
    public static SafeTensorsIndex read(Path path) throws IOException {
        String file = path.toString();
        long size = Files.size(path);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = size > MAX_INDEX_BYTES ? null : in.readNBytes((int) MAX_INDEX_BYTES + 1);
        }
        if (bytes == null || bytes.length > MAX_INDEX_BYTES) {
            throw bad(file, "file", "is " + Math.max(size, MAX_INDEX_BYTES + 1) + " bytes, over the cap of "
                    + MAX_INDEX_BYTES + " for an index");
        }
        Object json;
        try {
            json = Json.parse(MappedFiles.decode(bytes, StandardCharsets.UTF_8, file, "file"));
        } catch (HeaderText.Malformed e) {
            throw bad(file, "file", "is not valid JSON: " + e.getMessage());
        }
        if (!(json instanceof Map<?, ?> root)) {
            throw bad(file, "file", "is not a JSON object");
        }
        Object map = root.get("weight_map");
        if (!(map instanceof Map<?, ?> m) || m.isEmpty()) {
            throw bad(file, "weight_map", map == null ? "is missing" : shorten(String.valueOf(map))
                    + " is not an object naming the shard of at least one tensor");
        }
        SequencedMap<String, String> weightMap = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String field = "weight_map['" + shorten((String) e.getKey()) + "']";
            if (!(e.getValue() instanceof String shard)) {
                throw bad(file, field, shorten(String.valueOf(e.getValue())) + " is not a string");
            }
            String why = notAFileName(shard);
            if (why != null) {
                throw bad(file, field, "'" + shorten(shard) + "' " + why);
            }
            weightMap.put((String) e.getKey(), shard);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        Object meta = root.get("metadata");
        if (meta != null && !(meta instanceof Map<?, ?>)) {
            throw bad(file, "metadata", shorten(String.valueOf(meta)) + " is not an object");
        }
        if (meta instanceof Map<?, ?> mm) {
            for (Map.Entry<?, ?> e : mm.entrySet()) {
                String key = (String) e.getKey();
                if ((key.equals(TOTAL_SIZE) || key.equals(TOTAL_PARAMETERS)) && count(e.getValue()) < 0) {
                    throw bad(file, "metadata." + key, shorten(String.valueOf(e.getValue()))
                            + " is not a non-negative integer");
                }
                metadata.put(key, Json.write(new StringBuilder(), e.getValue()).toString());
            }
        }
        return new SafeTensorsIndex(metadata, weightMap);
    }

    /** {@return {@code metadata.total_size}, the bytes of tensor data the index says its shards hold, if it has one} */
    public OptionalLong totalSize() {
        return figure(TOTAL_SIZE);
    }

    /** {@return {@code metadata.total_parameters}, the elements of all tensors, if the index has one} */
    public OptionalLong totalParameters() {
        return figure(TOTAL_PARAMETERS);
    }

    private OptionalLong figure(String key) {
        String text = metadata.get(key);
        if (text == null) {
            return OptionalLong.empty();
        }
        try {
            long n = count(Json.parse(text));
            return n < 0 ? OptionalLong.empty() : OptionalLong.of(n);
        } catch (HeaderText.Malformed e) {
            return OptionalLong.empty();
        }
    }

    /** {@return the shard file names, each once, sorted (the order of their numbers in the usual names)} */
    public List<String> shards() {
        return List.copyOf(new TreeSet<>(weightMap.values()));
    }

    /**
     * {@return the index as a file holds it: UTF-8 JSON indented by two spaces, {@code metadata}
     * first (an empty object if there is none) then {@code weight_map}, each in its order, and a
     * final newline}
     */
    public byte[] toBytes() {
        StringBuilder b = new StringBuilder("{\n  \"metadata\": {");
        String sep = "\n";
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            Json.quote(b.append(sep).append("    "), e.getKey()).append(": ").append(e.getValue());
            sep = ",\n";
        }
        b.append(metadata.isEmpty() ? "}" : "\n  }").append(",\n  \"weight_map\": {");
        sep = "\n";
        for (Map.Entry<String, String> e : weightMap.entrySet()) {
            Json.quote(Json.quote(b.append(sep).append("    "), e.getKey()).append(": "), e.getValue());
            sep = ",\n";
        }
        return b.append("\n  }\n}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@return the count a JSON value states (an integer, or a double with no fraction), or -1 if it states none} */
    private static long count(Object v) {
        return switch (v) {
            case Long n when n >= 0 -> n;
            case Double d when d >= 0 && d <= 0x1p62 && d == Math.rint(d) -> d.longValue();
            case null, default -> -1;
        };
    }

    /** {@return why {@code name} is not a plain file name in the index's directory, or null if it is one} */
    static String notAFileName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            return "is not a file name";
        }
        if (name.startsWith("/") || name.startsWith("\\") || DRIVE.matcher(name).lookingAt()) {
            return "is an absolute path, not a file name in the checkpoint's directory";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                return "is not a plain file name in the checkpoint's directory (it has a '" + c + "')";
            }
            if (c < 0x20 || c == 0x7f) {
                return "has a control character";
            }
        }
        return null;
    }

    /** {@return the names of {@code list}, shortened, the first few only} */
    static List<String> some(List<String> list) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(list.size(), 8); i++) {
            out.add(shorten(list.get(i)));
        }
        if (list.size() > 8) {
            out.add("... " + (list.size() - 8) + " more");
        }
        return out;
    }
}
