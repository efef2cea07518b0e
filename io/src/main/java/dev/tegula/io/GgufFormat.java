package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.core.ElementType;
import dev.tegula.io.gguf.GgufFile;
import dev.tegula.io.gguf.GgufTensorInfo;
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
        GgufFile file = Gguf.open(path, arena);
        for (GgufTensorInfo t : file.header().tensors()) {
            ElementType type = t.type().elementType();
            out.add(type != null
                    ? new TensorSource.Named(t.name(), ArrayShape.of(type, t.dimensions()),
                            () -> file.tensor(t.name()).array(), null, null)
                    : TensorSource.Named.quantized(t.name(), file.tensor(t.name())));
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
