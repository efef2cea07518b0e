package dev.tegula.io.internal;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Hints to the Linux kernel about file mappings and file ranges, through FFM downcalls into the C
 * library: {@code madvise}, {@code fallocate}, {@code sync_file_range} and {@code posix_fadvise}.
 * Every hint is best effort: on another operating system, or when a symbol is missing, the calls
 * do nothing and report {@code false}. Only {@link #reserve} reports a failure (a full disk) as an
 * exception, since that is an answer, not a hint.
 *
 * <p>Thread-safe (the functions are). Addresses given to {@code madvise} are widened to whole
 * pages, so a hint may cover up to a page more on either side than asked.
 */
public final class NativeFiles {
    /** {@code madvise} advice: no read-ahead. */
    public static final int RANDOM = 1;
    /** {@code madvise} advice: read ahead aggressively, pages behind may be dropped early. */
    public static final int SEQUENTIAL = 2;
    /** {@code madvise} advice: start reading these pages now. */
    public static final int WILL_NEED = 3;
    /** {@code madvise} advice: this process needs these pages no more (file-backed pages stay in the page cache). */
    public static final int DONT_NEED = 4;

    /** Assumed page size for widening ranges (x86-64 and most arm64 Linux). */
    public static final long PAGE = 4096;

    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    private static final int O_RDWR = 2;
    private static final int O_RDONLY = 0;
    private static final int SYNC_FILE_RANGE_WAIT_BEFORE = 1;
    private static final int SYNC_FILE_RANGE_WRITE = 2;
    private static final int SYNC_FILE_RANGE_WAIT_AFTER = 4;
    private static final int POSIX_FADV_DONTNEED = 4;
    private static final int ENOSPC = 28;

    private static final MethodHandle MADVISE;
    private static final MethodHandle OPEN;
    private static final MethodHandle CLOSE;
    private static final MethodHandle FALLOCATE;
    private static final MethodHandle SYNC_FILE_RANGE;
    private static final MethodHandle FADVISE;
    private static final StructLayout STATE;
    private static final VarHandle ERRNO;

    static {
        MethodHandle madvise = null;
        MethodHandle open = null;
        MethodHandle close = null;
        MethodHandle fallocate = null;
        MethodHandle sync = null;
        MethodHandle fadvise = null;
        StructLayout state = null;
        VarHandle errno = null;
        if (LINUX) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                state = Linker.Option.captureStateLayout();
                errno = state.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
                Linker.Option capture = Linker.Option.captureCallState("errno");
                madvise = find(linker, libc, "madvise", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
                open = find(linker, libc, "open", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT), capture);
                close = find(linker, libc, "close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                fallocate = find(linker, libc, "fallocate", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), capture);
                sync = find(linker, libc, "sync_file_range", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
                fadvise = find(linker, libc, "posix_fadvise", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                madvise = null;   // no native access (or no such symbols): every hint becomes a no-op
                open = null;
            }
        }
        MADVISE = madvise;
        OPEN = open;
        CLOSE = close;
        FALLOCATE = fallocate;
        SYNC_FILE_RANGE = sync;
        FADVISE = fadvise;
        STATE = state;
        ERRNO = errno;
    }

    private NativeFiles() {
    }

    private static MethodHandle find(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor fd,
                                     Linker.Option... options) {
        Optional<MemorySegment> s = lookup.find(name);
        return s.map(a -> linker.downcallHandle(a, fd, options)).orElse(null);
    }

    /** {@return true if the hints reach the kernel (Linux with native access)} */
    public static boolean available() {
        return MADVISE != null;
    }

    /**
     * Gives {@code advice} about the pages holding {@code range} (a slice of a file mapping).
     *
     * @return true if the kernel took the advice
     */
    public static boolean advise(MemorySegment range, int advice) {
        if (!range.isNative()) {
            return false;
        }
        return advise(range.address(), range.byteSize(), advice);
    }

    /**
     * Gives {@code advice} about the pages holding {@code [address, address + size)} of a mapping
     * the caller holds open.
     *
     * @return true if the kernel took the advice
     */
    public static boolean advise(long address, long size, int advice) {
        if (MADVISE == null || size <= 0) {
            return false;
        }
        long start = address & -PAGE;
        long end = (address + size + PAGE - 1) & -PAGE;
        try {
            return (int) MADVISE.invokeExact(MemorySegment.ofAddress(start), end - start, advice) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * An open file descriptor for {@link #reserve}, {@link #startWriteback}, {@link #waitWriteback}
     * and {@link #dropCache}; an empty handle (every call a no-op) where the OS gives none.
     */
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
            if (fd >= 0 && CLOSE != null) {
                try {
                    int ignored = (int) CLOSE.invokeExact(fd);
                } catch (Throwable t) {
                    // nothing to do: the descriptor is gone either way
                }
            }
        }
    }

    /** {@return a descriptor of {@code path}, opened for writing ({@code write}) or reading; empty if none can be had} */
    public static Descriptor open(Path path, boolean write) {
        if (OPEN == null) {
            return new Descriptor(-1);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = a.allocateFrom(path.toAbsolutePath().toString());
            MemorySegment st = a.allocate(STATE);
            int fd = (int) OPEN.invokeExact(st, name, write ? O_RDWR : O_RDONLY);
            return new Descriptor(fd);
        } catch (Throwable t) {
            return new Descriptor(-1);
        }
    }

    /**
     * Reserves disk blocks for {@code [offset, offset + length)} of the file ({@code fallocate}), so
     * that a full disk is reported now rather than as a fault while a mapping is written.
     *
     * @return true if the blocks were reserved, false if the OS or file system cannot say
     * @throws IOException if the disk has no room ({@code ENOSPC})
     */
    public static boolean reserve(Descriptor d, long offset, long length, String file) throws IOException {
        if (FALLOCATE == null || !d.isOpen() || length <= 0) {
            return false;
        }
        int rc;
        int err;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(STATE);
            rc = (int) FALLOCATE.invokeExact(st, d.fd, 0, offset, length);
            err = (int) ERRNO.get(st, 0L);
        } catch (Throwable t) {
            return false;
        }
        if (rc != 0 && err == ENOSPC) {
            throw new IOException(file + ": no space left on the device for " + length + " bytes");
        }
        return rc == 0;
    }

    /** Starts writing back the dirty pages of {@code [offset, offset + length)} without waiting. */
    public static boolean startWriteback(Descriptor d, long offset, long length) {
        return syncRange(d, offset, length, SYNC_FILE_RANGE_WRITE);
    }

    /** Writes back {@code [offset, offset + length)} and waits until it is on the device. */
    public static boolean waitWriteback(Descriptor d, long offset, long length) {
        return syncRange(d, offset, length, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
                | SYNC_FILE_RANGE_WAIT_AFTER);
    }

    private static boolean syncRange(Descriptor d, long offset, long length, int flags) {
        if (SYNC_FILE_RANGE == null || !d.isOpen() || length <= 0) {
            return false;
        }
        try {
            return (int) SYNC_FILE_RANGE.invokeExact(d.fd, offset, length, flags) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Asks the kernel to drop clean cached pages of {@code [offset, offset + length)} ({@code posix_fadvise}). */
    public static boolean dropCache(Descriptor d, long offset, long length) {
        if (FADVISE == null || !d.isOpen() || length <= 0) {
            return false;
        }
        try {
            return (int) FADVISE.invokeExact(d.fd, offset, length, POSIX_FADV_DONTNEED) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
