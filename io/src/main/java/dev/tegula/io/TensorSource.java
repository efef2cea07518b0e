package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.GgufTensor;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tensors of an input to {@link TensorFiles#convert}, whatever its format: its
 * {@link TensorFormat} opens it. Tensors are read-only views of the file mapped into the caller's
 * arena wherever the format allows; the mappings hold page cache, not anonymous memory.
 *
 * @param format     the format the input was read as
 * @param tensors    the tensors in file order (a checkpoint: shard by shard)
 * @param metadata   string metadata kept when the output can hold it (safetensors {@code __metadata__};
 *                   a checkpoint: its first shard's)
 * @param checkpoint the checkpoint read, for a {@link SafeTensorsCheckpointFormat} input; else null
 */
record TensorSource(TensorFormat format, List<Named> tensors, Map<String, String> metadata,
                    SafeTensorsCheckpoint checkpoint) {
    /**
     * A tensor and its name: the shape it is read in, and either how to open it as an array over the
     * file or (GGUF block-quantized types) the quantized tensor, whose values are read by
     * dequantizing. The array is made when it is asked for, not when the input is opened: an array
     * is a large object, and an input may list hundreds of thousands of tensors.
     *
     * @param shape     the tensor's shape: the array's, or f32 of the dimensions for a quantized tensor (its values are f32)
     * @param opener    makes the array over the mapping; null when {@code quantized} is set
     * @param quantized a block-quantized GGUF tensor; null for every other tensor
     * @param shard     the file name of the checkpoint shard that holds it; null outside a checkpoint
     */
    record Named(String name, ArrayShape shape, Opener opener, GgufTensor quantized, String shard) {
        /** Makes a tensor's array over its mapping. */
        @FunctionalInterface
        interface Opener {
            Array open() throws TensorFormatException;
        }

        /** A tensor whose array is already made. */
        Named(String name, Array array) {
            this(name, array.shape(), opener(array), null, null);
        }

        private static Opener opener(Array array) {
            Objects.requireNonNull(array, "array");
            return () -> array;
        }

        /** {@return a block-quantized GGUF tensor} */
        static Named quantized(String name, GgufTensor t) {
            return new Named(name, ArrayShape.of(ElementType.F32, t.dimensions()), null, t, null);
        }

        Named {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(shape, "shape");
            if ((opener == null) == (quantized == null)) {
                throw new IllegalArgumentException("a tensor has an opener or is quantized, not both or neither");
            }
        }

        /** {@return the tensor as an array over the mapping (made now), or null for a quantized tensor} */
        Array array() throws TensorFormatException {
            return opener == null ? null : opener.open();
        }
    }

    TensorSource {
        tensors = List.copyOf(tensors);
        metadata = Map.copyOf(metadata);
    }

    TensorSource(TensorFormat format, List<Named> tensors, Map<String, String> metadata) {
        this(format, tensors, metadata, null);
    }

    /**
     * Opens {@code path} in the format {@link TensorFormat#ofSource} gives it.
     *
     * @param rawShape the full shape of a raw buffer (its layout says how the bytes lie); null for other formats
     * @throws TensorFormatException if the file is malformed, or a raw file's size is not the shape's buffer size
     */
    static TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        return TensorFormat.ofSource(path, rawShape).open(path, rawShape, arena);
    }
}
