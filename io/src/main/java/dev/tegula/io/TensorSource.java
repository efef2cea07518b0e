package dev.tegula.io;

import dev.tegula.io.internal.MappedFiles;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Shape;
import dev.tegula.ffm.Array;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The tensors of an input to {@link TensorFiles#convert}, whatever its format: the one place that
 * decides the format (a new reader, such as GGUF, adds a case to {@link #open}). Tensors are
 * read-only views of the file mapped into the caller's arena wherever the format allows; the
 * mappings hold page cache, not anonymous memory.
 *
 * @param format   the format's name ({@code npy}, {@code npy-dir}, {@code safetensors}, {@code gguf}, {@code raw})
 * @param tensors  the tensors in file order
 * @param metadata string metadata kept when the output can hold it (safetensors {@code __metadata__})
 */
record TensorSource(String format, List<Named> tensors, Map<String, String> metadata) {
    /** Metadata key prefix under which a safetensors file written by convert records a layout it cannot express. */
    static final String SHAPE_KEY = "tegula.shape.";

    /**
     * A tensor and its name: an array over the file, or (GGUF block-quantized types) the quantized
     * tensor, whose values are read by dequantizing.
     *
     * @param array     the tensor as an array over the mapping; null when {@code quantized} is set
     * @param quantized a block-quantized GGUF tensor; null for every other tensor
     */
    record Named(String name, Array array, GgufTensor quantized) {
        Named(String name, Array array) {
            this(name, Objects.requireNonNull(array, "array"), null);
        }

        /** {@return the tensor's shape: the array's, or f32 of the dimensions for a quantized tensor (its values are f32)} */
        ArrayShape shape() {
            return array != null ? array.shape() : ArrayShape.of(ElementType.F32, quantized.dimensions());
        }
    }

    TensorSource {
        tensors = List.copyOf(tensors);
        metadata = Map.copyOf(metadata);
    }

    /**
     * Opens {@code path}: a directory of {@code .npy} files, a file ending {@code .npy}, a raw buffer
     * when {@code rawShape} is given, a file ending {@code .gguf}, else a safetensors file.
     *
     * @param rawShape the full shape of a raw buffer (its layout says how the bytes lie); null for other formats
     * @throws TensorFormatException if the file is malformed, or a raw file's size is not the shape's buffer size
     */
    static TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        Objects.requireNonNull(path, "path");
        if (Files.isDirectory(path)) {
            return npyDirectory(path, arena);
        }
        if (rawShape != null) {
            return raw(path, rawShape, arena);
        }
        if (TensorFiles.isNpy(path)) {
            return new TensorSource("npy", List.of(new Named(stem(path), Npy.read(path, arena))), Map.of());
        }
        if (TensorFiles.isGguf(path)) {
            return gguf(path, arena);
        }
        return safetensors(path, arena);
    }

    /** Every tensor of a GGUF file: plain types as arrays over the mapping, block-quantized ones to dequantize. */
    private static TensorSource gguf(Path path, Arena arena) throws IOException {
        List<Named> out = new ArrayList<>();
        for (GgufTensor t : Gguf.open(path, arena).tensors()) {
            out.add(t.type().elementType() != null ? new Named(t.name(), t.array()) : new Named(t.name(), null, t));
        }
        return new TensorSource("gguf", out, Map.of());
    }

    private static TensorSource raw(Path path, ArrayShape shape, Arena arena) throws IOException {
        MemorySegment file = MappedFiles.map(path, arena);
        if (file.byteSize() != shape.bufferSize()) {
            throw new TensorFormatException(path + ": a raw " + shape + " is " + shape.bufferSize() + " bytes, the file has "
                    + file.byteSize());
        }
        return new TensorSource("raw", List.of(new Named(stem(path), Array.wrap(file, shape).asReadOnly())), Map.of());
    }

    private static TensorSource npyDirectory(Path dir, Arena arena) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> TensorFiles.isNpy(p) && Files.isRegularFile(p)).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new TensorFormatException(dir + ": is a directory with no .npy file");
        }
        List<Named> out = new ArrayList<>();
        for (Path p : files) {
            out.add(new Named(stem(p), Npy.read(p, arena)));
        }
        return new TensorSource("npy-dir", out, Map.of());
    }

    private static TensorSource safetensors(Path path, Arena arena) throws IOException {
        SafeTensorsHeader h = SafeTensors.readHeader(path);
        Map<String, Array> arrays = SafeTensors.read(path, arena);
        Map<String, String> meta = new LinkedHashMap<>();
        List<Named> out = new ArrayList<>();
        for (Map.Entry<String, String> e : h.metadata().entrySet()) {
            if (!e.getKey().startsWith(SHAPE_KEY)) {
                meta.put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, Array> e : arrays.entrySet()) {
            String text = h.metadata().get(SHAPE_KEY + e.getKey());
            Array a = e.getValue();
            if (text != null) {
                a = laidOut(path, e.getKey(), a, text);
            }
            out.add(new Named(e.getKey(), a));
        }
        return new TensorSource("safetensors", out, meta);
    }

    /** A U8 tensor whose metadata gives the shape and layout its bytes are in. */
    private static Array laidOut(Path path, String name, Array bytes, String text) throws TensorFormatException {
        String field = "__metadata__." + SHAPE_KEY + name;
        ArrayShape shape;
        try {
            if (!(Shape.parse(text) instanceof ArrayShape s)) {
                throw new TensorFormatException(path + ": " + field + " is not an array shape: " + text);
            }
            shape = s;
        } catch (IllegalArgumentException e) {
            throw new TensorFormatException(path + ": " + field + " is not a valid shape: " + e.getMessage(), e);
        }
        long size = bytes.segment().byteSize();
        if (bytes.shape().elementType() != dev.tegula.core.ElementType.U8 || bytes.shape().rank() != 1
                || size != shape.bufferSize()) {
            throw new TensorFormatException(path + ": " + field + " says " + shape + " (" + shape.bufferSize()
                    + " bytes), but tensor '" + name + "' is " + bytes.shape().toStringWithoutLayout());
        }
        return Array.wrap(bytes.segment(), shape).asReadOnly();
    }

    private static String stem(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** {@return the lower-case extension of a file name, without the dot, or ""} */
    static String extension(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }
}
