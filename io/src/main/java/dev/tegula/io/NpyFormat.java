package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One NumPy {@code .npy} file ({@link TensorFormat#NPY}): one tensor, row- or column-major, read
 * and written by {@link Npy}. Recognised by the name {@code *.npy} or the first bytes
 * {@code \x93NUMPY}; the tensor is named by the file's stem.
 */
public final class NpyFormat extends TensorFormat {
    NpyFormat() {
        super("npy", true, true);
    }

    @Override
    TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        return new TensorSource(this, List.of(new TensorSource.Named(stem(path), Npy.read(path, arena))), Map.of());
    }

    @Override
    ArrayShape stored(String name, ArrayShape to) {
        header(name, to);
        return to;
    }

    @Override
    List<OutputFile> plan(Path target, List<OutputFile.Planned> tensors, TensorSource source) {
        OutputFile.Planned t = tensors.getFirst();
        return List.of(OutputFile.of(target, header(t.name(), t.to()), t));
    }

    /** {@return the {@code .npy} header of tensor {@code name} written in {@code to}} @throws IllegalArgumentException naming the tensor */
    static byte[] header(String name, ArrayShape to) {
        try {
            return Npy.header(to);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tensor '" + name + "': " + e.getMessage()
                    + "; write a raw buffer or .safetensors instead", e);
        }
    }

    @Override
    boolean claims(String fileName) {
        return fileName.endsWith(".npy");
    }

    @Override
    boolean startsLike(byte[] head) {
        byte[] magic = FileMagic.npy();
        return head.length >= magic.length && Arrays.equals(head, 0, magic.length, magic, 0, magic.length);
    }
}
