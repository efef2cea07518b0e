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
     * A tensor and its name: an array over the file, or (GGUF block-quantized types) the quantized
     * tensor, whose values are read by dequantizing.
     *
     * @param array     the tensor as an array over the mapping; null when {@code quantized} is set
     * @param quantized a block-quantized GGUF tensor; null for every other tensor
     * @param shard     the file name of the checkpoint shard that holds it; null outside a checkpoint
     */
    record Named(String name, Array array, GgufTensor quantized, String shard) {
        Named(String name, Array array) {
            this(name, Objects.requireNonNull(array, "array"), null, null);
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
