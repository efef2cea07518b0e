package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.ByteCounts;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.TerminalText;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.Npy;
import dev.tegula.io.NpyHeader;
import dev.tegula.io.SafeTensors;
import dev.tegula.io.SafeTensorsHeader;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tegula inspect FILE}: the tensors of an {@code .npy} or safetensors file, with shapes, layouts
 * and sizes. Names and metadata from the file are printed through {@link TerminalText}: control
 * characters escaped, long values cut.
 */
final class TensorFileReport {
    private TensorFileReport() {
    }

    /** {@return true if every word is a file name ending in .npy or .safetensors (and not shape text)} */
    static boolean isTensorFiles(List<String> words) {
        for (String word : words) {
            String w = word.toLowerCase(Locale.ROOT);
            boolean named = w.endsWith(".npy") || w.endsWith(".safetensors");
            if (!named || (w.contains("[") && !Files.exists(Path.of(word)))) {
                return false;
            }
        }
        return !words.isEmpty();
    }

    /** {@return the report} @throws BadInputException naming the file if it is malformed or unreadable */
    static String of(Path path) {
        String unreadable = FileErrors.unreadable(path);
        if (unreadable != null) {
            throw new BadInputException("cannot read " + TerminalText.of(path.toString()) + ": " + unreadable);
        }
        try {
            return path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy") ? npy(path) : safetensors(path);
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + TerminalText.of(e.getMessage(), 400));
        } catch (IOException e) {
            throw FileErrors.cannotRead(path, e);
        }
    }

    private static String npy(Path path) throws IOException {
        NpyHeader h = Npy.readHeader(path);
        ArrayShape s = h.shape();
        return TerminalText.of(path.toString()) + ": .npy version " + h.major() + ".0, "
                + (h.fortranOrder() ? "Fortran" : "C") + " order, "
                + h.byteOrder().toString().toLowerCase(Locale.ROOT).replace('_', '-') + ", data at byte " + h.dataOffset()
                + "\n" + String.format("  %-20s %-32s %s%n", "(array)", s, ByteCounts.text(h.dataBytes()));
    }

    private static String safetensors(Path path) throws IOException {
        SafeTensorsHeader h = SafeTensors.readHeader(path);
        StringBuilder b = new StringBuilder(TerminalText.of(path.toString()) + ": safetensors, " + h.tensors().size()
                + " tensor" + (h.tensors().size() == 1 ? "" : "s") + ", data at byte " + h.dataOffset() + "\n");
        for (Map.Entry<String, String> m : h.metadata().entrySet()) {
            b.append("  __metadata__ ").append(TerminalText.of(m.getKey())).append(" = ")
                    .append(TerminalText.of(m.getValue())).append('\n');
        }
        long total = 0;
        for (SafeTensorsHeader.Entry e : h.tensors()) {
            b.append(String.format("  %-20s %-32s %-8s %s%n", TerminalText.of(e.name()), e.shape(), e.dtype(),
                    ByteCounts.text(e.byteSize())));
            total += e.byteSize();
        }
        return b.append("  total ").append(ByteCounts.text(total)).append('\n').toString();
    }
}
