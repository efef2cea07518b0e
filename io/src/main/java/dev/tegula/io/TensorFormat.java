package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The tensor file formats Tegula reads and writes: {@link #NPY} (one {@code .npy} file),
 * {@link #NPY_DIRECTORY} (a directory of {@code .npy} files), {@link #SAFETENSORS},
 * {@link #SAFETENSORS_CHECKPOINT} (a Hugging Face checkpoint directory: safetensors shards and
 * their index), {@link #GGUF} (read only) and {@link #RAW} (the buffer of one tensor in its layout,
 * no header). Each format is a type of its own, so a {@code switch} over a format is checked for
 * every case.
 *
 * <p>A format is recognised here and nowhere else: {@link #ofSource} says how
 * {@link TensorFiles#convert} and {@link TensorFiles#read} read a file or directory (by its name,
 * else by its first bytes), {@link #ofTarget} which format convert writes to a path, and
 * {@link #named} which format a file name claims. Each format also opens its files for convert,
 * lays out its output and writes its headers (not public).
 *
 * {@snippet :
 * ConvertReport r = TensorFiles.convert(in, out, ConvertRules.all(), ConvertOptions.defaults());
 * String what = switch (r.format()) {
 *     case NpyFormat f -> "one .npy file";
 *     case NpyDirectoryFormat f -> "a directory of .npy files";
 *     case SafeTensorsFormat f -> "a safetensors file";
 *     case SafeTensorsCheckpointFormat f -> "a checkpoint directory: shards, index, config";
 *     case GgufFormat f -> "a GGUF file";          // never written: convert refuses .gguf
 *     case RawFormat f -> "a raw buffer";
 * };
 * }
 *
 * <p>Each format is one immutable instance: compare them with {@code ==}.
 */
public abstract sealed class TensorFormat permits NpyFormat, NpyDirectoryFormat, SafeTensorsFormat,
        SafeTensorsCheckpointFormat, GgufFormat, RawFormat {
    /** One {@code .npy} file: one tensor, row- or column-major. */
    public static final NpyFormat NPY = new NpyFormat();
    /** A directory of {@code .npy} files, one tensor each, named by the file's stem. */
    public static final NpyDirectoryFormat NPY_DIRECTORY = new NpyDirectoryFormat();
    /** A safetensors file: named tensors and string metadata. */
    public static final SafeTensorsFormat SAFETENSORS = new SafeTensorsFormat();
    /** A checkpoint directory as Hugging Face tools save it: safetensors shards, their index, config and tokenizer files. */
    public static final SafeTensorsCheckpointFormat SAFETENSORS_CHECKPOINT = new SafeTensorsCheckpointFormat();
    /** A GGUF file (llama.cpp's model weights); read, not written by convert. */
    public static final GgufFormat GGUF = new GgufFormat();
    /** The buffer of one tensor in its layout, every tile and its padding, without a header. */
    public static final RawFormat RAW = new RawFormat();
    /** Every format, in the order they are tried on a file's name and first bytes. */
    private static final List<TensorFormat> ALL = List.of(NPY, NPY_DIRECTORY, SAFETENSORS, SAFETENSORS_CHECKPOINT, GGUF,
            RAW);

    /** Extensions of formats convert does not write: refused rather than written as a raw buffer. */
    private static final Set<String> REFUSED = Set.of("npz", "pt", "pth", "ckpt", "h5", "hdf5", "onnx", "pb", "tflite",
            "pkl", "pickle", "json", "txt", "csv", "png", "svg", "zip", "tar", "gz", "msgpack");
    /** Bytes read from the start of a file to recognise its format. */
    private static final int HEAD = 16;

    private final String name;
    private final boolean oneTensor;
    private final boolean writable;

    TensorFormat(String name, boolean oneTensor, boolean writable) {
        this.name = name;
        this.oneTensor = oneTensor;
        this.writable = writable;
    }

    /**
     * {@return the format's short name: {@code npy}, {@code npy-dir}, {@code safetensors},
     * {@code safetensors-checkpoint}, {@code gguf} or {@code raw}}
     */
    public final String name() {
        return name;
    }

    /** {@return true if a file of this format holds exactly one tensor ({@code .npy}, raw)} */
    public final boolean holdsOneTensor() {
        return oneTensor;
    }

    /** {@return true if {@link TensorFiles#convert} writes this format (all but GGUF)} */
    public final boolean isWritable() {
        return writable;
    }

    /** {@return the format's name} */
    @Override
    public final String toString() {
        return name;
    }

    /**
     * {@return the format whose extension the file name has ({@code .npy}, {@code .safetensors},
     * {@code .safetensors.index.json} (a checkpoint's index), {@code .gguf}, any case), or null}
     * Only the name is looked at.
     */
    public static TensorFormat named(Path path) {
        Path file = path.getFileName();
        String name = file == null ? "" : file.toString().toLowerCase(Locale.ROOT);
        for (TensorFormat f : ALL) {
            if (f.claims(name)) {
                return f;
            }
        }
        return null;
    }

    /**
     * {@return the format {@link TensorFiles#convert} reads {@code source} as} In this order: a
     * directory is {@link #SAFETENSORS_CHECKPOINT} when it holds a {@code *.safetensors.index.json}
     * or {@code *.safetensors} file, else {@link #NPY_DIRECTORY}; with a {@code rawShape} the file is
     * {@link #RAW}; a file name ending {@code .npy}, {@code .safetensors},
     * {@code .safetensors.index.json} or {@code .gguf} says its format; else the file's first bytes
     * do ({@code \x93NUMPY}, {@code GGUF}, or safetensors' 8-byte little-endian header length followed
     * by <code>{</code>). A file that cannot be read is taken for safetensors, whose reader then says
     * why (for example {@link java.nio.file.NoSuchFileException}).
     *
     * @param rawShape the full shape of a raw buffer, or null when the file has a format
     * @throws TensorFormatException if the file's name and first bytes match no format: the message
     *                               says the format is unknown and names the file and its first bytes
     */
    public static TensorFormat ofSource(Path source, ArrayShape rawShape) throws TensorFormatException {
        Objects.requireNonNull(source, "source");
        if (Files.isDirectory(source)) {
            return SafeTensorsCheckpointFormat.holdsOne(source) ? SAFETENSORS_CHECKPOINT : NPY_DIRECTORY;
        }
        if (rawShape != null) {
            return RAW;
        }
        TensorFormat byName = named(source);
        if (byName != null) {
            return byName;
        }
        byte[] head = head(source);
        if (head == null) {
            return SAFETENSORS;                            // its reader reports why the file cannot be read
        }
        for (TensorFormat f : ALL) {
            if (f.startsLike(head)) {
                return f;
            }
        }
        throw unknown(source, head);
    }

    /** The error for a file whose name and first bytes match no format. */
    static TensorFormatException unknown(Path source, byte[] head) {
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (byte b : head) {
            hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b & 0xFF));
            text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
        }
        return new TensorFormatException(source + ": unknown tensor file format: "
                + (head.length == 0 ? "the file is empty" : "it starts with " + hex + " (\"" + text + "\")")
                + "; Tegula reads .npy (\\x93NUMPY), GGUF (GGUF) and safetensors (an 8-byte header length, then"
                + " '{') by their first bytes, and a raw buffer when given its shape");
    }

    /**
     * {@return the format {@link TensorFiles#convert} writes to {@code target}} An existing
     * directory is {@link #NPY_DIRECTORY}; a name ending {@code .npy} is {@link #NPY}, one ending
     * {@code .safetensors} {@link #SAFETENSORS}; any other name {@link #RAW}, except names of
     * formats convert does not write ({@code .gguf}, {@code .pt}, {@code .npz}, ...) and of an index.
     * A checkpoint is written from a checkpoint ({@link #ofTarget(Path, TensorFormat)}).
     *
     * @throws IllegalArgumentException if the name is that of a format convert does not write
     */
    public static TensorFormat ofTarget(Path target) {
        Objects.requireNonNull(target, "target");
        if (Files.isDirectory(target)) {
            return NPY_DIRECTORY;
        }
        TensorFormat byName = named(target);
        if (byName == SAFETENSORS_CHECKPOINT) {
            throw new IllegalArgumentException("target: " + target + " is the name of a checkpoint's index; convert"
                    + " writes a checkpoint to a directory: name the directory");
        }
        if (byName != null && byName.isWritable()) {
            return byName;
        }
        String ext = extension(target);
        if (byName != null || REFUSED.contains(ext)) {
            throw new IllegalArgumentException("target: convert does not write ." + ext + " files (" + target
                    + "); it writes .npy, .safetensors, a directory of .npy files, a checkpoint directory (from a"
                    + " checkpoint), or a raw buffer (any other name, e.g. .bin)");
        }
        return RAW;
    }

    /**
     * {@return the format {@link TensorFiles#convert} writes to {@code target} from an input of
     * format {@code source}} From a {@link #SAFETENSORS_CHECKPOINT}: a name ending {@code .npy} or
     * {@code .safetensors} is that file (the tensors of every shard in one file); any other target
     * is a checkpoint directory (new, or existing and empty; model directories often have dots in
     * their names, {@code Llama-3.1-8B}), unless it is an existing file or the name of a format
     * convert does not write. From any other format: {@link #ofTarget(Path)}.
     *
     * @throws IllegalArgumentException if the target cannot be written from that source
     */
    public static TensorFormat ofTarget(Path target, TensorFormat source) {
        Objects.requireNonNull(target, "target");
        if (source != SAFETENSORS_CHECKPOINT) {
            return ofTarget(target);
        }
        TensorFormat byName = named(target);
        if (byName != null || REFUSED.contains(extension(target))) {
            return ofTarget(target);
        }
        if (Files.exists(target) && !Files.isDirectory(target)) {
            throw new IllegalArgumentException("target: " + target + " is a file; convert writes a checkpoint to a"
                    + " directory (a new one, or an empty one)");
        }
        return SAFETENSORS_CHECKPOINT;
    }

    /**
     * Opens {@code path} for convert: its tensors as arrays over a mapping in {@code arena} (or,
     * for GGUF block-quantized types, tensors to dequantize) and the metadata to carry over.
     *
     * @param rawShape the full shape of a raw buffer; null for the other formats
     * @throws TensorFormatException if the file is malformed
     */
    abstract TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException;

    /**
     * {@return the shape this format stores tensor {@code name} in when the rules give it {@code to}}
     * (usually {@code to} itself; a safetensors file, for example, stores a row-major f4 tensor
     * packed two to a byte)
     *
     * @throws IllegalArgumentException naming the tensor, if the format cannot hold it in that shape
     */
    abstract ArrayShape stored(String name, ArrayShape to);

    /**
     * Lays out the output of convert: the files to write to {@code target}, each with its header
     * and the region of each tensor. Nothing is written yet.
     *
     * @param tensors the tensors to write, in order, each in the shape {@link #stored} gave it (one
     *                for a format that {@link #holdsOneTensor})
     * @param source  the input: its metadata (a format that keeps metadata may add to it) and, for a
     *                checkpoint, its shards and index
     * @throws IllegalArgumentException if the format cannot write these tensors together
     */
    abstract List<OutputFile> plan(Path target, List<OutputFile.Planned> tensors, TensorSource source);

    /** {@return true if a file of this name (in lower case) is of this format, whatever its bytes} */
    abstract boolean claims(String fileName);

    /** {@return true if {@code head}, the first bytes of a file (fewer when it is short), are this format's} */
    abstract boolean startsLike(byte[] head);

    /** {@return the first bytes of a file (fewer if it is shorter), or null if it cannot be read} */
    private static byte[] head(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            return in.readNBytes(HEAD);
        } catch (IOException e) {
            return null;   // the format's reader reports the file's problem
        }
    }

    /** {@return the lower-case extension of a file name, without the dot, or ""} */
    private static String extension(Path p) {
        Path file = p.getFileName();
        String n = file == null ? "" : file.toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }

    /** {@return the file name without its extension: a tensor's name in an {@code .npy} file or a raw buffer} */
    static String stem(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }
}
