package dev.tegula.io.safetensors;

import static dev.tegula.io.internal.HeaderText.bad;
import static dev.tegula.io.internal.HeaderText.shorten;

import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A safetensors checkpoint as Hugging Face tools save it: a directory holding the model's tensors
 * in one file ({@code model.safetensors}) or in shards ({@code model-00001-of-00003.safetensors},
 * ...) that an index lists ({@code model.safetensors.index.json}, a {@link SafeTensorsIndex}),
 * next to the files that describe the model ({@code config.json}, {@code generation_config.json},
 * tokenizer files). Only headers are read: each file is mapped while its header is read. Immutable
 * and thread-safe; it describes the files as they were when it was opened.
 *
 * {@snippet :
 * SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(Path.of("Llama-3.2-1B"));
 * String shard = c.shardOf("lm_head.weight");           // "model-00002-of-00002.safetensors"
 * try (Arena arena = Arena.ofConfined()) {
 *     Array w = SafeTensors.read(c.directory().resolve(shard), "lm_head.weight", arena);
 * }
 * }
 *
 * <p><b>Which files.</b> Opened from the index file, or from the directory: there, its one
 * {@code *.safetensors.index.json} file (several are refused, naming them), else its one
 * {@code *.safetensors} file (a single-file checkpoint). Every file is taken from the directory
 * itself, never from a subdirectory.
 *
 * <p><b>Validation.</b> The index as {@link SafeTensorsIndex#read} checks it (every shard a plain
 * file name in the directory), every shard's header as {@link SafeTensorsHeader} checks it, and
 * the two against each other: each shard the index names is a file of the directory, each tensor
 * of the weight map is in the shard it names, and each tensor of a shard is in the weight map under
 * that shard (so no tensor is in two shards). {@code metadata.total_size} is not checked against the
 * shards: tools compute it differently (some count shared storage), and loaders do not use it.
 * Failures throw {@link TensorFormatException} naming the file, the field and the value.
 */
public final class SafeTensorsCheckpoint {
    /** How the name of an index file ends. */
    public static final String INDEX_SUFFIX = ".safetensors.index.json";
    /** How the name of a safetensors file ends. */
    private static final String FILE_SUFFIX = ".safetensors";
    /** Extensions of weight files that {@link #otherFiles()} leaves out. */
    private static final Set<String> WEIGHTS = Set.of("safetensors", "bin", "pt", "pth", "ckpt", "h5", "msgpack", "gguf",
            "onnx", "npz", "npy");

    private final Path directory;
    private final Path indexFile;
    private final SafeTensorsIndex index;
    private final SequencedMap<String, SafeTensorsHeader> shards;
    private final Map<String, String> shardOf;
    private final List<Path> otherFiles;

    private SafeTensorsCheckpoint(Path directory, Path indexFile, SafeTensorsIndex index,
                                  SequencedMap<String, SafeTensorsHeader> shards, Map<String, String> shardOf,
                                  List<Path> otherFiles) {
        this.directory = directory;
        this.indexFile = indexFile;
        this.index = index;
        this.shards = Collections.unmodifiableSequencedMap(shards);
        this.shardOf = Map.copyOf(shardOf);
        this.otherFiles = List.copyOf(otherFiles);
    }

