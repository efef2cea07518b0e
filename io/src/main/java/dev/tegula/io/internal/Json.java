package dev.tegula.io.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A strict, minimal JSON parser (RFC 8259) for safetensors headers. Objects become
 * {@code LinkedHashMap<String, Object>} in document order (a repeated key is an error), arrays
 * {@code List<Object>}, strings {@code String}, integers without fraction or exponent
 * {@code Long} (or {@code BigInteger} past the long range), other numbers {@code Double},
 * {@code true}/{@code false} {@code Boolean}, {@code null} {@link #NULL}.
 *
 * <p>Limits keep a hostile header from costing more than its own size: nesting depth
 * {@value #MAX_DEPTH}, integer parts of at most {@value #MAX_DIGITS} digits, and the input is a
 * {@code String} the caller has already size-checked. One pass reads each character once, and an
 * object's keys are checked for repeats through a hash map, so a parse takes time linear in the
 * text (each pass is counted in {@link WorkCounts}).
 * Errors are {@link HeaderText.Malformed} with the character offset.
 *
 * <p>{@link #quote} and {@link #write} go the other way: JSON text of a string and of the values
 * the parser gives.
 */
public final class Json {
    /** The deepest nesting accepted. */
    public static final int MAX_DEPTH = 64;
    /**
     * The most digits of a number's integer part: a longer one is refused, since turning a number
     * of {@code d} digits into a {@code BigInteger} costs time quadratic in {@code d}.
     */
    public static final int MAX_DIGITS = 1000;
    /** The value of JSON {@code null}. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private final String s;
    private int pos;
    /** While {@link #replaceStringValues} parses: the keys whose string values it collects, else null. */
    private Set<String> watched;
    /** The start and end offsets of each watched string value, in document order. */
    private final List<int[]> spans = new ArrayList<>();

    private Json(String s) {
        this.s = s;
    }

    /** {@return the single JSON value of {@code text}; whitespace may surround it} */
    public static Object parse(String text) throws HeaderText.Malformed {
        Json p = new Json(text);
        try {
            p.skipSpace();
            Object v = p.value(0);
            p.skipSpace();
            if (p.pos != text.length()) {
                throw p.error("end of input after the value");
            }
            return v;
        } finally {
            p.counted(p.pos);
        }
    }

    /** Counts one pass over the text that read {@code chars} characters ({@link WorkCounts}). */
    private void counted(long chars) {
        WorkCounts.add(WorkCounts.Kind.TEXT_PARSES, 1);
        WorkCounts.add(WorkCounts.Kind.TEXT_CHARS, chars);
    }

    /**
     * {@return {@code text} with the string values of the keys {@code keys} (in objects at any depth)
     * replaced by what {@code replace} gives for them, every other character kept as it was} The
     * text must be one valid JSON value (it is parsed as {@link #parse} parses). {@code replace}
     * gets each such value as parsed and returns the new value, or the same string to keep it as
     * written (its quoting and escapes untouched); a value that is not a string is left alone.
     *
     * @throws HeaderText.Malformed if {@code text} is not valid JSON
     */
    public static String replaceStringValues(String text, Set<String> keys, UnaryOperator<String> replace)
            throws HeaderText.Malformed {
        Json p = new Json(text);
        p.watched = Set.copyOf(keys);
        long reread = 0;
        try {
            p.skipSpace();
            p.value(0);
            p.skipSpace();
            if (p.pos != text.length()) {
                throw p.error("end of input after the value");
            }
        } finally {
            p.counted(p.pos);
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        int at = 0;
        for (int[] span : p.spans) {
            Json value = new Json(text);
            value.pos = span[0];
            String old = value.string();
            reread += span[1] - span[0];
            String now = replace.apply(old);
            if (!now.equals(old)) {
                b.append(text, at, span[0]);
                quote(b, now);
                at = span[1];
            }
        }
        WorkCounts.add(WorkCounts.Kind.TEXT_CHARS, reread);
        return b.append(text, at, text.length()).toString();
    }

    /**
     * Appends {@code value} as compact JSON text: a {@code Map} as an object (its keys as strings,
     * in its order), a {@code List} as an array, a {@code String} quoted, numbers and booleans as
     * Java writes them, {@link #NULL} (or null) as {@code null}.
     *
     * @throws IllegalArgumentException if a value is of another type or a non-finite number
     */
    public static StringBuilder write(StringBuilder b, Object value) {
        switch (value) {
            case null -> b.append("null");
            case String s -> quote(b, s);
            case Map<?, ?> m -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(first ? "" : ",");
                    quote(b, String.valueOf(e.getKey())).append(':');
                    write(b, e.getValue());
                    first = false;
                }
                b.append('}');
            }
            case List<?> l -> {
                b.append('[');
                for (int i = 0; i < l.size(); i++) {
                    write(b.append(i > 0 ? "," : ""), l.get(i));
                }
                b.append(']');
            }
            case Double d when !d.isInfinite() && !d.isNaN() -> b.append(d);
            case Long n -> b.append(n);
            case Integer n -> b.append(n);
            case BigInteger n -> b.append(n);
            case Boolean v -> b.append(v);
            default -> {
                if (value != NULL) {
                    throw new IllegalArgumentException("value: " + value + " (" + value.getClass().getSimpleName()
                            + ") has no JSON form");
                }
                b.append("null");
            }
        }
        return b;
    }

    /** Appends {@code s} as a JSON string: in quotes, a quote and a backslash escaped with a backslash, control characters as six-character escapes. */
    public static StringBuilder quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"');
    }

    private Object value(int depth) throws HeaderText.Malformed {
        if (depth > MAX_DEPTH) {
            throw error("nesting no deeper than " + MAX_DEPTH);
        }
        if (pos >= s.length()) {
            throw error("a value");
        }
        char c = s.charAt(pos);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("a value");
            }
        };
    }

    private Map<String, Object> object(int depth) throws HeaderText.Malformed {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("a string key");
            }
            int at = pos;
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            int valueAt = pos;
            Object v = value(depth + 1);
            if (watched != null && v instanceof String && watched.contains(key)) {
                spans.add(new int[] {valueAt, pos});
            }
            if (m.putIfAbsent(key, v) != null) {
                pos = at;
                throw error("no repeated key (\"" + HeaderText.shorten(key) + "\" appears twice)");
            }
            skipSpace();
            char c = peek();
            pos++;
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                pos--;
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) throws HeaderText.Malformed {
        pos++;
        List<Object> l = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return Collections.unmodifiableList(l);
        }
        while (true) {
            skipSpace();
            l.add(value(depth + 1));
            skipSpace();
            char c = peek();
            pos++;
            if (c == ']') {
                return Collections.unmodifiableList(l);
            }
            if (c != ',') {
                pos--;
                throw error("',' or ']'");
            }
        }
    }

    private String string() throws HeaderText.Malformed {
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw error("a closing '\"'");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("no control character in a string (found U+" + String.format("%04X", (int) c) + ")");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> b.append(hex4());
                default -> {
                    pos--;
                    throw error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u and four hex digits)");
                }
            }
        }
    }

    private char hex4() throws HeaderText.Malformed {
        if (pos + 4 > s.length()) {
            throw error("four hex digits");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(s.charAt(pos), 16);
            if (d < 0) {
                throw error("a hex digit");
            }
            v = v * 16 + d;
            pos++;
        }
        return (char) v;
    }

    private Object number() throws HeaderText.Malformed {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digitsAt = pos;
        if (peek() == '0') {
            pos++;
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9') {
                pos++;
            }
            if (pos - digitsAt > MAX_DIGITS) {
                pos = start;
                throw error("an integer part of at most " + MAX_DIGITS + " digits");
            }
        } else {
            throw error("a digit");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            pos++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            digits();
        }
        String t = s.substring(start, pos);
        if (!integral) {
            return Double.parseDouble(t);
        }
        if (t.length() <= 18) {
            return Long.parseLong(t);
        }
        BigInteger big = new BigInteger(t);
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private void digits() throws HeaderText.Malformed {
        if (!(peek() >= '0' && peek() <= '9')) {
            throw error("a digit");
        }
        while (peek() >= '0' && peek() <= '9') {
            pos++;
        }
    }

    private Object literal(String word, Object v) throws HeaderText.Malformed {
        if (!s.startsWith(word, pos)) {
            throw error("a value");
        }
        pos += word.length();
        return v;
    }

    private void expect(char c) throws HeaderText.Malformed {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private HeaderText.Malformed error(String expected) {
        return HeaderText.malformed(s, pos, expected, "end of input");
    }
}
