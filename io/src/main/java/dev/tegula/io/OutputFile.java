package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import java.nio.file.Path;
import java.util.List;

/**
 * One file of a conversion's output, as its {@link TensorFormat} lays it out: the header bytes the
 * file starts with and, after them, the region of each tensor. A file without tensors (a
 * checkpoint's index) is its header alone.
 *
 * @param path    where the file goes
 * @param header  the bytes before the first tensor (empty for a raw buffer)
 * @param tensors the tensors, in the file's order
 */
record OutputFile(Path path, byte[] header, List<Region> tensors) {
    OutputFile {
        tensors = List.copyOf(tensors);
    }

    /** {@return an output file of one tensor right after the header} */
    static OutputFile of(Path path, byte[] header, Planned tensor) {
        return new OutputFile(path, header, List.of(new Region(tensor.source(), tensor.to(), 0, tensor.to().bufferSize())));
    }

    /** {@return the bytes of tensor data in the file, headers not counted} */
    long dataBytes() {
        long n = 0;
        for (Region r : tensors) {
            n = Math.addExact(n, r.bytes());
        }
        return n;
    }

    /**
     * A tensor chosen for the output and the shape it is written in, before it has a place.
     *
     * @param source the tensor read
     * @param to     the shape its bytes are written in: what the rules give it, as the output format stores it
     */
    record Planned(TensorSource.Named source, ArrayShape to) {
        String name() {
            return source.name();
        }
    }

    /**
     * Where one tensor goes.
     *
     * @param source the tensor read
     * @param to     the shape its bytes are written in (the layout they lie in)
     * @param offset its first byte, counted from the end of the header
     * @param bytes  its bytes: {@code to.bufferSize()}
     */
    record Region(TensorSource.Named source, ArrayShape to, long offset, long bytes) {
        String name() {
            return source.name();
        }
    }
}
