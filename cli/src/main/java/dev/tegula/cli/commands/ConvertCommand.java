package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.Main;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.core.Shape;
import dev.tegula.core.ShapeParseException;
import dev.tegula.ffm.Array;
import dev.tegula.io.Npy;
import dev.tegula.io.SafeTensors;
import dev.tegula.io.SafeTensorsHeader;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.TensorFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tegula convert IN --tensor NAME --layout LAYOUT --out OUT}: a tensor of a file, relayouted, as a device buffer or .npy. */
@Command(name = "convert",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"Read one tensor of a .safetensors or .npy file into a layout and write it out.",
                "OUT ending .npy gets a NumPy file (the layout must be row-major, or column-major for Fortran order);"
                        + " any other OUT gets the raw device-ready buffer of the layout (every tile and its padding,"
                        + " bufferSize bytes). Prints the full shape text of what was written."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:bad file, unknown tensor, or a layout that does not fit"})
public final class ConvertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "a .safetensors or .npy file")
    Path in;

    @Option(names = "--tensor", paramLabel = "NAME", description = "the tensor to convert (safetensors; optional when the file has one)")
    String tensor;

    @Option(names = "--layout", paramLabel = "LAYOUT",
            description = "the target layout in XLA text, e.g. '{1,0:T(8,128)(2,1)}' (default: row-major)")
    String layout;

    @Option(names = "--out", paramLabel = "OUT", required = true, description = "where to write: OUT.npy, or a raw buffer")
    Path out;

    @Override
    public Integer call() {
        try (Arena arena = Arena.ofConfined()) {
            String name = tensorName();
            ArrayShape source = sourceShape(name);
            ArrayShape target = targetShape(source);
            boolean npy = TensorFiles.isNpy(out);
            if (npy) {
                checkNpyLayout(target);
            }
            Array a = TensorFiles.readAs(in, name, target.layout(), arena);
            if (npy) {
                Npy.write(a, out);
            } else {
                try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    var b = a.segment().asSlice(0, target.bufferSize()).asByteBuffer();
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                }
            }
            spec.commandLine().getOut().println(a.shape());
            spec.commandLine().getOut().flush();
            return Main.OK;
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + e.getMessage());
        } catch (IOException e) {
            throw new BadInputException("cannot read or write: " + e);
        }
    }

    private String tensorName() throws IOException {
        if (TensorFiles.isNpy(in) || tensor != null) {
            return tensor;
        }
        SafeTensorsHeader h = SafeTensors.readHeader(in);
        if (h.tensors().size() != 1) {
            throw new BadInputException("--tensor is needed: " + in + " has " + h.tensors().size() + " tensors "
                    + h.tensors().stream().map(SafeTensorsHeader.Entry::name).toList());
        }
        return h.tensors().getFirst().name();
    }

    private ArrayShape sourceShape(String name) throws IOException {
        if (TensorFiles.isNpy(in)) {
            return Npy.readHeader(in).shape();
        }
        SafeTensorsHeader.Entry e = SafeTensors.readHeader(in).entry(name);
        if (e == null) {
            throw new BadInputException("no tensor '" + name + "' in " + in);
        }
        return e.shape();
    }

    private ArrayShape targetShape(ArrayShape source) {
        if (layout == null) {
            return source.withLayout(Layout.rowMajor(source.rank()));
        }
        String text = source.toStringWithoutLayout() + layout.strip();
        try {
            if (!layout.strip().startsWith("{") || !(Shape.parse(text) instanceof ArrayShape s)) {
                throw new BadInputException("--layout: expected a layout in braces such as '{1,0:T(8,128)(2,1)}', got '"
                        + layout + "'");
            }
            return s;
        } catch (ShapeParseException e) {
            throw new BadInputException("--layout: '" + layout + "' is not a layout for " + source.toStringWithoutLayout()
                    + ": " + e.expected() + " (at offset " + Math.max(0, e.offset() - source.toStringWithoutLayout().length())
                    + " of the layout)");
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--layout: '" + layout + "' does not fit " + source.toStringWithoutLayout() + ": "
                    + e.getMessage());
        }
    }

    private static void checkNpyLayout(ArrayShape target) {
        Layout l = target.layout();
        int rank = target.rank();
        boolean plain = !l.isTiled() && !l.hasPaddedDimensions() && l.elementSizeInBits() == 0;
        boolean order = Arrays.equals(l.minorToMajor(), Layout.rowMajor(rank).minorToMajor())
                || Arrays.equals(l.minorToMajor(), Layout.columnMajor(rank).minorToMajor());
        if (!plain || !order) {
            throw new BadInputException("--layout: " + l + " cannot be an .npy file, which holds only row-major (C) or"
                    + " column-major (Fortran) data; write a raw buffer instead");
        }
        if (!Npy.supports(target.elementType())) {
            throw new BadInputException("--out: " + target.elementType() + " has no .npy dtype; write a raw buffer instead");
        }
        if (l.memorySpace() != 0) {
            throw new BadInputException("--layout: an .npy file has no memory space (S(" + l.memorySpace() + "))");
        }
    }
}
