package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The buffer of one tensor in its layout ({@link TensorFormat#RAW}): every tile and its padding,
 * {@code bufferSize} bytes, no header. Its shape is not in the file: read with
 * {@link ConvertOptions#withRawShape}; written by convert to any name no other format claims (it
 * prints the full shape text).
 */
public final class RawFormat extends TensorFormat {
    RawFormat() {
        super("raw", true, true);
    }

    @Override
    TensorSource open(Path path, ArrayShape shape, Arena arena) throws IOException {
        Objects.requireNonNull(shape, "rawShape");
        MemorySegment file = MappedFiles.map(path, arena);
        if (file.byteSize() != shape.bufferSize()) {
            throw new TensorFormatException(path + ": a raw " + shape + " is " + shape.bufferSize() + " bytes, the file has "
                    + file.byteSize());
        }
        return new TensorSource(this, List.of(new TensorSource.Named(stem(path), Array.wrap(file, shape).asReadOnly())),
                Map.of());
    }

    @Override
    ArrayShape stored(String name, ArrayShape to) {
        return to;
    }

    @Override
    List<OutputFile> plan(Path target, List<OutputFile.Planned> tensors, TensorSource source) {
        return List.of(OutputFile.of(target, new byte[0], tensors.getFirst()));
    }

    @Override
    boolean claims(String fileName) {
        return false;
    }

    @Override
    boolean startsLike(byte[] head) {
        return false;
    }
}
