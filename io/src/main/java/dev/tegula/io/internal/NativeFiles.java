package dev.tegula.io.internal;

import dev.tegula.ffm.internal.Libc;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Hints to the Linux kernel about file mappings and file ranges, through ffm's one binding of the
 * C library ({@link Libc}): {@code madvise}, {@code fallocate}, {@code sync_file_range} and
 * {@code posix_fadvise}.
 * Every hint is best effort: on another operating system, or when a symbol is missing, the calls
 * do nothing and report {@code false}. Only {@link #reserve} reports a failure (a full disk) as an
 * exception, since that is an answer, not a hint.
 *
 * <p>Thread-safe (the functions are). Page hints go only to file mappings ({@link MemorySegment#isMapped()}):
 * on anonymous memory (an allocation, a byte-swapped copy, a segment over the C heap) {@code MADV_DONTNEED}
 * does not drop cached pages but throws their contents away, so such a range is refused and nothing is
 * called. A hint's page range follows from the segment, whose bounds FFM checked: don't-need is given only
 * to the pages wholly inside it (its edge pages may hold bytes of something else that are still in use),
 * the other hints, which never change what memory holds, to every page it touches.
 */
public final class NativeFiles {
    /** {@code madvise} advice: no read-ahead. */
    public static final int RANDOM = Libc.MADV_RANDOM;
    /** {@code madvise} advice: read ahead aggressively, pages behind may be dropped early. */
    public static final int SEQUENTIAL = Libc.MADV_SEQUENTIAL;
    /** {@code madvise} advice: start reading these pages now. */
    public static final int WILL_NEED = Libc.MADV_WILLNEED;
    /** {@code madvise} advice: the pages are not needed any more (clean file pages are dropped, re-read later). */
    public static final int DONT_NEED = Libc.MADV_DONTNEED;

    /** The page size the hints are rounded to. */
    public static final long PAGE = 4096;

    private NativeFiles() {
    }

    /** {@return true if {@code madvise} is available (Linux, with native access)} */
    public static boolean available() {
        return Libc.hasMadvise();
    }

    /**
     * Gives {@code advice} for the pages under {@code range}, a slice of a file mapping. A range that
     * is not a file mapping (anonymous or heap memory) gets no call at all.
     *
     * @return true if the kernel took it; false if nothing was called (not a mapping, no whole page
     *         for don't-need, no {@code madvise}) or the kernel refused
     */
    public static boolean advise(MemorySegment range, int advice) {
        long[] pages = pages(range, advice);
        return pages != null && Libc.madvise(pages[0], pages[1] - pages[0], advice) == 0;
    }

    /**
     * {@return the page-aligned {@code [start, end)} addresses a hint of {@code advice} for
     * {@code range} covers, or null where no call may be made} Don't-need rounds inwards, the other
     * hints outwards; only a native file mapping gets a range.
     */
    static long[] pages(MemorySegment range, int advice) {
        if (!range.isNative() || !range.isMapped() || range.byteSize() <= 0) {
            return null;
        }
        long address = range.address();
        long end = Math.addExact(address, range.byteSize());
        long from;
        long to;
        if (advice == DONT_NEED) {
            from = Math.ceilDiv(address, PAGE) * PAGE;
            to = Math.floorDiv(end, PAGE) * PAGE;
        } else {
            from = Math.floorDiv(address, PAGE) * PAGE;
            to = Math.ceilDiv(end, PAGE) * PAGE;
        }
        return from < to ? new long[] {from, to} : null;
    }

    /** An open file descriptor for the range calls, or none (then every call does nothing). */
    public static final class Descriptor implements AutoCloseable {
        private final int fd;

        private Descriptor(int fd) {
            this.fd = fd;
        }

        /** {@return true if this handle reaches a real descriptor} */
        public boolean isOpen() {
            return fd >= 0;
        }

        @Override
        public void close() {
            if (fd >= 0) {
                Libc.close(fd);   // nothing else to do on failure: the descriptor is gone either way
            }
        }
    }

    /** {@return a descriptor of {@code path}, opened for writing ({@code write}) or reading; empty if none can be had} */
    public static Descriptor open(Path path, boolean write) {
        return new Descriptor(Libc.open(path.toAbsolutePath().toString(), write ? Libc.O_RDWR : Libc.O_RDONLY));
    }

    /**
     * Reserves disk blocks for {@code [offset, offset + length)} of the file ({@code fallocate}), so
     * that a full disk is reported now rather than as a fault while a mapping is written.
     *
     * @return true if the blocks were reserved, false if the OS or file system cannot say
     * @throws IOException if the disk has no room ({@code ENOSPC})
     */
    public static boolean reserve(Descriptor d, long offset, long length, String file) throws IOException {
        if (!d.isOpen() || length <= 0) {
            return false;
        }
        int e = Libc.fallocate(d.fd, 0, offset, length);
        if (e == Libc.ENOSPC) {
            throw new IOException(file + ": no space left on the device for " + length + " bytes");
        }
        return e == 0;
    }

    /** Starts writing back the dirty pages of {@code [offset, offset + length)} without waiting. */
    public static boolean startWriteback(Descriptor d, long offset, long length) {
        return syncRange(d, offset, length, Libc.SYNC_FILE_RANGE_WRITE);
    }

    /** Writes back {@code [offset, offset + length)} and waits until it is on the device. */
    public static boolean waitWriteback(Descriptor d, long offset, long length) {
        return syncRange(d, offset, length, Libc.SYNC_FILE_RANGE_WAIT_BEFORE | Libc.SYNC_FILE_RANGE_WRITE
                | Libc.SYNC_FILE_RANGE_WAIT_AFTER);
    }

    private static boolean syncRange(Descriptor d, long offset, long length, int flags) {
        return d.isOpen() && length > 0 && Libc.syncFileRange(d.fd, offset, length, flags) == 0;
    }

    /** Asks the kernel to drop clean cached pages of {@code [offset, offset + length)} ({@code posix_fadvise}). */
    public static boolean dropCache(Descriptor d, long offset, long length) {
        return d.isOpen() && length > 0 && Libc.posixFadvise(d.fd, offset, length, Libc.POSIX_FADV_DONTNEED) == 0;
    }
}
