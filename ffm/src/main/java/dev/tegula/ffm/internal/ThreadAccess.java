package dev.tegula.ffm.internal;

import java.lang.foreign.MemorySegment;

/**
 * Whether work on a segment may be shared between threads: its arena is shared, global or
 * automatic, not confined to one thread. Stateless and thread-safe. Not API: exported only to
 * Tegula's own modules.
 */
public final class ThreadAccess {
    /** A thread that is never started: a segment it may access is one that any thread may access. */
    private static final Thread OTHER = new Thread(() -> { });

    private ThreadAccess() {
    }

    /** {@return true if threads other than the caller's may access {@code segment} (not a confined arena's)} */
    public static boolean fromAnyThread(MemorySegment segment) {
        return segment.isAccessibleBy(OTHER);
    }
}
