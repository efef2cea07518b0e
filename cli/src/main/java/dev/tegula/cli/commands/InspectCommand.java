package dev.tegula.cli.commands;

import dev.tegula.cli.Main;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code tegula inspect SHAPE}: every field of a shape in words, its sizes, and a picture when it is small. */
@Command(name = "inspect",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"Explain a shape in words, with its sizes and a picture of small arrays.",
                "Prints: the canonical text; the element type; the dimensions; the physical order;"
                        + " each tile and what it does; packing (E), tail padding (L), memory space (S);"
                        + " legacy padding; element count, byteSize, bufferSize and padding overhead; the"
                        + " Addressing implementation.",
                "Arrays with at most " + ShapeReport.PICTURE_MAX_SIDE + " x " + ShapeReport.PICTURE_MAX_SIDE
                        + " elements per 2-D grid (and at most " + ShapeReport.PICTURE_MAX_ELEMENTS
                        + " in all above rank 2) also get a picture of the slot each element occupies."
                        + " Tuples and buffers describe their elements.",
                "An existing file ending .npy or .safetensors lists its tensors: names, shapes with layouts, dtypes and"
                        + " sizes."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:not a shape, an invalid shape, or a bad tensor file"})
public final class InspectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SHAPE|FILE",
            description = "XLA shape text, e.g. 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}' (quote it),"
                    + " or a .npy / .safetensors file")
    List<String> shape;

    @Override
    public Integer call() {
        String report = TensorFileReport.isTensorFile(shape) ? TensorFileReport.of(java.nio.file.Path.of(shape.getFirst()))
                : ShapeReport.of(Shapes.parse(shape));
        spec.commandLine().getOut().print(report);
        spec.commandLine().getOut().flush();
        return Main.OK;
    }
}
