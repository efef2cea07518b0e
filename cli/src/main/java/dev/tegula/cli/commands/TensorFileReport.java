package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.Gguf;
import dev.tegula.io.GgufHeader;
import dev.tegula.io.GgufTensorInfo;
import dev.tegula.io.GgufValue;
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

/** {@code tegula inspect FILE}: the tensors of an {@code .npy}, safetensors or GGUF file, with shapes, layouts and sizes. */
final class TensorFileReport {
    private TensorFileReport() {
    }

    /** {@return true if {@code words} is one file name ending in .npy, .safetensors or .gguf (and not shape text)} */
    static boolean isTensorFile(List<String> words) {
        if (words.size() != 1) {
            return false;
        }
        String w = words.getFirst().toLowerCase(Locale.ROOT);
        return (w.endsWith(".npy") || w.endsWith(".safetensors") || w.endsWith(".gguf"))
                && (!w.contains("[") || Files.isRegularFile(Path.of(words.getFirst())));
    }

    /** {@return the report} @throws BadInputException if the file is malformed or unreadable */
    static String of(Path path) {
        try {
            String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
            return name.endsWith(".npy") ? npy(path) : name.endsWith(".gguf") ? gguf(path) : safetensors(path);
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

    /** Metadata arrays are cut after this many items in the report. */
    static final int GGUF_ITEMS = 8;

    private static String gguf(Path path) throws IOException {
        GgufHeader h = Gguf.readHeader(path);
        StringBuilder b = new StringBuilder(path + ": GGUF version " + h.version() + ", " + h.metadata().size()
                + " metadata key" + (h.metadata().size() == 1 ? "" : "s") + ", " + h.tensors().size() + " tensor"
                + (h.tensors().size() == 1 ? "" : "s") + ", alignment " + h.alignment() + ", data at byte "
                + h.dataOffset() + "\n");
        for (Map.Entry<String, GgufValue> m : h.metadata().entrySet()) {
            GgufValue v = m.getValue();
            b.append("  ").append(m.getKey()).append(" = ").append(v.summary(GGUF_ITEMS));
            if (v.elementType() == null) {
                b.append("  (").append(v.type().name().toLowerCase(Locale.ROOT)).append(')');
            }
            b.append('\n');
        }
        b.append(String.format("  %-28s %-7s %-24s %-22s %s%n", "tensor", "type", "shape (ne reversed)", "bytes",
                "offset in data"));
        long total = 0;
        for (GgufTensorInfo t : h.tensors()) {
            String shape = java.util.Arrays.toString(t.dimensions()).replace(" ", "");
            if (t.type().elementType() != null) {
                shape = t.type().elementType().hloName() + shape;
            }
            String note = t.type().elementType() == null && t.type().quantBlock() == null ? "  (not dequantized by Tegula)" : "";
            b.append(String.format("  %-28s %-7s %-24s %-22s %d%s%n", t.name(), t.type(), shape, size(t.byteSize()),
                    t.offset(), note));
            total += t.byteSize();
        }
        return b.append("  total ").append(size(total)).append('\n').toString();
    }

    static String size(long bytes) {
        return bytes < 1024 ? bytes + " B" : String.format(Locale.ROOT, "%d B (%.1f KiB)", bytes, bytes / 1024.0);
    }
}
