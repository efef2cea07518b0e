package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@link TensorFiles#convert} wrote.
 *
 * @param target      the file (or directory) written
 * @param format      the format written
 * @param tensors     one entry per tensor written, in output order
 * @param bytes       the bytes of tensor data written (headers not counted)
 * @param skipped     the tensors left out because they cannot be written as the rules ask (only
 *                    with {@link ConvertOptions#skipUnsupported()}), in input order
 * @param unusedRules each rule that decided nothing, described with the reason (it matches no
 *                    tensor, or earlier rules take every tensor it matches)
 * @param copied      the files copied into a checkpoint directory (config, tokenizer ...), where they
 *                    now are: unchanged, but for {@code config.json}'s dtype when the tensors' type
 *                    changed ({@link SafeTensorsCheckpointFormat}); empty for other formats
 * @param staleTemporaries the temporaries of the same output files that an earlier write killed
 *                    before it finished ({@code kill -9}, a crash) had left, and that this
 *                    conversion removed before writing; a temporary whose writer still runs is
 *                    never among them (see {@link TensorFiles#convert})
 */
public record ConvertReport(Path target, TensorFormat format, List<Tensor> tensors, long bytes, List<Skipped> skipped,
                           List<String> unusedRules, List<Path> copied, List<StaleTemporary> staleTemporaries) {
    /**
     * One tensor converted.
     *
     * @param name         its name
     * @param from         its shape in the input
     * @param to           its shape in the output (the layout its bytes are in)
     * @param windows      the windows its destination was written in
     * @param sourcePasses the source pages read, summed over the windows, per source page: 1.0 when
     *                     each page is read once, more when a transpose's source spans share pages
     */
    public record Tensor(String name, ArrayShape from, ArrayShape to, int windows, double sourcePasses) {
    }

    /**
     * A tensor left out.
     *
     * @param name   its name
     * @param reason why it cannot be written as the rules ask
     */
    public record Skipped(String name, String reason) {
    }

    /**
     * A temporary left by a write that never finished, removed.
     *
     * @param path  where it was ({@code .NAME.RANDOM.tmp} beside the output file {@code NAME}, a
     *              file, or a directory for a checkpoint)
     * @param bytes the bytes it held
     */
    public record StaleTemporary(Path path, long bytes) {
    }

    public ConvertReport {
        tensors = List.copyOf(tensors);
        staleTemporaries = List.copyOf(staleTemporaries);
        skipped = List.copyOf(skipped);
        unusedRules = List.copyOf(unusedRules);
        copied = List.copyOf(copied);
    }
}
