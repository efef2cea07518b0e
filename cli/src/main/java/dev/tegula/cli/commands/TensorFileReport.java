package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.TerminalText;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.GgufFormat;
import dev.tegula.io.NpyDirectoryFormat;
import dev.tegula.io.NpyFormat;
import dev.tegula.io.RawFormat;
import dev.tegula.io.SafeTensorsCheckpointFormat;
import dev.tegula.io.SafeTensorsFormat;
import dev.tegula.io.TensorFormat;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.gguf.GgufHeader;
import dev.tegula.io.gguf.GgufTensorInfo;
import dev.tegula.io.gguf.GgufValue;
import dev.tegula.io.gguf.GgufValueType;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.npy.NpyHeader;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.io.safetensors.SafeTensorsIndex;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tegula inspect FILE}: the tensors of an {@code .npy}, safetensors or GGUF file or of a
 * safetensors checkpoint (directory or index, shard by shard), with shapes, layouts and sizes. Names and metadata from the file are printed through {@link TerminalText}: control
 * characters escaped, long values cut.
 */
final class TensorFileReport {
    private TensorFileReport() {
    }

    /**
     * {@return true if every word is the name of a tensor file (.npy, .safetensors, .gguf, a
     * checkpoint's .safetensors.index.json) or an existing directory, not shape text}
     *
     * @throws BadInputException if a word that cannot be shape text (no bracket or parenthesis)
     *     cannot name a file either (a non-ASCII name in a JVM started under the C locale)
     */
    static boolean isTensorFiles(List<String> words) {
        for (String word : words) {
            Path path;
            try {
                path = Path.of(word);
            } catch (InvalidPathException e) {
                if (word.contains("[") || word.contains("(")) {
                    return false;
                }
                throw new BadInputException("FILE: " + FileErrors.unnamable(word, e));
            }
            boolean named = TensorFormat.named(path) != null && !(word.contains("[") && !Files.exists(path));
            if (!named && !Files.isDirectory(path)) {
                return false;
            }
        }
        return !words.isEmpty();
    }

