package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tensor files read straight into a chosen layout: the file is mapped, and the relayout engine
 * reads the tensor from the mapping and writes it in the target layout (for example a tiled
 * device layout) into a new array, in one pass. The mapping is released before the call returns.
 * {@link #convert} goes file to file instead, for whole checkpoints and tensors larger than memory.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     Layout tpu = Layout.parse("{1,0:T(8,128)(2,1)}");
 *     Array w = TensorFiles.readAs(Path.of("model.safetensors"), "w", tpu, arena);
 * }
 * }
 */
public final class TensorFiles {
    private TensorFiles() {
    }

    /**
     * {@return the tensor {@code name} of a safetensors or GGUF file or of a checkpoint directory
     * (or the array of an {@code .npy} file, {@code name} ignored) as a new array in {@code layout},
     * allocated from {@code arena}} The file is read in the format {@link TensorFormat#ofSource}
     * gives it, and the tensor as {@link #read(Path, String, Arena)} reads it (a GGUF
     * block-quantized tensor is dequantized to f32 in the same pass; see {@link Gguf}). A layout in a
     * device's memory space ({@code S(n)} of a {@link dev.tegula.ffm.MemorySpaceProvider} that is not
     * host memory) gives a device array: the tensor is laid out straight into a
     * {@linkplain Array#map mapping} of its buffer, with no host copy of the whole tensor beside it
     * where the device shares memory with the host.
     *
     * @param path   the file; or a checkpoint's directory or index file
     * @param name   the tensor's name in a safetensors or GGUF file or a checkpoint; may be null for {@code .npy}
     * @param layout the target layout (its rank must match the tensor's)
     * @throws dev.tegula.io.TensorFormatException if the file is malformed or has no such tensor
     * @throws IllegalArgumentException                if the layout does not fit the tensor's shape
     */
    public static Array readAs(Path path, String name, Layout layout, Arena arena) throws IOException {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(arena, "arena");
        TensorFormat format = TensorFormat.ofSource(path, null);
        if (format == TensorFormat.GGUF) {
            return Gguf.readAs(path, name, layout, arena);
        }
        try (Arena mapping = Arena.ofConfined()) {
            Array source = read(format, path, name, mapping);
            ArrayShape target = source.shape().withLayout(layout);
            return into(source, Array.allocate(arena, target));
        }
    }

