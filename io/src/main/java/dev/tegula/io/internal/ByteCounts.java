package dev.tegula.io.internal;

import java.util.Locale;

/** Byte counts in text, in binary units (KiB = 1024 B): io's messages and the {@code tegula} command. Stateless. */
public final class ByteCounts {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ByteCounts() {
    }

    /** {@return the exact count, with binary units when at least 1 KiB, e.g. {@code 335544320 B (320 MiB)}} */
    public static String text(long bytes) {
        int u = unit(bytes);
        if (u == 0) {
            return bytes + " B";
        }
        boolean exact = bytes % (1L << (10 * u)) == 0;
        String num = exact ? Long.toString(bytes >> (10 * u)) : "~" + String.format(Locale.ROOT, "%.2f", scaled(bytes, u));
        return bytes + " B (" + num + " " + UNITS[u] + ")";
    }

    /** {@return the count in the largest binary unit it reaches, one decimal, e.g. {@code 1.5 GiB} ({@code 512 B} below 1 KiB)} */
    public static String rounded(long bytes) {
        int u = unit(bytes);
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", scaled(bytes, u), UNITS[u]);
    }

    /**
     * {@return the count in the largest binary unit that divides it, with no fraction, e.g.
     * {@code 16 MiB}, {@code 40 KiB}, {@code 1 GiB}} In bytes when 1 KiB does not divide it, and
     * for 0.
     */
    public static String whole(long bytes) {
        int u = 0;
        while (bytes != 0 && u < UNITS.length - 1 && bytes % (1L << (10 * (u + 1))) == 0) {
            u++;
        }
        return (bytes >> (10 * u)) + " " + UNITS[u];
    }

    /** The largest unit (index into {@link #UNITS}) that {@code bytes} reaches; 0 below 1 KiB and for negative counts. */
    private static int unit(long bytes) {
        int u = 0;
        while (u < UNITS.length - 1 && bytes >= 1L << (10 * (u + 1))) {
            u++;
        }
        return u;
    }

    private static double scaled(long bytes, int unit) {
        return bytes / (double) (1L << (10 * unit));
    }
}
