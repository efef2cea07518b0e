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
 * <p>Thread-safe (the functions are). Addresses given to {@code madvise} are widened to whole
 * pages, so a hint may cover up to a page more on either side than asked.
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

    /** The page size the hints are widened to. */
    public static final long PAGE = 4096;

    private NativeFiles() {
    }

    /** {@return true if {@code madvise} is available (Linux, with native access)} */
    public static boolean available() {
        return Libc.hasMadvise();
    }

    /** Gives {@code advice} for the pages under a native segment. {@return true if the kernel took it} */
    public static boolean advise(MemorySegment range, int advice) {
        if (!range.isNative()) {
            return false;
        }
        return advise(range.address(), range.byteSize(), advice);
    }

    /** Gives {@code advice} for the pages under {@code [address, address + size)}. {@return true if the kernel took it} */
    public static boolean advise(long address, long size, int advice) {
        if (size <= 0) {
            return false;
        }
        long start = address & -PAGE;
        long end = (address + size + PAGE - 1) & -PAGE;
        return Libc.madvise(start, end - start, advice) == 0;
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
