package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.TerminalText;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.io.GgufFormat;
import dev.tegula.io.NpyDirectoryFormat;
import dev.tegula.io.NpyFormat;
import dev.tegula.io.RawFormat;
import dev.tegula.io.SafeTensorsCheckpointFormat;
import dev.tegula.io.SafeTensorsFormat;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.TensorFormat;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufTensorInfo;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of one tensor of a tensor file that {@code tegula inspect} reads ({@code .npy},
 * safetensors, GGUF, a safetensors checkpoint), as Tegula reads it back, for {@code tegula map}:
 * read from the headers (a safetensors file or checkpoint is mapped, never read), so any file size
 * costs the same. Stateless.
 */
final class TensorShapes {
    /** How many tensor names a refusal lists. */
    static final int NAMES_SHOWN = 8;

    private TensorShapes() {
    }

    /**
     * A tensor of a file: its name (null for a {@code .npy}), its shape as read, and a note on how it
     * is stored where that is not the shape itself (a GGUF block-quantized tensor), else null.
     */
    record Tensor(String name, ArrayShape shape, String note) {
    }

    /**
     * {@return tensor {@code name} of {@code path}, or its only tensor where {@code name} is null}
     *
     * @throws BadInputException naming the file if it is malformed or unreadable, has no such tensor,
     *                           or holds several and none was named (the refusal lists the first names)
     */
    static Tensor of(Path path, String name) {
        boolean checkpoint = Files.isDirectory(path);
        if (!checkpoint) {
            String unreadable = FileErrors.unreadable(path);
            if (unreadable != null) {
                throw new BadInputException("cannot read " + TerminalText.of(path.toString()) + ": " + unreadable);
            }
        }
        try {
            return switch (TensorFormat.ofSource(path, null)) {
                case NpyFormat f -> {
                    if (name != null) {
                        throw new BadInputException(TerminalText.of(path.toString()) + " is an .npy file, one array"
                                + " without a name: give no TENSOR");
                    }
                    yield new Tensor(null, Npy.readHeader(path).shape(), null);
                }
                case SafeTensorsFormat f -> {
                    List<String> names = SafeTensors.readHeader(path).tensors().stream()
                            .map(SafeTensorsHeader.Entry::name).toList();
                    yield mapped(path, choose(path, names, name));
                }
                case SafeTensorsCheckpointFormat f -> {
                    List<String> names = new ArrayList<>();
                    for (SafeTensorsHeader h : SafeTensorsCheckpoint.open(path).shards().values()) {
                        h.tensors().forEach(e -> names.add(e.name()));
                    }
                    yield mapped(path, choose(path, names, name));
                }
                case GgufFormat f -> gguf(path, name);
                case NpyDirectoryFormat f -> throw new BadInputException("cannot read " + TerminalText.of(path.toString())
                        + ": is a directory; map one of its .npy files");
                case RawFormat f -> throw new AssertionError(f);   // only given a raw shape
            };
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + TerminalText.message(e.getMessage()));
        } catch (IOException e) {
            throw FileErrors.cannotRead(path, e);
        }
    }

    /** The shape a safetensors tensor reads back in (the full shape convert recorded for a U8 one): the file mapped, no data read. */
    private static Tensor mapped(Path path, String name) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return new Tensor(name, TensorFiles.read(path, name, arena).shape(), null);
        }
    }

    private static Tensor gguf(Path path, String name) throws IOException {
        List<GgufTensorInfo> tensors = Gguf.readHeader(path).tensors();
        String chosen = choose(path, tensors.stream().map(GgufTensorInfo::name).toList(), name);
        GgufTensorInfo t = tensors.stream().filter(x -> x.name().equals(chosen)).findFirst().orElseThrow();
        if (t.type().elementType() != null) {
            return new Tensor(chosen, ArrayShape.of(t.type().elementType(), t.dimensions()), null);
        }
        if (t.type().quantBlock() == null) {
            throw new BadInputException(TerminalText.of(chosen) + " of " + TerminalText.of(path.toString()) + " is of GGUF"
                    + " type " + t.type() + ", which Tegula does not read: it has no shape to map");
        }
        return new Tensor(chosen, ArrayShape.of(ElementType.F32, t.dimensions()),
                "stored as " + t.type() + " blocks; this is the f32 array Tegula dequantizes it to");
    }

    /** {@return {@code name}, checked to be one of {@code names}; or the only name where {@code name} is null} */
    private static String choose(Path path, List<String> names, String name) {
        if (name != null) {
            if (!names.contains(name)) {
                throw new BadInputException(TerminalText.of(path.toString()) + " has no tensor "
                        + TerminalText.of(name) + "; it has " + listed(names));
            }
            return name;
        }
        if (names.size() == 1) {
            return names.getFirst();
        }
        throw new BadInputException(TerminalText.of(path.toString()) + " holds " + names.size() + " tensors: name one,"
                + " tegula map FILE TENSOR (" + listed(names) + ")");
    }

    private static String listed(List<String> names) {
        if (names.isEmpty()) {
            return "no tensors";
        }
        List<String> shown = names.stream().limit(NAMES_SHOWN).map(TerminalText::of).toList();
        return String.join(", ", shown) + (names.size() > NAMES_SHOWN ? ", \u2026 " + (names.size() - NAMES_SHOWN)
                + " more" : "");
    }
}
