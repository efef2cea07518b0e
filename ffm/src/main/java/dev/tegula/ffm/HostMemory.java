package dev.tegula.ffm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Host memory for arrays: large buffers on transparent huge pages where the operating system offers them.
 *
 * <p>On Linux (x86-64, AArch64, RISC-V 64), a buffer of at least {@link #HUGE_PAGE_THRESHOLD} bytes
 * allocated through {@link #allocate} is mapped anonymously ({@code mmap}), aligned to 2 MiB and
 * marked {@code madvise(MADV_HUGEPAGE)}, so that the kernel backs it with 2 MiB pages when it can
 * (transparent huge pages in {@code always} or {@code madvise} mode). Fewer, larger pages cut the TLB
 * misses of relayouts and copies that stride across many rows. The memory is zero, as from
 * {@link Arena#allocate}, and is unmapped when the arena closes (or, for an automatic arena, when
 * the segment becomes unreachable; never for the global arena). Anywhere else, for smaller
 * buffers, for arenas that are not the JDK's own, when a system call fails, or when the system
 * property {@value #PROPERTY} is {@code false}, the buffer comes from {@link Arena#allocate}.
 *
 * <p>The property is read at each allocation: {@code -Dtegula.hugePages=false} turns the huge-page
 * path off for the whole process. {@link MemorySpaces#host()} and {@link Array#allocate} use this
 * class. Thread-safe.
 */
public final class HostMemory {
    /** The system property that turns huge pages off when {@code false} (default {@code true}). */
    public static final String PROPERTY = "tegula.hugePages";
    /** Buffers of at least this many bytes (4 MiB) go on huge pages. */
    public static final long HUGE_PAGE_THRESHOLD = 4L << 20;
    /** The huge-page size and alignment used (2 MiB). */
    public static final long HUGE_PAGE = 2L << 20;

    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_PRIVATE = 2;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MADV_HUGEPAGE = 14;

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static {
        MethodHandle mmap = null;
        MethodHandle munmap = null;
        MethodHandle madvise = null;
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (os.startsWith("linux") && List.of("amd64", "x86_64", "aarch64", "riscv64").contains(arch)) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG));
                munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
                madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                mmap = null;   // no native access or no libc symbols: plain allocation
            }
        }
        MMAP = mmap;
        MUNMAP = munmap;
        MADVISE = madvise;
    }

    private HostMemory() {
    }

    /** {@return true if allocations of {@link #HUGE_PAGE_THRESHOLD} bytes and more ask for huge pages now} */
    public static boolean hugePagesEnabled() {
        return MMAP != null && !"false".equalsIgnoreCase(System.getProperty(PROPERTY));
    }

    /**
     * {@return a zeroed host segment of {@code byteSize} bytes aligned to {@code byteAlignment}, owned
     * by {@code arena}} Large buffers are mapped on huge pages as the class documentation says.
     *
     * @throws IllegalArgumentException if the size is negative or the alignment not a power of two
     * @throws IllegalStateException    if the arena is closed
     * @throws WrongThreadException     if the arena is confined to another thread
     * @throws OutOfMemoryError         if the memory cannot be had
     */
    public static MemorySegment allocate(Arena arena, long byteSize, long byteAlignment) {
        if (byteSize < HUGE_PAGE_THRESHOLD || byteAlignment > HUGE_PAGE || !hugePagesEnabled()
                || !arena.getClass().getName().startsWith("jdk.internal.foreign.")) {
            return arena.allocate(byteSize, byteAlignment);
        }
        if (byteAlignment <= 0 || (byteAlignment & (byteAlignment - 1)) != 0) {
            throw new IllegalArgumentException("byteAlignment: " + byteAlignment + " is not a power of two");
        }
        // check the arena before mapping anything (closed, other thread): a zero-byte allocation does
        arena.allocate(0, 1);
        long length = Math.addExact(byteSize, HUGE_PAGE - 1) & -HUGE_PAGE;
        long mapped = Math.addExact(length, HUGE_PAGE);
        long base = mmap(mapped);
        if (base == -1 || base == 0) {
            return arena.allocate(byteSize, byteAlignment);
        }
        long start = (base + HUGE_PAGE - 1) & -HUGE_PAGE;
        // give back the unaligned head and the tail beyond the aligned region
        if (start > base) {
            munmap(base, start - base);
        }
        long end = start + length;
        if (base + mapped > end) {
            munmap(end, base + mapped - end);
        }
        madvise(start, length);
        try {
            return MemorySegment.ofAddress(start).reinterpret(byteSize, arena, s -> munmap(start, length));
        } catch (RuntimeException e) {
            munmap(start, length);
            throw e;
        }
    }

    /**
     * {@return how many bytes of the mapping that holds {@code segment}'s address are backed by
     * huge pages right now} ({@code AnonHugePages} of {@code /proc/self/smaps}), or -1 where that
     * cannot be read (not Linux, no such file, the address in no mapping). For diagnostics, tests and
     * benchmarks: it reads a file of the size of the process's mapping table.
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

    private static long mmap(long length) {
        try {
            return (long) MMAP.invokeExact(0L, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
        } catch (Throwable t) {
            return -1;
        }
    }

    private static void munmap(long address, long length) {
        try {
            int rc = (int) MUNMAP.invokeExact(address, length);
            assert rc == 0 : "munmap failed";
        } catch (Throwable t) {
            throw new IllegalStateException("munmap of " + length + " bytes failed", t);
        }
    }

    private static void madvise(long address, long length) {
        try {
            // a non-zero result (no THP in this kernel) leaves the mapping on small pages, which still works
            int unused = (int) MADVISE.invokeExact(address, length, MADV_HUGEPAGE);
        } catch (Throwable t) {
            // same: small pages
        }
    }
}
