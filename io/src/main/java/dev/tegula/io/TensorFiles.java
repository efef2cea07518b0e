package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.Npy;
import dev.tegula.io.SafeTensors;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Tensor files read straight into a chosen layout: the file is mapped, and the relayout engine
 * reads the tensor from the mapping and writes it in the target layout (for example a tiled
 * device layout) into a new array, in one pass. The mapping is released before the call returns.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     Layout tpu = ((ArrayShape) Shape.parse("bf16[8,128]{1,0:T(8,128)(2,1)}")).layout();
 *     Array w = TensorFiles.readAs(Path.of("model.safetensors"), "w", tpu, arena);
 * }
 * }
 */
public final class TensorFiles {
    private TensorFiles() {
    }

    /**
     * {@return the tensor {@code name} of a safetensors or GGUF file (or the array of an {@code .npy} file,
     * {@code name} ignored) as a new array in {@code layout}, allocated from {@code arena}}
     * Files ending {@code .npy} are read as NumPy files, {@code .gguf} as GGUF (a block-quantized
     * tensor is dequantized to f32 in the same pass; see {@link Gguf}), everything else as safetensors.
     *
     * @param name   the tensor's name in a safetensors or GGUF file; may be null for {@code .npy}
     * @param layout the target layout (its rank must match the tensor's)
     * @throws dev.tegula.io.TensorFormatException if the file is malformed or has no such tensor
     * @throws IllegalArgumentException                if the layout does not fit the tensor's shape
     */
    public static Array readAs(Path path, String name, Layout layout, Arena arena) throws IOException {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(arena, "arena");
        if (isGguf(path)) {
            return Gguf.readAs(path, name, layout, arena);
        }
        try (Arena mapping = Arena.ofConfined()) {
            Array source = read(path, name, mapping);
            ArrayShape target = source.shape().withLayout(layout);
            Array out = Array.allocate(arena, target);
            Relayout.plan(source.shape(), target).execute(source.segment(), out.segment());
            return out;
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
        if (isGguf(path)) {
            return Gguf.readAs(path, name, target, arena);
        }
        try (Arena mapping = Arena.ofConfined()) {
            Array source = read(path, name, mapping);
            if (!java.util.Arrays.equals(source.shape().dimensions(), target.dimensions())) {
                throw new IllegalArgumentException("target: dimensions of " + target + " differ from the tensor's "
                        + source.shape());
            }
            Array out = Array.allocate(arena, target);
            Relayout.plan(source.shape(), target).execute(source.segment(), out.segment());
            return out;
        }
    }

    /**
     * {@return the tensor as the file holds it, mapped into {@code arena} where possible} (a GGUF
     * block-quantized tensor: dequantized into a new f32 row-major array from {@code arena})
     */
    public static Array read(Path path, String name, Arena arena) throws IOException {
        if (isNpy(path)) {
            return Npy.read(path, arena);
        }
        if (isGguf(path)) {
            if (name == null) {
                throw new IllegalArgumentException("name: a GGUF file needs a tensor name");
            }
            return Gguf.read(path, name, arena);
        }
        if (name == null) {
            throw new IllegalArgumentException("name: a safetensors file needs a tensor name");
        }
        return SafeTensors.read(path, name, arena);
    }

    /** {@return true if the file name ends in {@code .gguf} (any case)} */
    public static boolean isGguf(Path path) {
        return path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gguf");
    }

    /** {@return true if the file name ends in {@code .npy} (any case)} */
    public static boolean isNpy(Path path) {
        return path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy");
    }
}
