package dev.tegula.ffm;

import dev.tegula.ffm.internal.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

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

    private HostMemory() {
    }

    /** {@return true if allocations of {@link #HUGE_PAGE_THRESHOLD} bytes and more ask for huge pages now} */
    public static boolean hugePagesEnabled() {
        return Libc.hasMemoryCalls() && !"false".equalsIgnoreCase(System.getProperty(PROPERTY));
    }

    /**
     * {@return a zeroed host segment of {@code byteSize} bytes aligned to {@code byteAlignment}, owned
     * by {@code arena}} Large buffers are mapped on huge pages as the class documentation says; a
     * size within two huge pages of {@code Long.MAX_VALUE} goes to {@link Arena#allocate}, which
     * cannot have it either.
     *
     * @throws IllegalArgumentException if the size is negative or the alignment not a power of two
     * @throws IllegalStateException    if the arena is closed
     * @throws WrongThreadException     if the arena is confined to another thread
     * @throws OutOfMemoryError         if the memory cannot be had
     */
    public static MemorySegment allocate(Arena arena, long byteSize, long byteAlignment) {
        // a size that whole huge pages plus one for the alignment cannot hold in a long goes to the
        // arena, which refuses it as the JDK does
        if (byteSize < HUGE_PAGE_THRESHOLD || byteSize > Long.MAX_VALUE - 2 * HUGE_PAGE || byteAlignment > HUGE_PAGE
                || !hugePagesEnabled()
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
        if (base == Libc.MAP_FAILED || base == 0) {
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
        // a failure (no THP in this kernel) leaves the mapping on small pages, which still works
        Libc.madvise(start, length, Libc.MADV_HUGEPAGE);
        try {
            return MemorySegment.ofAddress(start).reinterpret(byteSize, arena, s -> munmap(start, length));
        } catch (RuntimeException e) {
            munmap(start, length);
            throw e;
        }
    }

    private static long mmap(long length) {
        return Libc.mmap(0, length, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
    }

    private static void munmap(long address, long length) {
        int rc = Libc.munmap(address, length);
        assert rc == 0 : "munmap of " + length + " bytes failed";
    }
}