    /**
     * {@return the checkpoint of the directory {@code path}, or of the index file {@code path}, validated}
     *
     * @throws TensorFormatException if there is no checkpoint there (no index and not exactly one
     *                               safetensors file, several indexes), or a file or the files
     *                               together break the format
     * @throws IOException           if a file cannot be read
     */
    public static SafeTensorsCheckpoint open(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        Path dir;
        Path indexFile = null;
        String single = null;
        if (Files.isDirectory(path)) {
            dir = path;
            List<String> names = regularFiles(dir);
            List<String> indexes = names.stream().filter(n -> lower(n).endsWith(INDEX_SUFFIX)).toList();
            if (indexes.size() > 1) {
                throw new TensorFormatException(path + ": holds several indexes " + SafeTensorsIndex.some(indexes)
                        + "; name the one to read");
            }
            if (indexes.size() == 1) {
                indexFile = dir.resolve(indexes.getFirst());
            } else {
                List<String> files = names.stream().filter(n -> lower(n).endsWith(FILE_SUFFIX)).toList();
                if (files.size() != 1) {
                    throw new TensorFormatException(path + (files.isEmpty()
                            ? ": holds no .safetensors file and no *" + INDEX_SUFFIX + " index"
                            : ": holds " + files.size() + " .safetensors files " + SafeTensorsIndex.some(files)
                            + " and no *" + INDEX_SUFFIX + " index naming the tensors of each; read them one by one"));
                }
                single = files.getFirst();
            }
        } else {
            Path name = path.getFileName();
            if (name == null || !lower(name.toString()).endsWith(INDEX_SUFFIX)) {
                throw new TensorFormatException(path + ": is neither a directory nor a *" + INDEX_SUFFIX + " file");
            }
            if (!Files.exists(path)) {
                throw new NoSuchFileException(path.toString());
            }
            indexFile = path;
            dir = path.getParent() != null ? path.getParent() : Path.of("");
        }
        SequencedMap<String, SafeTensorsHeader> shards = new LinkedHashMap<>();
        Map<String, String> shardOf = new HashMap<>();
        SafeTensorsIndex index = null;
        if (single != null) {
            SafeTensorsHeader h = SafeTensors.readHeader(dir.resolve(single));
            shards.put(single, h);
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                shardOf.put(e.name(), single);
            }
        } else {
            index = SafeTensorsIndex.read(indexFile);
            readShards(dir, indexFile, index, shards, shardOf);
        }
        Set<String> skip = Set.of(indexFile == null ? "" : indexFile.getFileName().toString());
        List<Path> others = regularFiles(dir).stream()
                .filter(n -> !skip.contains(n) && !shards.containsKey(n) && !n.startsWith(".") && !weights(n))
                .map(dir::resolve).toList();
        return new SafeTensorsCheckpoint(dir, indexFile, index, shards, shardOf, others);
    }

    /** Reads the header of each shard the index names and checks the two agree, tensor by tensor. */
    private static void readShards(Path dir, Path indexFile, SafeTensorsIndex index,
                                   SequencedMap<String, SafeTensorsHeader> shards, Map<String, String> shardOf)
            throws IOException {
        String file = indexFile.toString();
        Map<String, String> firstTensor = new HashMap<>();
        index.weightMap().forEach((tensor, shard) -> firstTensor.putIfAbsent(shard, tensor));
        for (String shard : index.shards()) {
            Path p = dir.resolve(shard);
            if (!Files.isRegularFile(p)) {
                throw bad(file, "weight_map['" + shorten(firstTensor.get(shard)) + "']", "names shard '" + shorten(shard)
                        + "', which is not a file in " + (dir.toString().isEmpty() ? "." : dir));
            }
            SafeTensorsHeader h = SafeTensors.readHeader(p);
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                String listed = index.weightMap().get(e.name());
                if (listed == null) {
                    throw bad(p.toString(), "tensor '" + shorten(e.name()) + "'", "is not in the weight_map of "
                            + indexFile.getFileName());
                }
                if (!listed.equals(shard)) {
                    throw bad(p.toString(), "tensor '" + shorten(e.name()) + "'", "is in shard '" + shorten(shard)
                            + "', but the weight_map of " + indexFile.getFileName() + " names '" + shorten(listed)
                            + "' (a tensor is in one shard only)");
                }
                shardOf.put(e.name(), shard);
            }
            shards.put(shard, h);
        }
        for (Map.Entry<String, String> e : index.weightMap().entrySet()) {
            if (!shardOf.containsKey(e.getKey())) {
                throw bad(file, "weight_map['" + shorten(e.getKey()) + "']", "names shard '" + shorten(e.getValue())
                        + "', which has no tensor '" + shorten(e.getKey()) + "'");
            }
        }
    }

    /** {@return the directory the checkpoint's files are in ({@code ""} for the current one)} */
    public Path directory() {
        return directory;
    }

    /** {@return the index file, or null for a single-file checkpoint} */
    public Path indexFile() {
        return indexFile;
    }

    /** {@return the index, or null for a single-file checkpoint} */
    public SafeTensorsIndex index() {
        return index;
    }

    /** {@return the header of each tensor file by its file name: the shards sorted by name, or the one file} */
    public SequencedMap<String, SafeTensorsHeader> shards() {
        return shards;
    }

    /** {@return the file name of the shard holding tensor {@code name}, or null if no shard holds it} */
    public String shardOf(String name) {
        return shardOf.get(name);
    }

    /** {@return how many tensors the shards hold together} */
    public int tensorCount() {
        return shardOf.size();
    }

    /** {@return the bytes of tensor data in all shards (headers not counted)} */
    public long tensorBytes() {
        long n = 0;
        for (SafeTensorsHeader h : shards.values()) {
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                n = Math.addExact(n, e.byteSize());
            }
        }
        return n;
    }

    /**
     * {@return the other regular files of the directory, by name: what describes the model
     * (config, generation config, tokenizer, README)} Left out: the shards and the index, hidden
     * files, subdirectories, and other weight files ({@code .safetensors}, {@code .bin},
     * {@code .pt}, {@code .pth}, {@code .ckpt}, {@code .h5}, {@code .msgpack}, {@code .gguf},
     * {@code .onnx}, {@code .npz}, {@code .npy}, and their {@code *.index.json} indexes).
     */
    public List<Path> otherFiles() {
        return otherFiles;
    }

    private static boolean weights(String name) {
        String n = lower(name);
        if (n.endsWith(".index.json")) {
            n = n.substring(0, n.length() - ".index.json".length());
        }
        int dot = n.lastIndexOf('.');
        return dot >= 0 && WEIGHTS.contains(n.substring(dot + 1));
    }

    /** {@return the names of the regular files (links followed) directly in {@code dir}, sorted} */
    private static List<String> regularFiles(Path dir) throws IOException {
        Path listed = dir.toString().isEmpty() ? Path.of(".") : dir;
        try (Stream<Path> s = Files.list(listed)) {
            return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
