package dev.tegula.cli;

import java.io.Serial;

/**
 * Input the command cannot work with (text that is not a shape, an invalid shape, an option out of
 * range): the command prints {@link #getMessage()} as one line, then {@link #detail()} if any, and
 * exits with status 2.
 */
public final class BadInputException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String detail;

    public BadInputException(String message, String detail) {
        super(message, null, false, false);
        this.detail = detail;
    }

    public BadInputException(String message) {
        this(message, null);
    }

    /** {@return lines to print after the message (e.g. the text with a caret), or null} */
    public String detail() {
        return detail;
    }
}
