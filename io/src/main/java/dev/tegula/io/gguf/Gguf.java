package dev.tegula.io.gguf;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * GGUF files (llama.cpp's format for model weights, versions 2 and 3, little-endian): read from a
 * read-only mapping without a copy, block-quantized tensors dequantized into any element type and
 * layout in one pass, and written.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     GgufFile f = Gguf.open(Path.of("model.gguf"), arena);
 *     String arch = f.header().metadata().get("general.architecture").asString();
 *     Array norm = f.tensor("output_norm.weight").array();          // F32: a view of the mapping
 *     ArrayShape tpu = ArrayShape.parse("bf16[4096,4096]{0,1:T(8,128)(2,1)}");
 *     Array w = f.tensor("blk.0.attn_q.weight").read(tpu, arena);   // Q4_K -> tiled bf16, one pass
 * }
 * }
 *
 * <h2>Dimensions</h2>
 * GGUF lists a tensor's dimensions fastest-varying first ({@code ne[0]} is the length of a row).
 * Tegula's dimensions are {@code ne} reversed, over row-major data, so a tensor has the same shape
 * as in gguf-py's reader, NumPy and PyTorch: a matrix stored with {@code ne = [4096, 11008]}
 * (11008 rows of 4096) is {@code f32[11008,4096]{1,0}} in Tegula.
 *
 * <h2>Types</h2>
 * F32, F16, BF16, F64, I8, I16, I32 and I64 tensors are read-only row-major {@link Array}s over the
 * mapping. Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K and Q6_K tensors are dequantized
 * (bit-identical in f32 to llama.cpp's {@code gguf.quants}); the other types of {@link GgufType} are
 * listed with their shape and bytes, and refused by name when asked to dequantize.
 *
 * <h2>Errors</h2>
 * A file that breaks the format is refused with a {@link TensorFormatException} naming the file,
 * the field and the value (see {@link GgufHeader} for what is checked); no count or length from the
 * file is used before it has been checked against the file's size.
 */
public final class Gguf {
    private Gguf() {
    }

    /**
     * {@return the GGUF file at {@code path} mapped read-only into {@code arena}, its header validated}
     *
     * @throws TensorFormatException if the file is not a valid GGUF file
     * @throws IOException           if the file cannot be read
     */
    public static GgufFile open(Path path, Arena arena) throws IOException {
        Objects.requireNonNull(arena, "arena");
        MemorySegment file = MappedFiles.map(path, arena);
        return new GgufFile(GgufHeader.parse(file, path.toString()), file, path.toString());
    }

    /**
     * {@return the validated header of the GGUF file at {@code path}} (mapped only while it is read)
     *
     * @throws TensorFormatException if the file is not a valid GGUF file
     */
    public static GgufHeader readHeader(Path path) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return GgufHeader.parse(MappedFiles.map(path, arena), path.toString());
        }
    }

    /**
     * {@return the tensor {@code name}: a plain-typed tensor as a read-only row-major array over the
     * file mapped into {@code arena}; a block-quantized one dequantized into a new f32 row-major array
     * from {@code arena}}
     *
     * @throws TensorFormatException         if the file is invalid or has no such tensor
     * @throws UnsupportedOperationException if the tensor's type is one Tegula does not dequantize
     */
    public static Array read(Path path, String name, Arena arena) throws IOException {
        GgufTensor t = open(path, arena).tensor(name);
        if (t.type().elementType() != null) {
            return t.array();
        }
        return t.read(ArrayShape.of(ElementType.F32, t.dimensions()), arena);
    }

    /**
     * {@return the tensor {@code name} as a new array of {@code target} (its dimensions, any element
     * type and layout) from {@code arena}} The file is mapped only during the call, and the tensor is
     * dequantized, converted and laid out in one pass.
     *
     * @throws TensorFormatException         if the file is invalid or has no such tensor
     * @throws IllegalArgumentException      if {@code target}'s dimensions differ from the tensor's
     * @throws UnsupportedOperationException if the tensor's type is one Tegula does not dequantize
     */
    public static Array readAs(Path path, String name, ArrayShape target, Arena arena) throws IOException {
        return readAs(path, name, target, arena, null, 1);
    }

    /**
     * {@return the tensor {@code name} as a new array in {@code layout} from {@code arena}: a plain
     * tensor keeps its element type, a block-quantized one becomes f32} See
     * {@link #readAs(Path, String, ArrayShape, Arena)}.
     */
    public static Array readAs(Path path, String name, Layout layout, Arena arena) throws IOException {
        Objects.requireNonNull(layout, "layout");
        GgufTensorInfo t = readHeader(path).tensor(name);
        if (t == null) {
            try (Arena a = Arena.ofConfined()) {
                open(path, a).tensor(name);   // throws, naming the tensors the file has
            }
        }
        ElementType type = t.type().elementType() != null ? t.type().elementType() : ElementType.F32;
        return readAs(path, name, ArrayShape.of(type, t.dimensions()).withLayout(layout), arena);
    }

    /**
     * Like {@link #readAs(Path, String, ArrayShape, Arena)}, on up to {@code parallelism} tasks of
     * {@code executor} when {@code arena} allows other threads (shared or global).
     */
    public static Array readAs(Path path, String name, ArrayShape target, Arena arena, ExecutorService executor,
                               int parallelism) throws IOException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(arena, "arena");
        try (Arena mapping = executor == null ? Arena.ofConfined() : Arena.ofShared()) {
            GgufTensor t = open(path, mapping).tensor(name);
            if (!java.util.Arrays.equals(target.dimensions(), t.dimensions())) {
                throw new IllegalArgumentException("target: dimensions of " + target + " differ from tensor '"
                        + HeaderText.shorten(name) + "' " + java.util.Arrays.toString(t.dimensions()));
            }
            Array out = Array.allocate(arena, target);
            try (MappedArray m = out.map(MapMode.WRITE)) {    // device memory: dequantized into its mapping
                t.readInto(m.array(), executor, parallelism);
            }
            return out;
        }
    }

    /** {@return a writer for a new GGUF file (version 3, alignment 32) with no metadata and no tensors yet} */
    public static GgufWriter writer() {
        return new GgufWriter();
    }
}
