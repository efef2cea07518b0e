package dev.tegula.io.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser for the Python literals an {@code .npy} header holds (the subset of
 * {@code ast.literal_eval} that NumPy writes and reads): dicts with string keys, tuples, lists,
 * strings in single or double quotes (optionally {@code u}/{@code b} prefixed), decimal integers
 * (Python 2 files may end them with {@code L}), {@code True}, {@code False}, {@code None}.
 * Dicts become {@code LinkedHashMap} (a repeated key is an error), tuples {@link Tuple}, lists
 * {@code List}, integers {@code Long} or {@code BigInteger}, {@code None} {@link #NONE}.
 * Nesting is limited to {@value #MAX_DEPTH}.
 */
public final class PyLiteral {
    public static final int MAX_DEPTH = 32;
    /** Python's {@code None}. */
    public static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "None";
        }
    };

    /** A Python tuple (as opposed to a list). */
    public record Tuple(List<Object> items) {
    }

    private final String s;
    private int pos;

    private PyLiteral(String s) {
        this.s = s;
    }

    /** {@return the value of the literal {@code text}; surrounding whitespace is allowed} */
    public static Object parse(String text) throws HeaderText.Malformed {
        PyLiteral p = new PyLiteral(text);
        try {
            p.skipSpace();
            Object v = p.value(0);
            p.skipSpace();
            if (p.pos != text.length()) {
                throw p.error("end of the header after the literal");
            }
            return v;
        } finally {
            WorkCounts.add(WorkCounts.Kind.TEXT_PARSES, 1);
            WorkCounts.add(WorkCounts.Kind.TEXT_CHARS, p.pos);
        }
    }

    private Object value(int depth) throws HeaderText.Malformed {
        if (depth > MAX_DEPTH) {
            throw error("nesting no deeper than " + MAX_DEPTH);
        }
        char c = peek();
        if (c == '{') {
            return dict(depth);
        }
        if (c == '(' || c == '[') {
            return sequence(depth, c);
        }
        if (c == '\'' || c == '"') {
            return string();
        }
        if ((c == 'u' || c == 'b' || c == 'U' || c == 'B') && pos + 1 < s.length()
                && (s.charAt(pos + 1) == '\'' || s.charAt(pos + 1) == '"')) {
            pos++;
            return string();
        }
        if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
            return integer();
        }
        if (s.startsWith("True", pos)) {
            return word("True", Boolean.TRUE);
        }
        if (s.startsWith("False", pos)) {
            return word("False", Boolean.FALSE);
        }
        if (s.startsWith("None", pos)) {
            return word("None", NONE);
        }
        throw error("a Python literal (dict, tuple, list, string, integer, True, False, None)");
    }

    private Map<String, Object> dict(int depth) throws HeaderText.Malformed {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        while (true) {
            skipSpace();
            if (peek() == '}') {
                pos++;
                return m;
            }
            int at = pos;
            if (!(peek() == '\'' || peek() == '"')) {
                throw error("a string key or '}'");
            }
            String key = string();
            skipSpace();
            if (peek() != ':') {
                throw error("':'");
            }
            pos++;
            skipSpace();
            Object v = value(depth + 1);
            if (m.putIfAbsent(key, v) != null) {
                pos = at;
                throw error("no repeated key ('" + HeaderText.shorten(key) + "' appears twice)");
            }
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else if (peek() != '}') {
                throw error("',' or '}'");
            }
        }
    }

    private Object sequence(int depth, char open) throws HeaderText.Malformed {
        char close = open == '(' ? ')' : ']';
        pos++;
        List<Object> items = new ArrayList<>();
        boolean comma = false;
        while (true) {
            skipSpace();
            if (peek() == close) {
                pos++;
                break;
            }
            items.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                pos++;
                comma = true;
            } else if (peek() != close) {
                throw error("',' or '" + close + "'");
            }
        }
        if (open == '[') {
            return List.copyOf(items);
        }
        if (items.size() == 1 && !comma) {
            return items.getFirst();        // (x) is x, not a tuple
        }
        return new Tuple(List.copyOf(items));
    }

    private String string() throws HeaderText.Malformed {
        char quote = s.charAt(pos++);
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw error("a closing " + quote);
            }
            char c = s.charAt(pos++);
            if (c == quote) {
                return b.toString();
            }
            if (c == '\n' || c == '\r') {
                pos--;
                throw error("the end of the string before the line ends");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) {
                throw error("an escaped character");
            }
            char e = s.charAt(pos++);
            switch (e) {
                case '\\', '\'', '"' -> b.append(e);
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case '0' -> b.append('\0');
                default -> {
                    pos--;
                    throw error("a supported escape (\\\\ \\' \\\" \\n \\t \\r \\0)");
                }
            }
        }
    }

    private Object integer() throws HeaderText.Malformed {
        int start = pos;
        if (peek() == '-' || peek() == '+') {
            pos++;
        }
        int digits = pos;
        while (peek() >= '0' && peek() <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw error("a digit");
        }
        if (pos - digits > 1 && s.charAt(digits) == '0') {
            pos = digits;
            throw error("a decimal integer without leading zeros");
        }
        if (peek() == '.' || peek() == 'e' || peek() == 'E' || peek() == 'j' || peek() == 'x') {
            throw error("an integer (no float, complex or hex literal)");
        }
        String t = s.substring(start, pos);
        if (peek() == 'L' || peek() == 'l') {
            pos++;                          // Python 2 long suffix, as NumPy's reader accepts
        }
        if (pos - digits > 1000) {
            pos = start;
            throw error("an integer of at most 1000 digits");
        }
        BigInteger v = new BigInteger(t.startsWith("+") ? t.substring(1) : t);
        return v.bitLength() < 64 ? (Object) v.longValue() : v;
    }

    private Object word(String w, Object v) throws HeaderText.Malformed {
        int end = pos + w.length();
        if (end < s.length() && Character.isLetterOrDigit(s.charAt(end))) {
            throw error("a Python literal");
        }
        pos = end;
        return v;
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == '\n'
                || s.charAt(pos) == '\r')) {
            pos++;
        }
    }

    private HeaderText.Malformed error(String expected) {
        return HeaderText.malformed(s, pos, expected, "end of header");
    }
}
