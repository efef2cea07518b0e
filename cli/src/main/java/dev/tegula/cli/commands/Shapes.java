package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.cli.TerminalText;

import dev.tegula.core.InvalidShapeException;
import dev.tegula.core.Shape;
import dev.tegula.core.ShapeParseException;

import java.util.List;

/** Reads the shape arguments of the commands. */
final class Shapes {
    private Shapes() {
    }

    /**
     * {@return the shape written in {@code words}} The words are joined with spaces first, so an
     * unquoted tuple such as {@code (f32[2], token[])} that the shell split in two still reads.
     *
     * @throws BadInputException if the text is not a shape (with a caret diagram) or the shape is invalid (one
     *                           line, with the offset)
     */
    static Shape parse(List<String> words) {
        String text = String.join(" ", words);
        try {
            return Shape.parse(text);
        } catch (ShapeParseException e) {
            throw new BadInputException("not a shape: " + TerminalText.message(e.expected()) + " (at offset "
                    + e.offset() + ")", TerminalText.caret(e.text(), e.offset()));
        } catch (InvalidShapeException e) {
            throw new BadInputException("invalid shape: " + TerminalText.message(e.problem()) + " (at offset "
                    + e.offset() + ")");
        } catch (IllegalArgumentException e) {
            throw new BadInputException("invalid shape: " + TerminalText.message(e.getMessage()));
        }
    }
}
