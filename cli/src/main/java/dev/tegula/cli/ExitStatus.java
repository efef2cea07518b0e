package dev.tegula.cli;

/**
 * The exit statuses of the {@code tegula} command and its subcommands: 0 on success, 1 for an
 * internal error, 2 for input the command cannot work with (with a one-line reason on stderr).
 */
public final class ExitStatus {
    /** Exit status for success. */
    public static final int OK = 0;
    /** Exit status for an internal error. */
    public static final int INTERNAL_ERROR = 1;
    /** Exit status for input the command cannot work with. */
    public static final int BAD_INPUT = 2;

    private ExitStatus() {
    }
}
