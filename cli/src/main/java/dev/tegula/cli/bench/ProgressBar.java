package dev.tegula.cli.bench;

import dev.tegula.cli.TerminalText;
import dev.tegula.io.internal.ByteCounts;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A progress bar on stderr, hand-made (a dozen lines; a library would bring a terminal library
 * with it). On a terminal it redraws one line in place; otherwise (a pipe, a file, a test) it
 * prints one line per labelled stage, so logs stay readable. Labels (tensor names) are printed
 * through {@link TerminalText#of}. A rate and the time left are shown only once the bar has run
 * {@link #RATE_AFTER_NANOS} (a rate over the first few milliseconds says nothing).
 */
public final class ProgressBar {
    private static final int WIDTH = 30;
    /** The time after which a rate, and the time left computed from it, are shown: one second. */
    static final long RATE_AFTER_NANOS = 1_000_000_000L;

    private final PrintWriter err;
    private final long total;
    private final boolean inPlace;
    private final long start;
    private String lastLabel;
    private int lastLength;

    /**
     * @param err     where to draw
     * @param total   the steps in all
     * @param inPlace redraw one line with carriage returns (a terminal) rather than print lines
     */
    public ProgressBar(PrintWriter err, long total, boolean inPlace) {
        this(err, total, inPlace, System.nanoTime());
    }

    /**
     * @param err     where to draw
     * @param total   the steps in all
     * @param inPlace redraw one line with carriage returns (a terminal) rather than print lines
     * @param start   when the work began, by {@link System#nanoTime()} (rates are counted from it)
     */
    public ProgressBar(PrintWriter err, long total, boolean inPlace, long start) {
        this.err = err;
        this.total = Math.max(1, total);
        this.inPlace = inPlace;
        this.start = start;
    }

    /** {@return true if the standard streams are a terminal (JDK 22+ {@code Console.isTerminal})} */
    public static boolean onTerminal() {
        return System.console() != null && System.console().isTerminal();
    }

    /** Shows {@code done} of the total steps, working on {@code label}. */
    void step(long done, String label) {
        String shown = TerminalText.of(label);
        if (inPlace) {
            int filled = (int) (WIDTH * Math.min(done, total) / total);
            long nanos = System.nanoTime() - start;
            String eta = done > 0 && done < total && nanos >= RATE_AFTER_NANOS
                    ? String.format(Locale.ROOT, " ~%.0f s left", nanos / 1e9 * (total - done) / done) : "";
            String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                    + String.format(Locale.ROOT, "%3d%%", 100 * Math.min(done, total) / total) + " " + shown + eta;
            redraw(line);
        } else if (!label.equals(lastLabel)) {
            err.println(String.format(Locale.ROOT, "[%3d%%] %s", 100 * Math.min(done, total) / total, shown));
        }
        lastLabel = label;
        err.flush();
    }

    /**
     * Shows {@code done} of the total bytes, working on {@code label}; after the first second also
     * the rate so far and the time left:
     * {@code [#####-----]  50%  1.0 GiB / 2.0 GiB  512.0 MiB/s  ~2 s left  label}; when done, the
     * time taken.
     */
    public void bytes(long done, String label) {
        bytes(done, label, System.nanoTime() - start);
    }

    /** {@link #bytes(long, String)} at {@code nanos} after the bar started. */
    void bytes(long done, String label, long nanos) {
        long d = Math.min(done, total);
        double elapsed = nanos / 1e9;
        String rate = "";
        String eta = "";
        if (nanos >= RATE_AFTER_NANOS && d > 0) {
            double perSecond = d / elapsed;
            rate = "  " + ByteCounts.rounded((long) perSecond) + "/s";
            eta = d < total ? String.format(Locale.ROOT, "  ~%.0f s left", (total - d) / perSecond) : "";
        }
        if (d >= total) {
            eta = String.format(Locale.ROOT, "  %.1f s", elapsed);
        }
        int filled = (int) (WIDTH * d / total);
        String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                + String.format(Locale.ROOT, "%3d%%  %s / %s", 100 * d / total, ByteCounts.rounded(d),
                ByteCounts.rounded(total)) + rate + eta + "  " + TerminalText.of(label);
        if (inPlace) {
            redraw(line);
        } else if (!label.equals(lastLabel)) {
            err.println(line);
        }
        lastLabel = label;
        err.flush();
    }


    /** Draws {@code line} over the last one: back to the start of the line, the line, spaces over what is left of the last. */
    private void redraw(String line) {
        TerminalText.carriageReturn(err);
        err.print(line + " ".repeat(Math.max(0, lastLength - line.length())));
        lastLength = line.length();
    }

    /** Ends the bar (a newline after an in-place bar). */
    public void finish() {
        if (inPlace) {
            err.println();
        }
        err.flush();
    }
}
