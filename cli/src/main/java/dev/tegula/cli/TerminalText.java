package dev.tegula.cli;

/**
 * Text from a file, made safe to print on a terminal: control and format characters (ESC, NUL,
 * newlines, bidirectional overrides, ...) are written as escapes, and long values are cut with a
 * count of what was left out. Stateless.
 */
public final class TerminalText {
    /** The most characters of one value that are printed. */
    public static final int MAX_CHARS = 200;

    private TerminalText() {
    }

    /** {@return {@code s} escaped and cut to {@link #MAX_CHARS} characters} */
    public static String of(String s) {
        return of(s, MAX_CHARS);
    }

    /**
     * {@return {@code s} with every control or format character escaped ({@code \n}, {@code \t},
     * {@code \r}, {@code \\}, else {@code \xHH} below 256, else a backslash, u and the hex code point in braces), cut after {@code max}
     * characters of the original with {@code ... (N more characters)}}
     */
    public static String of(String s, int max) {
        if (s == null) {
            return "null";
        }
        int keep = Math.min(s.length(), max);
        if (keep < s.length() && Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        StringBuilder b = new StringBuilder(keep + 16);
        for (int i = 0; i < keep; ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (unsafe(c)) {
                        b.append(c < 0x100 ? String.format("\\x%02x", c) : String.format("\\u{%04x}", c));
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        }
        if (keep < s.length()) {
            b.append("... (").append(s.length() - keep).append(" more characters)");
        }
        return b.toString();
    }

    private static boolean unsafe(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED -> true;
            default -> false;
        };
    }
}
