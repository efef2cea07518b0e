package dev.tegula.ffm.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the operating system says about this machine's CPU, read in this one place: its model and
 * vendor ({@code /proc/cpuinfo}), the sizes of the first core's caches
 * ({@code /sys/devices/system/cpu/cpu0/cache/index*}), and the transparent huge page mode
 * ({@code /sys/kernel/mm/transparent_hugepage/enabled}). Each file is read once, when first asked
 * for; where one is missing (not Linux) the answer says "unknown" (a fallback name, size 0,
 * {@link HugePageMode#UNKNOWN}). Thread-safe; not API (see the package).
 */
public final class Cpu {
    private Cpu() {
    }

    /** The kernel's transparent huge page mode. */
    public enum HugePageMode {
        /** Every large enough anonymous mapping may get huge pages. */
        ALWAYS,
        /** Mappings marked {@code madvise(MADV_HUGEPAGE)} may get huge pages (what {@code HostMemory} marks). */
        MADVISE,
        /** No transparent huge pages. */
        NEVER,
        /** Not said (no such file). */
        UNKNOWN
    }

    private static final class Info {
        static final List<String> CPUINFO = lines(Path.of("/proc/cpuinfo"));
        static final String MODEL = field(CPUINFO, "model name");
        static final String VENDOR = field(CPUINFO, "vendor_id");
        static final long L1D = cacheBytes(Path.of("/sys/devices/system/cpu/cpu0/cache"), 1);
        static final long L2 = cacheBytes(Path.of("/sys/devices/system/cpu/cpu0/cache"), 2);
        static final long L3 = cacheBytes(Path.of("/sys/devices/system/cpu/cpu0/cache"), 3);
        static final HugePageMode HUGE = hugePageMode(firstLine(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")));
    }

    /** {@return the CPU model as {@code /proc/cpuinfo} names it, else the architecture and CPU count} */
    public static String model() {
        String m = Info.MODEL;
        return m != null ? m.replace('\t', ' ')
                : System.getProperty("os.arch") + " " + Runtime.getRuntime().availableProcessors() + " cpus";
    }

    /** {@return the CPU vendor as {@code /proc/cpuinfo} names it (e.g. {@code AuthenticAMD}), or the empty string} */
    public static String vendor() {
        return Info.VENDOR == null ? "" : Info.VENDOR;
    }

    /** {@return the bytes of the first core's level-1 data cache, or 0 where not known} */
    public static long l1DataBytes() {
        return Info.L1D;
    }

    /** {@return the bytes of the first core's level-2 cache, or 0 where not known} */
    public static long l2Bytes() {
        return Info.L2;
    }

    /** {@return the bytes of the level-3 cache the first core shares, or 0 where not known} */
    public static long l3Bytes() {
        return Info.L3;
    }

    /** {@return the transparent huge page mode} */
    public static HugePageMode hugePageMode() {
        return Info.HUGE;
    }

    /** {@return the value of the first line {@code name : value} of {@code cpuinfo}, or null} */
    static String field(List<String> cpuinfo, String name) {
        for (String line : cpuinfo) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /**
     * {@return the size of the data or unified cache of {@code level} under a sysfs cache folder
     * ({@code index*} folders with {@code level}, {@code type} and {@code size} files), or 0}
     */
    static long cacheBytes(Path cacheDir, int level) {
        for (int i = 0; i < 16; i++) {
            Path d = cacheDir.resolve("index" + i);
            if (!Files.isDirectory(d)) {
                break;
            }
            String lv = firstLine(d.resolve("level"));
            String type = firstLine(d.resolve("type"));
            if (lv != null && lv.trim().equals(Integer.toString(level)) && type != null
                    && !type.trim().equals("Instruction")) {
                return size(firstLine(d.resolve("size")));
            }
        }
        return 0;
    }

    /** {@return a sysfs size ({@code 32K}, {@code 512K}, {@code 32768K}, {@code 2M}, or bytes) in bytes, or 0 where it is not one} */
    static long size(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        char last = t.charAt(t.length() - 1);
        if (last == 'K' || last == 'M' || last == 'G') {
            unit = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t);
            return n < 0 ? 0 : Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            return 0;
        }
    }

    /** {@return the mode a {@code transparent_hugepage/enabled} line names in brackets, e.g. {@code always [madvise] never}} */
    static HugePageMode hugePageMode(String line) {
        if (line == null) {
            return HugePageMode.UNKNOWN;
        }
        int a = line.indexOf('[');
        int b = line.indexOf(']', a + 1);
        if (a < 0 || b < 0) {
            return HugePageMode.UNKNOWN;
        }
        return switch (line.substring(a + 1, b).trim()) {
            case "always" -> HugePageMode.ALWAYS;
            case "madvise" -> HugePageMode.MADVISE;
            case "never" -> HugePageMode.NEVER;
            default -> HugePageMode.UNKNOWN;
        };
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException | RuntimeException e) {
            return List.of();   // not Linux: nothing said
        }
    }

    private static String firstLine(Path p) {
        List<String> l = lines(p);
        return l.isEmpty() ? null : l.get(0);
    }
}