    /**
     * {@return the tensor {@code name} as a new array of {@code target} (the tensor's dimensions, any
     * element type and layout) from {@code arena}} Read, converted and laid out in one pass; a GGUF
     * block-quantized tensor is dequantized in the same pass.
     *
     * @throws dev.tegula.io.TensorFormatException if the file is malformed or has no such tensor
     * @throws IllegalArgumentException                if the dimensions differ or the types cannot be converted
     */
    public static Array readAs(Path path, String name, ArrayShape target, Arena arena) throws IOException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(arena, "arena");
        TensorFormat format = TensorFormat.ofSource(path, null);
        if (format == TensorFormat.GGUF) {
            return Gguf.readAs(path, name, target, arena);
        }
        try (Arena mapping = Arena.ofConfined()) {
            Array source = read(format, path, name, mapping);
            if (!java.util.Arrays.equals(source.shape().dimensions(), target.dimensions())) {
                throw new IllegalArgumentException("target: dimensions of " + target + " differ from the tensor's "
                        + source.shape());
            }
            return into(source, Array.allocate(arena, target));
        }
    }

    /**
     * {@return every tensor of {@code source} that {@code rules} select, each read into a new array
     * of the shape the rules give it, allocated from {@code arena}} The input is any that
     * {@link #convert} reads (a safetensors, NumPy or GGUF file, a checkpoint, a directory of NumPy
     * files, or a raw buffer with {@link ConvertOptions#rawShape()}), opened and parsed once. Each
     * tensor is read, converted and laid out in one pass from the file's mapping, as
     * {@link #readAs(Path, String, ArrayShape, Arena)} does: a layout in a device's memory space
     * ({@code S(n)}) gives a device array, laid out straight into a write mapping of its buffer, and a
     * GGUF block-quantized tensor is dequantized into it. Of {@code options}, only the raw shape and
     * {@link ConvertOptions#skipUnsupported()} apply.
     *
     * <p>On an exception, the arrays already loaded stay allocated in {@code arena} until it closes.
     * The calling thread does the work; {@code arena} must allow it.
     *
     * @throws TensorFormatException      if the input is malformed or has no tensor the rules select
     * @throws UnsupportedTensorException if a selected tensor is of a type Tegula does not read and
     *                                    {@code skipUnsupported} is false
     * @throws IllegalArgumentException   if a rule does not fit a tensor (and {@code skipUnsupported}
     *                                    is false), or a tensor is too large for its device
     * @throws IOException                if a file cannot be read
     */
    public static LoadReport load(Path source, ConvertRules rules, ConvertOptions options, Arena arena)
            throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        TensorFormat format = TensorFormat.ofSource(source, options.rawShape());
        try (Arena mapping = Arena.ofConfined()) {
            TensorSource in = format.open(source, options.rawShape(), mapping);
            List<TensorSource.Named> chosen = Converter.chosen(source, in, rules);
            Map<String, Array> loaded = new LinkedHashMap<>();
            List<ConvertReport.Skipped> skipped = new ArrayList<>();
            for (TensorSource.Named t : chosen) {
                ArrayShape target;
                try {
                    target = Converter.target(t, rules);
                } catch (IllegalArgumentException e) {
                    if (!options.skipUnsupported()) {
                        throw e;
                    }
                    skipped.add(new ConvertReport.Skipped(t.name(), e.getMessage()));
                    continue;
                }
                Array out = Array.allocate(arena, target);
                if (t.quantized() != null) {
                    try (MappedArray m = out.map(MapMode.WRITE)) {
                        t.quantized().readInto(m.array(), null, 1);
                    }
                } else {
                    into(t.array(), out);
                }
                loaded.put(t.name(), out);
            }
            if (loaded.isEmpty()) {
                throw new IllegalArgumentException(source + ": no tensor can be read as the rules ask, so none is: "
                        + skipped.getFirst().reason());
            }
            return new LoadReport(loaded, skipped, rules.unused(in.tensors(), chosen));
        }
    }

    /**
     * Relayouts the file's tensor into {@code out} in one pass: straight into its memory, or for device
     * memory into a mapping of its buffer ({@link MapMode#WRITE}: nothing is read from the device, and
     * there is no host copy of the whole tensor beside the file's mapping where the device shares
     * memory with the host).
     */
    private static Array into(Array source, Array out) {
        try (MappedArray m = out.map(MapMode.WRITE)) {
            Relayout.plan(source.shape(), out.shape()).execute(source.segment(), m.array().segment());
        }
        return out;
    }

    /**
     * {@return the tensor as the file holds it, mapped into {@code arena} where possible} A
     * safetensors tensor that {@link #convert} wrote as {@code U8} bytes (tiled, permuted, packed
     * {@code E(n)}, or of a type the format has no dtype for) comes back in the full shape convert
     * recorded for it ({@code tegula.shape.NAME} in the file's metadata); in a checkpoint (its
     * directory or index file) the tensor is read from the shard that holds it. A GGUF
     * block-quantized tensor is dequantized into a new f32 row-major array from {@code arena}.
     *
     * @param path  the file; or a checkpoint's directory or index file
     * @param name  the tensor's name; may be null for {@code .npy}
     * @throws dev.tegula.io.TensorFormatException if the file is malformed, has no such tensor, or
     *                                             the shape recorded for it does not fit its bytes
     * @throws IllegalArgumentException                if {@code name} is null for a file of several tensors,
     *                                                 or {@code path} is a directory of {@code .npy} files
     */
    public static Array read(Path path, String name, Arena arena) throws IOException {
        return read(TensorFormat.ofSource(path, null), path, name, arena);
    }

    /**
     * {@return the shape {@link #read(Path, String, Arena)} gives tensor {@code entry} of the
     * safetensors file {@code path}, whose parsed header is {@code header}, found from the header
     * alone} That is the full shape convert recorded for it ({@code tegula.shape.NAME} in the
     * metadata) if any, else the shape as stored. Nothing is read from the file, so a caller that
     * has read a header once can give every tensor's shape from it.
     *
     * @param path   the file, named in messages only
     * @param header its header ({@link SafeTensors#readHeader})
     * @param entry  a tensor of {@code header}
     * @throws dev.tegula.io.TensorFormatException if the shape recorded for it does not parse or does
     *                                             not fit its bytes
     */
    public static ArrayShape shapeOf(Path path, SafeTensorsHeader header, SafeTensorsHeader.Entry entry)
            throws TensorFormatException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(entry, "entry");
        return SafeTensorsFormat.shapeOf(path, header, entry);
    }

    private static Array read(TensorFormat format, Path path, String name, Arena arena) throws IOException {
        return switch (format) {
            case NpyFormat f -> Npy.read(path, arena);
            case GgufFormat f -> Gguf.read(path, needName(name, "a GGUF file"), arena);
            case SafeTensorsFormat f -> SafeTensorsFormat.tensor(path, needName(name, "a safetensors file"), arena);
            case SafeTensorsCheckpointFormat f -> SafeTensorsCheckpointFormat.tensor(path, needName(name, "a checkpoint"),
                    arena);
            case NpyDirectoryFormat f -> throw new IllegalArgumentException("path: " + path + " is a directory; read one"
                    + " of its .npy files");
            case RawFormat f -> throw new AssertionError(f);   // only given a raw shape
        };
    }

    private static String needName(String name, String file) {
        if (name == null) {
            throw new IllegalArgumentException("name: " + file + " needs a tensor name");
        }
        return name;
    }

    /**
     * Converts the tensors of {@code source} into {@code target}, file to file, with memory bounded
     * whatever the tensors' sizes: each tensor is read from a mapping of the source and written
     * straight into a read-write mapping of the output, window by window over the destination
     * ({@link ConvertOptions#memoryBytes()} sizes the windows); no anonymous buffer of a tensor's
     * size is allocated, so files larger than memory convert (the page cache is the kernel's).
     *
     * <p><b>Input</b>, in the format {@link TensorFormat#ofSource} gives it: a checkpoint
     * directory as Hugging Face tools save it, or its {@code *.safetensors.index.json} (the tensors
     * of every shard; see {@link dev.tegula.io.safetensors.SafeTensorsCheckpoint}), a directory of
     * {@code .npy} files (one tensor each, named by the file's stem), an {@code .npy} file, a raw
     * buffer when {@link ConvertOptions#rawShape()} gives its full shape, a GGUF file (plain
     * tensors copied from the mapping, block-quantized ones dequantized straight into the output in
     * one pass; a type Tegula does not dequantize is refused by name before anything is written;
     * GGUF metadata is not carried over), or a safetensors file (every tensor, its
     * {@code __metadata__} kept).
     *
     * <p><b>Output</b>, in the format {@link TensorFormat#ofTarget(Path, TensorFormat)} gives
     * {@code target} (the report says which): from a checkpoint, a new (or empty) directory gets a
     * checkpoint: each shard converted under its own name, a new index whose {@code weight_map} and
     * {@code total_size} are those of what was written, and the other files of the input's
     * directory (config, tokenizer) copied unchanged ({@link SafeTensorsCheckpointFormat}); an
     * existing directory gets one {@code NAME.npy} per tensor;
     * {@code .npy} one NumPy file (one tensor, row- or column-major); {@code .safetensors} every
     * tensor, row-major ones as the format stores them, others (tiled, permuted, padded) as
     * {@code U8} tensors of their buffer with their full shape text in {@code __metadata__} under
     * {@code tegula.shape.NAME}, which this method and {@link #read} read back; a few extensions of other formats ({@code .gguf}, {@code .pt}, {@code .npz}, ...) are
     * refused; any other name gets the raw buffer of one tensor in its layout (tiles and padding
     * included, {@code bufferSize} bytes).
     *
     * <p><b>Rules</b> choose the tensors written and their shapes ({@link ConvertRules}). A tensor
     * that cannot be written as they ask fails the conversion, or, with
     * {@link ConvertOptions#skipUnsupported()}, is left out and named in the report; a rule that
     * decides nothing is named in the report too.
     *
     * <p><b>Safety</b>: the output is written to a temporary file next to it, reserved on disk
     * first where the OS allows ({@code fallocate}), forced and renamed over the target only when
     * complete (a directory of {@code .npy} files: each file so, all renamed at the end; a
     * checkpoint: a temporary directory, renamed to the target when every file in it is complete).
     * Any failure, or the JVM shutting down (Ctrl-C), deletes the temporaries and leaves an existing
     * target as it was, and no new directory. An output larger than the free space of the target's
     * file system is refused before anything is written. While it writes, the conversion holds a
     * lock (a lock file beside each temporary) that says it lives. A conversion killed outright
     * ({@code kill -9}, a crash) cannot delete its temporary; the next conversion to the same output
     * file or directory removes each temporary of it whose writer holds no lock (not one whose
     * writer still runs) before it writes, and names them in
     * {@link ConvertReport#staleTemporaries()}. Errors name the output, never its temporary.
     *
     * <p>Returns when the output is complete. When {@link ConvertOptions#parallelism()} is over 1,
     * large windows are shared with the common fork-join pool and tensors under 2 MiB are written
     * several at once on it, and the files of a checkpoint are written several at once (as many as
     * the threads allow and the memory budget holds at 64 MiB each, the budget shared between
     * them); the progress listener is called one call at a time (see {@link ConvertProgress}).
     *
     * @return what was written: per tensor its shapes, windows and source passes
     * @throws TensorFormatException    if the source is malformed or has no tensor the rules select
     * @throws UnsupportedTensorException if a tensor the rules select is of a type Tegula does not read
     *                                  (a GGUF block type it does not dequantize) and
     *                                  {@link ConvertOptions#skipUnsupported()} is false
     * @throws IllegalArgumentException if a rule does not fit a tensor, the output format cannot hold
     *                                  a tensor (a tiled layout in {@code .npy}, two tensors in a raw
     *                                  file), or the extension names a format convert does not write
     * @throws IOException              if a file cannot be read or written, the disk has no room, or
     *                                  a checkpoint's target exists and is a file or a directory that
     *                                  is not empty
     */
    public static ConvertReport convert(Path source, Path target, ConvertRules rules, ConvertOptions options)
            throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(options, "options");
        return Converter.convert(source, target, rules, options);
    }
}
