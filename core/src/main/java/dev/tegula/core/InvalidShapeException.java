package dev.tegula.core;

/**
 * Thrown when shape or layout text parses but describes a shape that fails validation (a
 * {@code minor_to_major} that is not a permutation, a tile size of 0, ...). Like
 * {@link ShapeParseException} for text that does not parse, it carries the text and the character
 * offset of the offending part (the entry, tile size or attribute named in the problem; the start of
 * the shape where the problem is the shape's as a whole), and reads alike: {@code at offset 11:
 * layout minor_to_major field has duplicate values: {0,0}; shape: f32[2,3] in 'f32[2,3]{0,0}'}.
 * Immutable.
 */
public final class InvalidShapeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final int offset;
    private final String problem;

    /**
     * @param text    the whole text that was parsed
     * @param offset  0-based character offset of the part that fails validation
     * @param problem what is wrong, naming the field and its value
     */
    public InvalidShapeException(String text, int offset, String problem) {
        super("at offset " + offset + ": " + problem + " in '" + text + "'");
        this.text = text;
        this.offset = offset;
        this.problem = problem;
    }

    /** {@return the text that was parsed} */
    public String text() {
        return text;
    }

    /** {@return the 0-based character offset of the part that fails validation} */
    public int offset() {
        return offset;
    }

    /** {@return what is wrong, without the offset and the text (the validator's message)} */
    public String problem() {
        return problem;
    }

    /** {@return two lines: the text, and a caret under the offending character} */
    public String caretDiagram() {
        return text + "\n" + " ".repeat(Math.max(0, Math.min(offset, text.length()))) + "^";
    }
}