    /** {@return true if the directory is a safetensors checkpoint (a directory always has a format)} */
    private static boolean isCheckpoint(Path directory) {
        try {
            return TensorFormat.ofSource(directory, null) == TensorFormat.SAFETENSORS_CHECKPOINT;
        } catch (TensorFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@return the report} @throws BadInputException naming the file if it is malformed or unreadable */
    static String of(Path path) {
        if (Files.isDirectory(path) && isCheckpoint(path)) {
            try {
                return checkpoint(path);
            } catch (TensorFormatException e) {
                throw new BadInputException("bad tensor file: " + TerminalText.message(e.getMessage()));
            } catch (IOException e) {
                throw FileErrors.cannotRead(path, e);
            }
        }
        String unreadable = FileErrors.unreadable(path);
        if (unreadable != null) {
            throw new BadInputException("cannot read " + TerminalText.of(path.toString()) + ": " + unreadable);
        }
        try {
            return switch (TensorFormat.ofSource(path, null)) {
                case NpyFormat f -> npy(path);
                case GgufFormat f -> gguf(path);
                case SafeTensorsFormat f -> safetensors(path);
                case SafeTensorsCheckpointFormat f -> checkpoint(path);
                case NpyDirectoryFormat f -> throw new BadInputException("cannot read " + TerminalText.of(path.toString())
                        + ": is a directory");
                case RawFormat f -> throw new AssertionError(f);   // only given a raw shape
            };
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + TerminalText.message(e.getMessage()));
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

    /** The narrowest column of tensor names in a file's report (wider when a name needs it, up to {@link #NAME_COLUMN}). */
    private static final int NAME_MIN = 20;
    /** The narrowest column of shapes in a safetensors file's report (wider when a tiled shape needs it). */
    private static final int FILE_SHAPE_MIN = 32;

    private static String safetensors(Path path) throws IOException {
        SafeTensorsHeader h = SafeTensors.readHeader(path);
        StringBuilder b = new StringBuilder(TerminalText.of(path.toString()) + ": safetensors, " + h.tensors().size()
                + " tensor" + (h.tensors().size() == 1 ? "" : "s") + ", data at byte " + h.dataOffset() + "\n");
        for (Map.Entry<String, String> m : h.metadata().entrySet()) {
            b.append("  __metadata__ ").append(TerminalText.of(m.getKey())).append(" = ")
                    .append(TerminalText.of(m.getValue())).append('\n');
        }
        List<SafeTensorsHeader.Entry> tensors = h.tensors();
        String[] names = new String[tensors.size()];
        String[] shapes = new String[tensors.size()];
        int nameWidth = NAME_MIN;
        int shapeWidth = FILE_SHAPE_MIN;
        for (int i = 0; i < names.length; i++) {
            SafeTensorsHeader.Entry e = tensors.get(i);
            names[i] = TerminalText.of(e.name());
            shapes[i] = TensorFiles.shapeOf(path, h, e).toString();
            nameWidth = Math.max(nameWidth, names[i].length());
            shapeWidth = Math.max(shapeWidth, shapes[i].length());
        }
        nameWidth = Math.min(nameWidth, NAME_COLUMN);
        long total = 0;
        for (int i = 0; i < names.length; i++) {
            SafeTensorsHeader.Entry e = tensors.get(i);
            padded(padded(padded(b.append("  "), names[i], nameWidth).append(' '), shapes[i], shapeWidth).append(' '),
                    e.dtype(), 8).append(' ').append(ByteCounts.text(e.byteSize())).append('\n');
            total += e.byteSize();
        }
        return b.append("  total ").append(ByteCounts.text(total)).append('\n').toString();
    }

    /** {@return {@code b} with {@code text} appended and padded with spaces to {@code width} characters (a longer text is not cut)} */
    private static StringBuilder padded(StringBuilder b, String text, int width) {
        b.append(text);
        for (int i = text.length(); i < width; i++) {
            b.append(' ');
        }
        return b;
    }

    /** The widest column of tensor names in a report (longer names push their line on). */
    private static final int NAME_COLUMN = 56;
    /** The narrowest column of shapes in a checkpoint's report (wider when a tiled shape needs it). */
    private static final int SHAPE_COLUMN = 24;

    /** A checkpoint: its index's metadata, then each shard with its metadata and tensors, then the other files. */
    private static String checkpoint(Path path) throws IOException {
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(path);
        StringBuilder b = new StringBuilder(TerminalText.of(path.toString())).append(": safetensors checkpoint, ");
        if (c.index() != null) {
            b.append("index ").append(TerminalText.of(c.indexFile().getFileName().toString())).append(", ")
                    .append(c.shards().size()).append(c.shards().size() == 1 ? " shard, " : " shards, ");
        } else {
            b.append("one file, ");
        }
        b.append(c.tensorCount()).append(c.tensorCount() == 1 ? " tensor\n" : " tensors\n");
        long total = c.tensorBytes();
        if (c.index() != null) {
            for (Map.Entry<String, String> m : c.index().metadata().entrySet()) {
                b.append("  metadata ").append(TerminalText.of(m.getKey())).append(" = ").append(TerminalText.of(m.getValue()));
                if (m.getKey().equals(SafeTensorsIndex.TOTAL_SIZE) && c.index().totalSize().orElse(total) != total) {
                    b.append("  (the shards hold ").append(total).append(')');
                }
                b.append('\n');
            }
        }
        int width = 0;
        int shapeWidth = SHAPE_COLUMN;
        Map<SafeTensorsHeader.Entry, String> names = new IdentityHashMap<>();
        Map<SafeTensorsHeader.Entry, String> shapes = new IdentityHashMap<>();
        for (Map.Entry<String, SafeTensorsHeader> shard : c.shards().entrySet()) {
            Path file = c.directory().resolve(shard.getKey());
            for (SafeTensorsHeader.Entry e : shard.getValue().tensors()) {
                String name = TerminalText.of(e.name());
                String s = TensorFiles.shapeOf(file, shard.getValue(), e).toString();
                names.put(e, name);
                shapes.put(e, s);
                width = Math.max(width, name.length());
                shapeWidth = Math.max(shapeWidth, s.length());
            }
        }
        width = Math.min(width, NAME_COLUMN);
        for (Map.Entry<String, SafeTensorsHeader> shard : c.shards().entrySet()) {
            SafeTensorsHeader h = shard.getValue();
            long bytes = h.tensors().stream().mapToLong(SafeTensorsHeader.Entry::byteSize).sum();
            b.append("  ").append(TerminalText.of(shard.getKey())).append(": ").append(h.tensors().size())
                    .append(h.tensors().size() == 1 ? " tensor, " : " tensors, ").append(ByteCounts.text(bytes))
                    .append(", data at byte ").append(h.dataOffset()).append('\n');
            for (Map.Entry<String, String> m : h.metadata().entrySet()) {
                b.append("    __metadata__ ").append(TerminalText.of(m.getKey())).append(" = ")
                        .append(TerminalText.of(m.getValue())).append('\n');
            }
            for (SafeTensorsHeader.Entry e : h.tensors()) {
                padded(padded(padded(b.append("    "), names.get(e), width).append("  "), shapes.get(e), shapeWidth)
                        .append(' '), e.dtype(), 8).append(' ').append(ByteCounts.text(e.byteSize())).append('\n');
            }
        }
        b.append("  total ").append(ByteCounts.text(total)).append('\n');
        if (!c.otherFiles().isEmpty()) {
            b.append("  other files: ").append(String.join(", ", c.otherFiles().stream()
                    .map(p -> TerminalText.of(p.getFileName().toString())).toList())).append('\n');
        }
        return b.toString();
    }

    /** Metadata arrays are cut after this many items in the report. */
    static final int GGUF_ITEMS = 8;

    /**
     * {@return a GGUF metadata value as the report prints it: a string quoted and escaped as every
     * value is ({@link TerminalText#of}, a quote in it as {@code \"}), an array as its element type
     * and length and its first {@link #GGUF_ITEMS} items, each item so, numbers as they are}
     */
    static String ggufValue(GgufValue v) {
        if (v.type() == GgufValueType.STRING) {
            return quoted(v.asString());
        }
        if (v.type() != GgufValueType.ARRAY
                || v.elementType() != GgufValueType.STRING && v.elementType() != GgufValueType.ARRAY) {
            return v.summary(GGUF_ITEMS);   // numbers and booleans: nothing from the file to escape
        }
        int n = v.length();
        StringBuilder b = new StringBuilder(v.elementType().name().toLowerCase(Locale.ROOT)).append('[').append(n)
                .append("] [");
        for (int i = 0; i < Math.min(n, GGUF_ITEMS); i++) {
            Object item = java.lang.reflect.Array.get(v.value(), i);
            b.append(i > 0 ? ", " : "").append(item instanceof GgufValue inner ? ggufValue(inner) : quoted((String) item));
        }
        if (n > GGUF_ITEMS) {
            b.append(", \u2026 ").append(n - GGUF_ITEMS).append(" more");
        }
        return b.append(']').toString();
    }

    private static String quoted(String s) {
        return '"' + TerminalText.of(s).replace("\"", "\\\"") + '"';
    }

    /** The narrowest column of tensor names in a GGUF report. */
    private static final int GGUF_NAME_MIN = 28;
    /** The narrowest column of shapes in a GGUF report. */
    private static final int GGUF_SHAPE_MIN = 24;

    private static String gguf(Path path) throws IOException {
        GgufHeader h = Gguf.readHeader(path);
        StringBuilder b = new StringBuilder(TerminalText.of(path.toString()) + ": GGUF version " + h.version() + ", " + h.metadata().size()
                + " metadata key" + (h.metadata().size() == 1 ? "" : "s") + ", " + h.tensors().size() + " tensor"
                + (h.tensors().size() == 1 ? "" : "s") + ", alignment " + h.alignment() + ", data at byte "
                + h.dataOffset() + "\n");
        for (Map.Entry<String, GgufValue> m : h.metadata().entrySet()) {
            GgufValue v = m.getValue();
            b.append("  ").append(TerminalText.of(m.getKey())).append(" = ").append(ggufValue(v));
            if (v.elementType() == null) {
                b.append("  (").append(v.type().name().toLowerCase(Locale.ROOT)).append(')');
            }
            b.append('\n');
        }
        List<GgufTensorInfo> tensors = h.tensors();
        String[] names = new String[tensors.size()];
        String[] shapes = new String[tensors.size()];
        int nameWidth = GGUF_NAME_MIN;
        int shapeWidth = GGUF_SHAPE_MIN;
        for (int i = 0; i < names.length; i++) {
            GgufTensorInfo t = tensors.get(i);
            String shape = java.util.Arrays.toString(t.dimensions()).replace(" ", "");
            names[i] = TerminalText.of(t.name());
            shapes[i] = t.type().elementType() != null ? t.type().elementType().hloName() + shape : shape;
            nameWidth = Math.max(nameWidth, names[i].length());
            shapeWidth = Math.max(shapeWidth, shapes[i].length());
        }
        nameWidth = Math.min(nameWidth, NAME_COLUMN);
        padded(padded(padded(padded(b.append("  "), "tensor", nameWidth).append(' '), "type", 7).append(' '),
                "shape (ne reversed)", shapeWidth).append(' '), "bytes", 22).append(" offset in data\n");
        long total = 0;
        for (int i = 0; i < names.length; i++) {
            GgufTensorInfo t = tensors.get(i);
            String note = t.type().elementType() == null && t.type().quantBlock() == null ? "  (not dequantized by Tegula)" : "";
            padded(padded(padded(padded(b.append("  "), names[i], nameWidth).append(' '), t.type().toString(), 7)
                    .append(' '), shapes[i], shapeWidth).append(' '), ByteCounts.text(t.byteSize()), 22).append(' ')
                    .append(t.offset()).append(note).append('\n');
            total += t.byteSize();
        }
        return b.append("  total ").append(ByteCounts.text(total)).append('\n').toString();
    }
}
