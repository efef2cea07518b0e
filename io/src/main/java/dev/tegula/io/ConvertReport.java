package dev.tegula.io;

import java.nio.file.Path;
import java.util.List;
import dev.tegula.core.ArrayShape;

/**
 * What {@link TensorFiles#convert} wrote.
 *
 * @param target  the file (or directory) written
 * @param format  the format written
 * @param tensors one entry per tensor written, in output order
 * @param bytes   the bytes of tensor data written (headers not counted)
 */
public record ConvertReport(Path target, TensorFormat format, List<Tensor> tensors, long bytes) {
    /**
     * One tensor converted.
     *
     * @param name         its name
     * @param from         its shape in the input
     * @param to           its shape in the output (the layout its bytes are in)
     * @param bands        the bands its destination was written in
     * @param sourcePasses the source pages read, summed over the bands, per source page: 1.0 when
     *                     each page is read once, more when a transpose's strips share pages
     */
    public record Tensor(String name, ArrayShape from, ArrayShape to, int bands, double sourcePasses) {
    }

    public ConvertReport {
        tensors = List.copyOf(tensors);
    }
}
