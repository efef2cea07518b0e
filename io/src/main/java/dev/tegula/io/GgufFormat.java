package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufTensor;
import dev.tegula.io.internal.FileMagic;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A GGUF file ({@link TensorFormat#GGUF}), read by {@link Gguf}: plain tensors are arrays over the
 * mapping, block-quantized ones are dequantized while they are converted; the metadata is not
 * carried over. Recognised by the name {@code *.gguf} or the first bytes {@code GGUF}. Convert does
 * not write it.
 */
public final class GgufFormat extends TensorFormat {
    GgufFormat() {
        super("gguf", false, false);
    }

    @Override
    TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        List<TensorSource.Named> out = new ArrayList<>();
        for (GgufTensor t : Gguf.open(path, arena).tensors()) {
            out.add(t.type().elementType() != null ? new TensorSource.Named(t.name(), t.array())
                    : new TensorSource.Named(t.name(), null, t, null));
        }
        return new TensorSource(this, out, Map.of());
    }

    @Override
    ArrayShape stored(String name, ArrayShape to) {
        throw new IllegalArgumentException("target: convert does not write GGUF files");
    }

    @Override
    List<OutputFile> plan(Path target, List<OutputFile.Planned> tensors, TensorSource source) {
        throw new IllegalArgumentException("target: convert does not write GGUF files (" + target + ")");
    }

    @Override
    boolean claims(String fileName) {
        return fileName.endsWith(".gguf");
    }

    @Override
    boolean startsLike(byte[] head) {
        return head.length >= 4 && ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt() == FileMagic.GGUF;
    }
}
