package dev.tegula.cli.bench;

import java.io.PrintWriter;

/**
 * A progress bar on stderr, hand-made (a dozen lines; a library would bring a terminal library
 * with it). On a terminal it redraws one line in place; otherwise (a pipe, a file, a test) it
 * prints one line per labelled stage, so logs stay readable.
 */
final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final long total;
    private final boolean inPlace;
    private final long start = System.nanoTime();
    private String lastLabel;
    private int lastLength;

    /**
     * @param err     where to draw
     * @param total   the steps in all
     * @param inPlace redraw one line with carriage returns (a terminal) rather than print lines
     */
    ProgressBar(PrintWriter err, long total, boolean inPlace) {
        this.err = err;
        this.total = Math.max(1, total);
        this.inPlace = inPlace;
    }

    /** {@return true if the standard streams are a terminal (JDK 22+ {@code Console.isTerminal})} */
    static boolean onTerminal() {
        return System.console() != null && System.console().isTerminal();
    }

    /** Shows {@code done} of the total steps, working on {@code label}. */
    void step(long done, String label) {
        if (inPlace) {
            int filled = (int) (WIDTH * Math.min(done, total) / total);
            double elapsed = (System.nanoTime() - start) / 1e9;
            String eta = done > 0 && done < total ? String.format(" ~%.0f s left", elapsed * (total - done) / done) : "";
            String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                    + String.format("%3d%%", 100 * Math.min(done, total) / total) + " " + label + eta;
            err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
        } else if (!label.equals(lastLabel)) {
            err.println(String.format("[%3d%%] %s", 100 * Math.min(done, total) / total, label));
        }
        lastLabel = label;
        err.flush();
    }

    /** Ends the bar (a newline after an in-place bar). */
    void finish() {
        if (inPlace) {
            err.println();
        }
        err.flush();
    }
}
