import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes ffm's typed element accessors ({@code FloatAccessor}, {@code DoubleAccessor}, ...) from one
 * template, at build time (Maven's generate-sources phase runs it with the build's JDK, as a source
 * file: {@code java GenerateAccessors.java TEMPLATE OUTPUT_ROOT}). Each row of {@link #ACCESSORS} fills
 * the template's {@code {{key}}} places: the class name, the value type, the element types it takes,
 * the slot's byte shift, the read and write expressions and the documentation of the conversion. A
 * file is rewritten only when its text changes, so an unchanged build recompiles nothing. A place
 * the row does not fill, or a key the template does not use, fails the build.
 */
public final class GenerateAccessors {
    private GenerateAccessors() {
    }

    private static final String FLOAT_EXAMPLE = "x.get(i, j) * 2";
    private static final String INT_EXAMPLE = "x.get(i, j) + 1";
    private static final String EXACT_FLOAT = "{@code get} returns the stored value and {@code set} stores"
            + " {@code value}, bit for bit (NaN payloads included).";
    private static final String EXACT_INT = "{@code get} returns the stored two's-complement integer and"
            + " {@code set} stores {@code value}.";

    /** One accessor class: the template's places and what fills them. */
    private static Map<String, String> row(String name, String factory, String typeText, String value,
                                           String accepts, int shift, String imports, String read, String write,
                                           String example, String conversion) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Name", name);
        m.put("factory", factory);
        m.put("typeText", typeText);
        m.put("value", value);
        m.put("accepts", accepts);
        m.put("shift", Integer.toString(shift));
        m.put("imports", imports);
        m.put("codecImport", "");
        m.put("read", read);
        m.put("write", write);
        m.put("example", example);
        m.put("conversion", conversion);
        m.put("fields", "");
        m.put("params", "");
        m.put("init", "");
        m.put("setNote", "");
        return m;
    }

    private static String codec(String name) {
        return "import dev.tegula.ffm.codec." + name + ";\n";
    }

    private static String layout(String name) {
        return "import static java.lang.foreign.ValueLayout." + name + ";\n";
    }

    static final List<Map<String, String>> ACCESSORS = List.of(
            row("DoubleAccessor", "doubleAccessor", "f64", "double",
                    "type == ElementType.F64 && slotBits == 64", 3, layout("JAVA_DOUBLE_UNALIGNED"),
                    "segment.get(JAVA_DOUBLE_UNALIGNED, o)", "segment.set(JAVA_DOUBLE_UNALIGNED, o, value)",
                    FLOAT_EXAMPLE, EXACT_FLOAT),
            row("FloatAccessor", "floatAccessor", "f32", "float",
                    "type == ElementType.F32 && slotBits == 32", 2, layout("JAVA_FLOAT_UNALIGNED"),
                    "segment.get(JAVA_FLOAT_UNALIGNED, o)", "segment.set(JAVA_FLOAT_UNALIGNED, o, value)",
                    FLOAT_EXAMPLE, EXACT_FLOAT),
            row("LongAccessor", "longAccessor", "s64", "long",
                    "type == ElementType.S64 && slotBits == 64", 3, layout("JAVA_LONG_UNALIGNED"),
                    "segment.get(JAVA_LONG_UNALIGNED, o)", "segment.set(JAVA_LONG_UNALIGNED, o, value)",
                    INT_EXAMPLE, EXACT_INT),
            row("IntAccessor", "intAccessor", "s32", "int",
                    "type == ElementType.S32 && slotBits == 32", 2, layout("JAVA_INT_UNALIGNED"),
                    "segment.get(JAVA_INT_UNALIGNED, o)", "segment.set(JAVA_INT_UNALIGNED, o, value)",
                    INT_EXAMPLE, EXACT_INT),
            row("ShortAccessor", "shortAccessor", "s16", "short",
                    "type == ElementType.S16 && slotBits == 16", 1, layout("JAVA_SHORT_UNALIGNED"),
                    "segment.get(JAVA_SHORT_UNALIGNED, o)", "segment.set(JAVA_SHORT_UNALIGNED, o, value)",
                    "(short) (x.get(i, j) + 1)", EXACT_INT),
            row("ByteAccessor", "byteAccessor", "s8", "byte",
                    "type == ElementType.S8 && slotBits == 8", 0, layout("JAVA_BYTE"),
                    "segment.get(JAVA_BYTE, o)", "segment.set(JAVA_BYTE, o, value)",
                    "(byte) (x.get(i, j) + 1)", EXACT_INT),
            row("UnsignedByteAccessor", "unsignedByteAccessor", "u8", "int",
                    "type == ElementType.U8 && slotBits == 8", 0, layout("JAVA_BYTE"),
                    "segment.get(JAVA_BYTE, o) & 0xFF", "segment.set(JAVA_BYTE, o, (byte) value)",
                    INT_EXAMPLE, "{@code get} returns the stored byte zero-extended, 0 to 255; {@code set}"
                            + " stores the low 8 bits of {@code value} (two's-complement wrap-around, as"
                            + " {@link Array#setInt(long, long, int)} does: 256 is 0, -1 is 255)."),
            with(with(row("BFloat16Accessor", "bfloat16Accessor", "bf16", "float",
                    "type == ElementType.BF16 && slotBits == 16", 1,
                    layout("JAVA_SHORT_UNALIGNED"),
                    "Float.intBitsToFloat(segment.get(JAVA_SHORT_UNALIGNED, o) << 16)",
                    "segment.set(JAVA_SHORT_UNALIGNED, o, BFloat16.fromFloat(value))",
                    FLOAT_EXAMPLE, "{@code get} widens the stored bfloat16 exactly (its bits are the high half"
                            + " of the float's); {@code set} rounds {@code value} once, to nearest with ties to"
                            + " even, as {@link BFloat16#fromFloat(float)} does (overflow to infinity, NaN kept a"
                            + " NaN)."),
                    "setNote", ", rounded to bfloat16"), "codecImport", codec("BFloat16")),
            with(with(row("Float16Accessor", "float16Accessor", "f16", "float",
                    "type == ElementType.F16 && slotBits == 16", 1,
                    layout("JAVA_SHORT_UNALIGNED"),
                    "Float16.toFloat(segment.get(JAVA_SHORT_UNALIGNED, o))",
                    "segment.set(JAVA_SHORT_UNALIGNED, o, Float16.fromFloat(value))",
                    FLOAT_EXAMPLE, "{@code get} widens the stored binary16 exactly, as"
                            + " {@link Float16#toFloat(short)} does (a NaN keeps its sign and payload);"
                            + " {@code set} rounds {@code value} once, to nearest with ties to even, as"
                            + " {@link Float16#fromFloat(float)} does (magnitudes from 65520 up become"
                            + " infinity)."),
                    "setNote", ", rounded to binary16"), "codecImport", codec("Float16")),
            with(with(with(with(with(row("Float8Accessor", "float8Accessor",
                    "8-bit float (f8e5m2, f8e4m3, f8e4m3fn, f8e4m3b11fnuz, f8e3m4, f8e5m2fnuz, f8e4m3fnuz,"
                            + " f8e8m0fnu, and the fp6 types f6e3m2fn and f6e2m3fn, one per byte)", "float",
                    "type.isFloating() && type.bitWidth() == 8 && slotBits == 8", 0,
                    layout("JAVA_BYTE"),
                    "values[segment.get(JAVA_BYTE, o) & 0xFF]",
                    "segment.set(JAVA_BYTE, o, codes.codes()[ElementIO.foldedIndex(value)])",
                    FLOAT_EXAMPLE, "{@code get} decodes the stored code exactly, through a table of the"
                            + " type's 256 values ({@link ElementCodec#toFloat}); {@code set} rounds"
                            + " {@code value} once, to nearest with ties to even, with the type's rules for"
                            + " overflow and NaN, as {@link ElementCodec#fromFloat} does, through a table of"
                            + " the codes of every float (64 Ki entries, one per type, made on the type's"
                            + " first write in the JVM and shared by all its arrays)."),
                    "setNote", ", rounded to the element type"),
                    "fields", "    /** The value of each code 0..255 (shared, never written). */\n"
                            + "    private final float[] values;\n"
                            + "    /** The code of each float, by {@link ElementIO#foldedIndex} (shared). */\n"
                            + "    private final ElementIO.CodeTable codes;\n"),
                    "params", ", float[] values,\n            ElementIO.CodeTable codes"),
                    "init", "        this.values = values;\n        this.codes = codes;\n"),
                    "codecImport", codec("ElementCodec")));

    private static Map<String, String> with(Map<String, String> row, String key, String text) {
        if (!row.containsKey(key)) {
            throw new IllegalArgumentException("no place " + key);
        }
        row.put(key, text);
        return row;
    }

    private static final Pattern PLACE = Pattern.compile("\\{\\{([A-Za-z]+)}}");

    static String fill(String template, Map<String, String> row) {
        Matcher m = PLACE.matcher(template);
        StringBuilder out = new StringBuilder();
        java.util.Set<String> used = new java.util.HashSet<>();
        while (m.find()) {
            String v = row.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException(row.get("Name") + ": the template's place {{" + m.group(1)
                        + "}} has no value");
            }
            used.add(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        for (String key : row.keySet()) {
            if (!used.contains(key)) {
                throw new IllegalArgumentException(row.get("Name") + ": the template has no place {{" + key + "}}");
            }
        }
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: java GenerateAccessors.java TEMPLATE OUTPUT_ROOT");
        }
        String template = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        Path dir = Path.of(args[1]).resolve("dev/tegula/ffm");
        Files.createDirectories(dir);
        for (Map<String, String> row : ACCESSORS) {
            String text = fill(template, row);
            Path file = dir.resolve(row.get("Name") + ".java");
            if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
        }
    }
}
