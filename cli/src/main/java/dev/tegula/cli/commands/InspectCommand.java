package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.VersionProvider;
import dev.tegula.cli.TerminalText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tegula inspect SHAPE}: every field of a shape in words, its sizes, and a picture when it is small. */
@Command(name = "inspect",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Explain a shape in words, with its sizes and a picture of small arrays.",
                "Prints: the canonical text; the element type; the dimensions; the physical order;"
                        + " each tile and what it does; packing (E), tail padding (L), memory space (S);"
                        + " legacy padding; element count, byteSize, bufferSize and padding overhead; the"
                        + " Addressing implementation.",
                "Arrays with at most " + ShapeReport.PICTURE_MAX_SIDE + " x " + ShapeReport.PICTURE_MAX_SIDE
                        + " elements per 2-D grid (and at most " + ShapeReport.PICTURE_MAX_ELEMENTS
                        + " in all above rank 2) also get a picture of the slot each element occupies."
                        + " Tuples and buffers describe their elements.",
                "Files ending .npy, .safetensors or .gguf (one or more) list their tensors: names, shapes with layouts,"
                        + " dtypes and sizes; a .gguf file also its metadata (long arrays cut) and each tensor's type and"
                        + " offset. A checkpoint (a directory of safetensors shards and their index, as Hugging Face"
                        + " tools save it, or its index file) lists the index's metadata, then every"
                        + " shard with its tensors, then the other files of the directory."
                        + " Names and metadata are printed with control characters escaped and values longer than "
                        + TerminalText.MAX_CHARS + " characters cut."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:not a shape, an invalid shape, or a bad tensor file"})
public final class InspectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SHAPE|FILE",
            description = "XLA shape text, e.g. 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}' (quote it),"
                    + " or a .npy / .safetensors / .gguf file, or a checkpoint directory or index")
    List<String> shape;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!TensorFileReport.isTensorFiles(shape)) {
            out.print(ShapeReport.of(Shapes.parse(shape)));
            out.flush();
            return ExitStatus.OK;
        }
        if (shape.size() == 1) {
            out.print(TensorFileReport.of(Path.of(shape.getFirst())));
            out.flush();
            return ExitStatus.OK;
        }
        // several files: report each; a bad one is named on stderr and the others still print
        int status = ExitStatus.OK;
        PrintWriter err = spec.commandLine().getErr();
        for (int i = 0; i < shape.size(); i++) {
            try {
                String report = TensorFileReport.of(Path.of(shape.get(i)));
                out.print(i > 0 ? "\n" + report : report);
            } catch (BadInputException e) {
                out.flush();
                err.println(spec.qualifiedName() + ": " + e.getMessage());
                err.flush();
                status = ExitStatus.BAD_INPUT;
            }
        }
        out.flush();
        return status;
    }
}
