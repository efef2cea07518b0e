package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;

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

/** {@code tegula inspect FILE}: the tensors of an {@code .npy} or safetensors file, with shapes, layouts and sizes. */
final class TensorFileReport {
    private TensorFileReport() {
    }

    /** {@return true if {@code words} is one file name ending in .npy or .safetensors (and not shape text)} */
    static boolean isTensorFile(List<String> words) {
        if (words.size() != 1) {
            return false;
        }
        String w = words.getFirst().toLowerCase(Locale.ROOT);
        return (w.endsWith(".npy") || w.endsWith(".safetensors"))
                && (!w.contains("[") || Files.isRegularFile(Path.of(words.getFirst())));
    }

    /** {@return the report} @throws BadInputException if the file is malformed or unreadable */
    static String of(Path path) {
        try {
            return path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy") ? npy(path) : safetensors(path);
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + e.getMessage());
        } catch (IOException e) {
            throw new BadInputException("cannot read " + path + ": " + e);
        }
    }

    private static String npy(Path path) throws IOException {
        NpyHeader h = Npy.readHeader(path);
        ArrayShape s = h.shape();
        return path + ": .npy version " + h.major() + ".0, " + (h.fortranOrder() ? "Fortran" : "C") + " order, "
                + h.byteOrder().toString().toLowerCase(Locale.ROOT).replace('_', '-') + ", data at byte " + h.dataOffset()
                + "\n" + String.format("  %-20s %-32s %s%n", "(array)", s, size(h.dataBytes()));
    }

    private static String safetensors(Path path) throws IOException {
        SafeTensorsHeader h = SafeTensors.readHeader(path);
        StringBuilder b = new StringBuilder(path + ": safetensors, " + h.tensors().size() + " tensor"
                + (h.tensors().size() == 1 ? "" : "s") + ", data at byte " + h.dataOffset() + "\n");
        for (Map.Entry<String, String> m : h.metadata().entrySet()) {
            b.append("  __metadata__ ").append(m.getKey()).append(" = ").append(m.getValue()).append('\n');
        }
        long total = 0;
        for (SafeTensorsHeader.Entry e : h.tensors()) {
            b.append(String.format("  %-20s %-32s %-8s %s%n", e.name(), e.shape(), e.dtype(), size(e.byteSize())));
            total += e.byteSize();
        }
        return b.append("  total ").append(size(total)).append('\n').toString();
    }

    static String size(long bytes) {
        return bytes < 1024 ? bytes + " B" : String.format(Locale.ROOT, "%d B (%.1f KiB)", bytes, bytes / 1024.0);
    }
}
