package dev.tegula.vector.plan;

import dev.tegula.ffm.HostMemory;
import dev.tegula.ffm.internal.Cpu;
import java.lang.foreign.MemorySegment;

/**
 * The pages under a relayout's two buffers, as plans and wisdom tell them apart: a walk timed on
 * buffers of huge pages need not be the fastest on buffers of 4 KiB pages (the TLB covers 512 times
 * more of them), so a measured choice is kept for the pages it was timed on. The answer is read from
 * what is known without asking the kernel, in constant time: transparent huge pages in
 * {@code always} mode back every large anonymous buffer; in {@code madvise} mode, those
 * {@link HostMemory} maps for them (2 MiB-aligned, at least {@link HostMemory#HUGE_PAGE_THRESHOLD});
 * heap buffers and small ones are on 4 KiB pages. Stateless; thread-safe.
 */
public final class Pages {
    private Pages() {
    }

    /** Both buffers on huge pages. */
    public static final String HUGE = "huge";
    /** Both buffers on 4 KiB pages. */
    public static final String SMALL = "4k";
    /** One buffer on huge pages, the other not. */
    public static final String MIXED = "mixed";

    private static final long HUGE_PAGE = 2L << 20;

    /** {@return whether {@code text} names a kind of pages: {@link #HUGE}, {@link #SMALL} or {@link #MIXED}} */
    public static boolean valid(String text) {
        return HUGE.equals(text) || SMALL.equals(text) || MIXED.equals(text);
    }

    /** {@return the pages under two buffers ({@link #HUGE}, {@link #SMALL} or {@link #MIXED})} */
    public static String of(MemorySegment src, MemorySegment dst) {
        return pair(huge(src), huge(dst));
    }

    /**
     * {@return the pages under buffers of these sizes that {@link HostMemory#allocate} gives now (with
     * its property {@value HostMemory#PROPERTY} as it is now): where a plan of shapes times, and what the
     * arrays of {@code Array.allocate} get}
     */
    public static String ofAllocation(long srcBytes, long dstBytes) {
        return pair(hugeAllocation(srcBytes), hugeAllocation(dstBytes));
    }

    private static String pair(boolean src, boolean dst) {
        return src && dst ? HUGE : !src && !dst ? SMALL : MIXED;
    }

    private static boolean hugeAllocation(long bytes) {
        return switch (Cpu.hugePageMode()) {
            case ALWAYS -> bytes >= HUGE_PAGE;
            case MADVISE -> HostMemory.hugePagesEnabled() && bytes >= HostMemory.HUGE_PAGE_THRESHOLD;
            case NEVER, UNKNOWN -> false;
        };
    }

    /** {@return whether huge pages back {@code s}, as the class documentation tells it} */
    static boolean huge(MemorySegment s) {
        if (!s.isNative()) {
            return false;
        }
        return switch (Cpu.hugePageMode()) {
            case ALWAYS -> s.byteSize() >= HUGE_PAGE;
            case MADVISE -> s.byteSize() >= HostMemory.HUGE_PAGE_THRESHOLD && s.address() % HUGE_PAGE == 0;
            case NEVER, UNKNOWN -> false;
        };
    }
}
