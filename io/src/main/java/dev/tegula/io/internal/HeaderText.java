package dev.tegula.io.internal;

import dev.tegula.io.TensorFormatException;
import java.io.Serial;
import java.util.List;

/**
 * Text from a file's header in error messages, one rule for every format: a value is quoted cut
 * short and with control characters shown as {@code ?} (so a hostile file can neither flood a
 * message nor steer a terminal), a bad field is named as {@code FILE: FIELD WHAT}, and text that
 * does not parse ({@link Json}, {@link PyLiteral}) is reported as {@link Malformed}.
 */
public final class HeaderText {
    /** The most characters of a file's text that a message quotes. */
    public static final int MAX_QUOTED = 40;

    private HeaderText() {
    }

    /** {@return {@code text} cut to {@value #MAX_QUOTED} characters ({@code ...} marks the cut), controls as {@code ?}} */
    public static String shorten(String text) {
        String c = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
        StringBuilder b = new StringBuilder(c.length());
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            b.append(ch < 0x20 || ch == 0x7f ? '?' : ch);
        }
        return b.toString();
    }

    /** The most names {@link #some} lists. */
    public static final int MAX_LISTED = 8;

    /**
     * {@return the first {@value #MAX_LISTED} of {@code names}, each {@linkplain #shorten shortened},
     * in brackets, then how many more there are} e.g. {@code [a, b]} or
     * {@code [t0, t1, t2, t3, t4, t5, t6, t7, ... 199992 more]}: a message about a header of many
     * entries stays short
     */
    public static String some(List<String> names) {
        StringBuilder b = new StringBuilder("[");
        int n = Math.min(names.size(), MAX_LISTED);
        for (int i = 0; i < n; i++) {
            b.append(i > 0 ? ", " : "").append(shorten(names.get(i)));
        }
        if (names.size() > n) {
            b.append(", ... ").append(names.size() - n).append(" more");
        }
        return b.append(']').toString();
    }

    /** {@return the error for a file whose {@code field} is bad: the message is {@code FILE: FIELD WHAT}} */
    public static TensorFormatException bad(String file, String field, String what) {
        return new TensorFormatException(file + ": " + field + " " + what);
    }

    /**
     * {@return the error for {@code text} that, at character offset {@code pos}, does not hold what
     * was expected} The message quotes the few characters found there.
     *
     * @param expected what should have been there, e.g. {@code "',' or '}'"}
     * @param end      how the end of the text is called when {@code pos} is past it
     */
    public static Malformed malformed(String text, int pos, String expected, String end) {
        String found = pos >= text.length() ? end
                : "'" + shorten(text.substring(pos, Math.min(text.length(), pos + 12))) + "'";
        return new Malformed("expected " + expected + " at offset " + pos + ", found " + found);
    }

    /** Text that does not parse: the message says what was expected, at which offset, and what was found. */
    public static final class Malformed extends Exception {
        @Serial
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
