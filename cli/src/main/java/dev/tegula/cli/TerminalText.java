package dev.tegula.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * The one rule for what the {@code tegula} command prints: no control character reaches a terminal
 * raw, and no value from outside is printed at any length. Stateless, thread-safe.
 *
 * <p>The rule is applied twice over. Where a line takes a value from outside the command (a tensor,
 * file or shard name, metadata, text a user typed, a library's exception message), the value goes
 * through {@link #of} (or {@link #message} for text whose parts are not known), which escapes it and
 * cuts it; and the command's two streams are {@link #writer writers} that escape every control
 * character still reaching them but the line ends the command writes itself ({@code System.out}
 * and {@code System.err} too, for what a library prints on its own: {@link #stream}).
 *
 * <ul>
 *   <li><b>Escaped:</b> control characters (C0, DEL, C1: ESC, BEL, the single-character CSI
 *       {@code U+009B}, {@code U+0085} ...), format characters (the bidirectional overrides such as
 *       {@code U+202E}, zero-width characters), line and paragraph separators, unpaired surrogates,
 *       private-use and unassigned code points. They are written {@code \n}, {@code \r},
 *       {@code \t}, else {@code \xHH} below 256, else <code>&#92;u{HHHH}</code>; a backslash in a value is
 *       doubled, so an escape in the output always stands for one character. An escape sequence
 *       ({@code ESC[31m}, {@code ESC]0;title BEL}) is therefore printed as text and does nothing.</li>
 *   <li><b>Cut:</b> a value after {@value #MAX_CHARS} characters, with {@code ... (N more characters)}
 *       counting what was left out; in a message, each run of more than {@value #MAX_CHARS}
 *       characters without a space or quote the same way (that is how a name in a library's message
 *       is cut), and the whole message after {@value #MAX_MESSAGE}.</li>
 * </ul>
 */
public final class TerminalText {
    /** The most characters of one value that are printed. */
    public static final int MAX_CHARS = 200;
    /** The most characters of one message (a library's exception text) that are printed. */
    public static final int MAX_MESSAGE = 1000;

    private TerminalText() {
    }

    /** {@return {@code s} escaped and cut to {@link #MAX_CHARS} characters} */
    public static String of(String s) {
        return of(s, MAX_CHARS);
    }

    /**
     * {@return {@code s} escaped as the class describes, cut after {@code max} characters of the
     * original with {@code ... (N more characters)}}
     */
    public static String of(String s, int max) {
        if (s == null) {
            return "null";
        }
        int keep = cutAt(s, 0, s.length(), max);
        StringBuilder b = new StringBuilder(keep + 32);
        escape(s, 0, keep, b);
        if (keep < s.length()) {
            more(b, s.length() - keep);
        }
        return b.toString();
    }

    /**
     * {@return text whose make-up is not known (a library's exception message, which may quote a
     * name from a file) escaped, each run of more than {@link #MAX_CHARS} characters without a space
     * or quote cut as {@link #of} cuts a value, and the whole cut after {@link #MAX_MESSAGE}
     * characters}
     */
    public static String message(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX_MESSAGE) + 32);
        int kept = 0;   // characters of s printed (escaped) so far
        int i = 0;
        while (i < s.length() && kept < MAX_MESSAGE) {
            int run = i;
            while (run < s.length() && !boundary(s.charAt(run))) {
                run++;
            }
            int keep = cutAt(s, i, run, Math.min(MAX_CHARS, MAX_MESSAGE - kept));
            if (keep == i && i < run) {
                break;   // one place left, and a surrogate pair to fill it
            }
            escape(s, i, keep, b);
            kept += keep - i;
            if (keep < run && keep - i == MAX_CHARS) {
                more(b, run - keep);   // a long name: cut as a value is, and the message goes on
                i = run;
            } else {
                i = keep;
            }
            while (i < s.length() && kept < MAX_MESSAGE && boundary(s.charAt(i))) {
                escape(s, i, i + 1, b);
                kept++;
                i++;
            }
        }
        if (i < s.length()) {
            more(b, s.length() - i);
        }
        return b.toString();
    }

    /**
     * {@return two lines: {@code text} escaped (at most {@link #MAX_CHARS} characters of it around
     * {@code offset}, {@code ...} where it is cut) and a caret under the character at {@code offset}}
     */
    public static String caret(String text, int offset) {
        int at = Math.clamp(offset, 0, text.length());
        int from = Math.max(0, Math.min(at - MAX_CHARS / 2, text.length() - MAX_CHARS));
        if (from > 0 && Character.isLowSurrogate(text.charAt(from))) {
            from++;
        }
        int to = cutAt(text, from, text.length(), MAX_CHARS);
        StringBuilder line = new StringBuilder(from > 0 ? "..." : "");
        escape(text, from, Math.min(at, to), line);
        int column = line.codePointCount(0, line.length());
        escape(text, Math.min(at, to), to, line);
        if (to < text.length()) {
            line.append("...");
        }
        return line + "\n" + " ".repeat(column) + "^";
    }

    /**
     * {@return a writer over {@code out} that escapes, as {@link #of} does, every character the rule
     * escapes except the line end {@code \n}; backslashes pass as they are (a value put into a line
     * was escaped already)} {@link #carriageReturn} writes the one other control character the
     * command uses: the progress bar's return to the start of its line.
     */
    public static PrintWriter writer(Writer out) {
        return new Escaping(out);
    }

    /**
     * {@return a print stream over {@code raw} that escapes what is printed to it as {@link #writer}
     * does} For code that prints on its own, such as a library's logger: {@link Main#main} makes
     * {@code System.out} and {@code System.err} such streams. Bytes are decoded in {@code charset}
     * (a sequence split between two writes is joined), escaped, and encoded again.
     */
    public static PrintStream stream(OutputStream raw, Charset charset) {
        Writer escaped = new Filter(new OutputStreamWriter(raw, charset));
        CharsetDecoder decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        OutputStream decoding = new OutputStream() {
            private final ByteBuffer bytes = ByteBuffer.allocate(4096);
            private final CharBuffer chars = CharBuffer.allocate(4096);

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) throws IOException {
                while (len > 0) {
                    int n = Math.min(len, bytes.remaining());
                    bytes.put(b, off, n);
                    off += n;
                    len -= n;
                    bytes.flip();
                    CoderResult r;
                    do {
                        r = decoder.decode(bytes, chars, false);
                        chars.flip();
                        escaped.write(chars.array(), chars.position(), chars.remaining());
                        chars.clear();
                    } while (r.isOverflow());
                    bytes.compact();
                }
            }

            @Override
            public synchronized void flush() throws IOException {
                escaped.flush();
            }
        };
        return new PrintStream(decoding, true, charset);
    }

    /** Writes a carriage return to {@code w} past the escaping of a {@link #writer}: a progress bar redraws its line. */
    public static void carriageReturn(PrintWriter w) {
        if (w instanceof Escaping e) {
            e.carriageReturn();
        } else {
            w.print('\r');
        }
    }

    /** {@return true if the rule escapes code point {@code c}} */
    public static boolean escaped(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED -> true;
            default -> false;
        };
    }

    /** {@return the end of at most {@code max} characters of {@code s} from {@code from}, not splitting a surrogate pair} */
    private static int cutAt(String s, int from, int to, int max) {
        if (to - from <= max) {
            return to;
        }
        int keep = from + max;
        if (keep > from && Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        return keep;
    }

    private static boolean boundary(char c) {
        return c == ' ' || c == '\'' || c == '"';
    }

    private static void more(StringBuilder b, int left) {
        b.append("... (").append(left).append(left == 1 ? " more character)" : " more characters)");
    }

    /** Appends {@code s[from, to)} escaped; a high surrogate at {@code to - 1} is taken as unpaired. */
    private static void escape(String s, int from, int to, StringBuilder b) {
        for (int i = from; i < to; ) {
            char ch = s.charAt(i);
            int c = Character.isHighSurrogate(ch) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))
                    ? Character.toCodePoint(ch, s.charAt(i + 1)) : ch;
            i += Character.charCount(c);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (escaped(c)) {
                        hex(c, b);
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        }
    }

    private static void hex(int c, StringBuilder b) {
        String h = Integer.toHexString(c);
        if (c < 0x100) {
            b.append("\\x").append(h.length() < 2 ? "0" : "").append(h);
        } else {
            b.append("\\u{").append("0".repeat(Math.max(0, 4 - h.length()))).append(h).append('}');
        }
    }

    /**
     * The escaping writer: characters pass one by one (a surrogate pair split between two writes
     * is joined), a line end {@code \n} as it is, every character the rule escapes as its escape.
     */
    private static final class Escaping extends PrintWriter {
        private final Writer raw;

        Escaping(Writer raw) {
            super(new Filter(raw));
            this.raw = raw;
        }

        void carriageReturn() {
            synchronized (lock) {
                flush();
                try {
                    raw.write('\r');
                    raw.flush();
                } catch (IOException e) {
                    setError();
                }
            }
        }
    }

    private static final class Filter extends Writer {
        private final Writer out;
        private char pendingHigh;

        Filter(Writer out) {
            super(out);
            this.out = out;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            StringBuilder b = new StringBuilder(len + 16);
            for (int i = off; i < off + len; i++) {
                char c = cbuf[i];
                if (pendingHigh != 0) {
                    char high = pendingHigh;
                    pendingHigh = 0;
                    if (Character.isLowSurrogate(c)) {
                        int cp = Character.toCodePoint(high, c);
                        if (escaped(cp)) {
                            hex(cp, b);
                        } else {
                            b.append(high).append(c);
                        }
                        continue;
                    }
                    hex(high, b);
                }
                if (Character.isHighSurrogate(c)) {
                    pendingHigh = c;
                } else if (c == '\n') {
                    b.append(c);
                } else if (escaped(c)) {
                    switch (c) {
                        case '\r' -> b.append("\\r");
                        case '\t' -> b.append("\\t");
                        default -> hex(c, b);
                    }
                } else {
                    b.append(c);
                }
            }
            out.write(b.toString());
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (pendingHigh != 0) {
                StringBuilder b = new StringBuilder();
                hex(pendingHigh, b);
                pendingHigh = 0;
                out.write(b.toString());
            }
            out.close();
        }
    }
}
