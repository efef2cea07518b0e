package dev.tegula.core;

/**
 * Thrown when text is not a shape in XLA's HLO syntax. Carries the character offset where parsing
 * failed and what was expected there.
 */
public final class ShapeParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final int offset;
    private final String expected;

    /**
     * @param text     the whole text being parsed
     * @param offset   0-based character offset of the problem
     * @param expected what the parser expected there (or what is wrong)
     */
    public ShapeParseException(String text, int offset, String expected) {
        super("at offset " + offset + ": " + expected + " in '" + text + "'");
        this.text = text;
        this.offset = offset;
        this.expected = expected;
    }

    /** {@return the text being parsed} */
    public String text() {
        return text;
    }

    /** {@return the 0-based character offset of the problem} */
    public int offset() {
        return offset;
    }

    /** {@return what the parser expected at the offset} */
    public String expected() {
        return expected;
    }

    /** {@return two lines: the text, and a caret under the offending character} */
    public String caretDiagram() {
        return text + "\n" + " ".repeat(Math.max(0, Math.min(offset, text.length()))) + "^";
    }
}
