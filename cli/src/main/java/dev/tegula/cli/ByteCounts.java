package dev.tegula.cli;

import java.util.Locale;

/** Byte counts as the {@code tegula} command prints them. Stateless. */
public final class ByteCounts {
    private ByteCounts() {
    }

    /** {@return bytes with binary units when at least 1 KiB, e.g. {@code 335544320 B (320 MiB)}} */
    public static String text(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = -1;
        double v = bytes;
        long exact = bytes;
        boolean isExact = true;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            isExact &= exact % 1024 == 0;
            exact /= 1024;
            u++;
        }
        String num = isExact ? Long.toString(exact) : "~" + String.format(Locale.ROOT, "%.2f", v);
        return bytes + " B (" + num + " " + units[u] + ")";
    }
}
