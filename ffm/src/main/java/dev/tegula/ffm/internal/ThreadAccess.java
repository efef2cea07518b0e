package dev.tegula.ffm.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Whether work on a segment may be shared between threads: its arena is shared, global or
 * automatic, not confined to one thread. Stateless and thread-safe. Not API: exported only to
 * Tegula's own modules.
 */
public final class ThreadAccess {
    /** A thread that is never started: a segment it may access is one that any thread may access. */
    private static final Thread OTHER = new Thread(() -> { });

    /** Views of calls opened while this is set end with their call ({@link #endViewsWithTheirCall}). */
    private static volatile boolean viewsEndWithCall;
    /** The views of every call while {@link #viewsEndWithCall} is not set: unscoped, nothing to close. */
    private static final CallViews UNSCOPED = new CallViews(null);

    private ThreadAccess() {
    }

    /**
     * The message of every {@link IllegalStateException} for a closed arena that Tegula throws itself:
     * it begins with the words the JDK's own (from an element accessor) has, so the two read alike.
     */
    public static final String CLOSED = "Already closed: the arena of the array's memory was closed before this use";

    /**
     * Checks that {@code segment}'s arena is open.
     *
     * @throws IllegalStateException with {@link #CLOSED} if it is closed
     */
    public static void requireAlive(MemorySegment segment) {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException(CLOSED);
        }
    }

    /**
     * {@return the calling thread's interrupt status now} Taken where a call that accesses segments
     * begins, and given to {@link #restoreInterrupt} where it ends.
     */
    public static boolean interruptedNow() {
        return Thread.currentThread().isInterrupted();
    }

    /**
     * Ends a call that accessed {@code memory} on the calling thread: where the thread was not
     * interrupted when the call began ({@code before}), is interrupted now, and an arena of
     * {@code memory} is closed or closing, clears the interrupt. Closing a shared arena while a
     * thread is inside an access of its memory makes the JVM interrupt that thread (it wakes the
     * thread for the exception it delivers, or drops where the thread has left the access by then),
     * an interrupt that no code asked for and that a library must not leave behind. An interrupt
     * that another thread sends during the same call cannot be told apart from the JVM's and is
     * cleared with it; one the thread had before the call is always kept. Call it in a
     * {@code finally} block, so that it runs on success and on failure alike.
     */
    public static void restoreInterrupt(boolean before, MemorySegment... memory) {
        if (before || !Thread.currentThread().isInterrupted()) {
            return;
        }
        for (MemorySegment m : memory) {
            if (m != null && !m.scope().isAlive()) {
                Thread.interrupted();
                return;
            }
        }
    }

    /**
     * Checks that {@code segment} may be used now, from this thread: its arena is open and, where it
     * is confined, this thread owns it.
     *
     * @throws IllegalStateException with {@link #CLOSED} if its arena is closed
     * @throws WrongThreadException  if its confined arena belongs to another thread
     */
    public static void requireUsable(MemorySegment segment) {
        requireAlive(segment);
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException(WRONG_THREAD);
        }
    }

    /** The message of every {@link WrongThreadException} that Tegula throws itself. */
    public static final String WRONG_THREAD = "the segment's confined arena belongs to another thread";

    /**
     * The unchecked views ({@link #forThisCall}) of one call, opened with {@link #openCall()} and
     * closed when the call returns. Normally the views are in the global scope and closing does
     * nothing; while {@link #endViewsWithTheirCall} is set (for tests), each call's views share one
     * arena that closing closes, so that any access to a view kept past its call throws
     * {@link IllegalStateException}. One thread's, for one call.
     */
    public static final class CallViews implements AutoCloseable {
        private final Arena arena;

        private CallViews(Arena arena) {
            this.arena = arena;
        }

        /** {@return {@link #forThisCall}'s view of {@code segment}, valid until this call's views close} */
        public MemorySegment view(MemorySegment segment) {
            MemorySegment v = forThisCall(segment);
            if (arena == null || v == segment) {
                return v;
            }
            MemorySegment scoped = v.reinterpret(arena, null);
            return segment.isReadOnly() ? scoped.asReadOnly() : scoped;
        }

        /** Ends the call's views (where they end with it). */
        @Override
        public void close() {
            if (arena != null) {
                arena.close();
            }
        }
    }

    /** {@return the views of a call that starts now} Close them when the call returns. */
    public static CallViews openCall() {
        return viewsEndWithCall ? new CallViews(Arena.ofShared()) : UNSCOPED;
    }

    /**
     * For tests: while {@code on}, the views of calls opened afterwards end with their call, so a view
     * that escaped its call fails on its next access instead of reading memory whose arena may be
     * closed. Costs an arena per call; never set in production.
     */
    public static void endViewsWithTheirCall(boolean on) {
        viewsEndWithCall = on;
    }

    /** {@return true if threads other than the caller's may access {@code segment} (not a confined arena's)} */
    public static boolean fromAnyThread(MemorySegment segment) {
        return segment.isAccessibleBy(OTHER);
    }

    /**
     * {@return {@code segment}, or where it belongs to a confined arena, a view of the same memory
     * that does not check its arena on each access} Kernels compiled after accesses of both
     * confined and shared segments check the arena inside their loops, where accesses of one kind
     * let the JIT take the check out: relayouts of shared-arena arrays ran 15-20% slower in a
     * process that had also relayouted confined-arena ones. A confined arena is closed only by its
     * owner thread, so while the owner is inside one call that uses the view and lets it escape
     * nowhere, the memory stays valid.
     *
     * <p>For use inside one call on the caller's thread only: the view must not be stored, returned
     * or handed to another thread; callers get it through {@link #openCall()}, whose views a test can
     * make end with their call. {@code MemorySegment.reinterpret} is a restricted method: where
     * this module is denied native access, the segment itself is returned.
     *
     * @throws IllegalStateException if the segment's arena is closed
     * @throws WrongThreadException  if the segment's confined arena belongs to another thread
     */
    static MemorySegment forThisCall(MemorySegment segment) {
        if (!segment.isNative() || fromAnyThread(segment)) {
            return segment;
        }
        requireUsable(segment);
        MemorySegment view;
        try {
            view = MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
        } catch (IllegalCallerException denied) {
            return segment;   // no native access for this module: the checked segment, a little slower
        }
        return segment.isReadOnly() ? view.asReadOnly() : view;
    }
}
