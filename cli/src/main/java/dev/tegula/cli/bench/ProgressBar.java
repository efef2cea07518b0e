package dev.tegula.cli.bench;

import dev.tegula.io.internal.ByteCounts;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A progress bar on stderr, hand-made (a dozen lines; a library would bring a terminal library
 * with it). On a terminal it redraws one line in place; otherwise (a pipe, a file, a test) it
 * prints one line per labelled stage, so logs stay readable.
 */
public final class ProgressBar {
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
    public ProgressBar(PrintWriter err, long total, boolean inPlace) {
        this.err = err;
        this.total = Math.max(1, total);
        this.inPlace = inPlace;
    }

    /** {@return true if the standard streams are a terminal (JDK 22+ {@code Console.isTerminal})} */
    public static boolean onTerminal() {
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

    /**
     * Shows {@code done} of the total bytes, with the rate so far and the time left, working on
     * {@code label}: {@code [#####-----]  50%  1.0 GiB / 2.0 GiB  512.0 MiB/s  ~2 s left  label}.
     */
    public void bytes(long done, String label) {
        long d = Math.min(done, total);
        double elapsed = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        double rate = d / elapsed;
        String eta = d > 0 && d < total ? String.format(Locale.ROOT, "  ~%.0f s left", (total - d) / rate)
                : d >= total ? String.format(Locale.ROOT, "  %.1f s", elapsed) : "";
        int filled = (int) (WIDTH * d / total);
        String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                + String.format(Locale.ROOT, "%3d%%  %s / %s  %s/s", 100 * d / total, ByteCounts.rounded(d),
                ByteCounts.rounded(total), ByteCounts.rounded((long) rate)) + eta + "  " + label;
        if (inPlace) {
            err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
        } else if (!label.equals(lastLabel)) {
            err.println(line);
        }
        lastLabel = label;
        err.flush();
    }


    /** Ends the bar (a newline after an in-place bar). */
    public void finish() {
        if (inPlace) {
            err.println();
        }
        err.flush();
    }
}
