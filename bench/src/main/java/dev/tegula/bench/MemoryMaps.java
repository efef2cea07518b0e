package dev.tegula.bench;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the kernel reports about this process's memory mappings ({@code /proc/self/smaps} on Linux),
 * for Tegula's benchmarks and tests (which pages a buffer got). Stateless and thread-safe.
 */
public final class MemoryMaps {
    private MemoryMaps() {
    }

    /**
     * {@return how many bytes of the mapping that holds {@code segment}'s address are backed by
     * huge pages right now} ({@code AnonHugePages} of {@code /proc/self/smaps}), or -1 where that
     * cannot be read (not Linux, no such file, the address in no mapping). It reads a file of the
     * size of the process's mapping table.
     */
    public static long anonHugePageBytes(MemorySegment segment) {
        long address = segment.address();
        Path smaps = Path.of("/proc/self/smaps");
        if (!Files.isReadable(smaps)) {
            return -1;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(smaps);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && isHex(line, 0, dash) && isHex(line, dash + 1, space)) {
                long lo = Long.parseUnsignedLong(line, 0, dash, 16);
                long hi = Long.parseUnsignedLong(line, dash + 1, space, 16);
                inside = Long.compareUnsigned(address, lo) >= 0 && Long.compareUnsigned(address, hi) < 0;
            } else if (inside && line.startsWith("AnonHugePages:")) {
                String kb = line.substring("AnonHugePages:".length()).trim().split("\\s+")[0];
                return Long.parseLong(kb) * 1024;
            }
        }
        return -1;
    }

    private static boolean isHex(String s, int from, int to) {
        if (to <= from) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
