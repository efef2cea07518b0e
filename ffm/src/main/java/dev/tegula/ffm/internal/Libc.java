package dev.tegula.ffm.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Locale;

/**
 * Tegula's one binding to the C library: the memory and file calls that large buffers and file
 * mappings use ({@code mmap}, {@code munmap}, {@code mprotect}, {@code madvise}, {@code open}, {@code close},
 * {@code fallocate}, {@code sync_file_range}, {@code posix_fadvise}), looked up once through the
 * FFM linker. Bound on Linux on x86-64, AArch64 and RISC-V 64, whose constants below are the same;
 * elsewhere, or without native access for {@code dev.tegula.ffm}, nothing is bound.
 *
 * <p>Each method is the C function, with C's arguments and C's result: {@code -1} on failure for the
 * calls that set {@code errno} ({@code mmap} gives {@link #MAP_FAILED}), an error number for the two
 * that return one ({@code fallocate} here returns {@code errno} rather than setting it, as
 * {@code posix_fadvise} does). A function that is not bound answers as a failure: {@code -1}, or
 * {@link #ENOSYS} for the error-number calls. Nothing is thrown. Addresses are plain {@code long}s;
 * the caller owns what they point to. Thread-safe (the functions are). Not API: exported only to
 * Tegula's own modules.
 */
public final class Libc {
    /** {@code mmap} protection: readable. */
    public static final int PROT_READ = 1;
    /** {@code mmap} protection: writable. */
    public static final int PROT_WRITE = 2;
    /** {@code mmap} protection: executable. */
    public static final int PROT_EXEC = 4;
    /** {@code mmap} flag: a private copy-on-write mapping. */
    public static final int MAP_PRIVATE = 2;
    /** {@code mmap} flag: memory not backed by a file (zeroed). */
    public static final int MAP_ANONYMOUS = 0x20;
    /** {@code mmap}'s failure result, {@code (void *) -1}. */
    public static final long MAP_FAILED = -1;
    /** {@code madvise}: expect random access (no read-ahead). */
    public static final int MADV_RANDOM = 1;
    /** {@code madvise}: expect sequential access (read ahead aggressively). */
    public static final int MADV_SEQUENTIAL = 2;
    /** {@code madvise}: these pages will be needed soon (read them now). */
    public static final int MADV_WILLNEED = 3;
    /** {@code madvise}: these pages are not needed now (file-backed pages stay in the page cache). */
    public static final int MADV_DONTNEED = 4;
    /** {@code madvise}: back this range with transparent huge pages where possible. */
    public static final int MADV_HUGEPAGE = 14;
    /** {@code open} flag: read only. */
    public static final int O_RDONLY = 0;
    /** {@code open} flag: read and write. */
    public static final int O_RDWR = 2;
    /** {@code sync_file_range}: wait for writeback already under way before writing. */
    public static final int SYNC_FILE_RANGE_WAIT_BEFORE = 1;
    /** {@code sync_file_range}: start writeback of the dirty pages. */
    public static final int SYNC_FILE_RANGE_WRITE = 2;
    /** {@code sync_file_range}: wait until the writeback is done. */
    public static final int SYNC_FILE_RANGE_WAIT_AFTER = 4;
    /** {@code posix_fadvise}: drop the clean cached pages of the range. */
    public static final int POSIX_FADV_DONTNEED = 4;
    /** Error number: no space left on the device. */
    public static final int ENOSPC = 28;
    /** Error number {@code ENOSYS}: no such system function (what an unbound function answers). */
    public static final int ENOSYS = 38;

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;
    private static final MethodHandle OPEN;
    private static final MethodHandle CLOSE;
    private static final MethodHandle FALLOCATE;
    private static final MethodHandle SYNC_FILE_RANGE;
    private static final MethodHandle POSIX_FADVISE;
    private static final MethodHandle MPROTECT;
    private static final StructLayout CALL_STATE;
    private static final VarHandle ERRNO;

    static {
        MethodHandle[] h = new MethodHandle[9];
        StructLayout state = null;
        VarHandle errno = null;
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (os.startsWith("linux") && List.of("amd64", "x86_64", "aarch64", "riscv64").contains(arch)) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                state = Linker.Option.captureStateLayout();
                errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
                ValueLayout i = ValueLayout.JAVA_INT;
                ValueLayout l = ValueLayout.JAVA_LONG;
                h[0] = find(linker, libc, "mmap", FunctionDescriptor.of(l, l, l, i, i, i, l));
                h[1] = find(linker, libc, "munmap", FunctionDescriptor.of(i, l, l));
                h[2] = find(linker, libc, "madvise", FunctionDescriptor.of(i, l, l, i));
                h[3] = find(linker, libc, "open", FunctionDescriptor.of(i, ValueLayout.ADDRESS, i));
                h[4] = find(linker, libc, "close", FunctionDescriptor.of(i, i));
                h[5] = find(linker, libc, "fallocate", FunctionDescriptor.of(i, i, i, l, l),
                        Linker.Option.captureCallState("errno"));
                h[6] = find(linker, libc, "sync_file_range", FunctionDescriptor.of(i, i, l, l, i));
                h[7] = find(linker, libc, "posix_fadvise", FunctionDescriptor.of(i, i, l, l, i));
                h[8] = find(linker, libc, "mprotect", FunctionDescriptor.of(i, l, l, i));
            } catch (RuntimeException | LinkageError e) {
                h = new MethodHandle[9];   // no native access, or no such symbols: nothing is bound
                state = null;
                errno = null;
            }
        }
        MMAP = h[0];
        MUNMAP = h[1];
        MADVISE = h[2];
        OPEN = h[3];
        CLOSE = h[4];
        FALLOCATE = h[5];
        SYNC_FILE_RANGE = h[6];
        POSIX_FADVISE = h[7];
        MPROTECT = h[8];
        CALL_STATE = state;
        ERRNO = errno;
    }

    private Libc() {
    }

    private static MethodHandle find(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor fd,
                                     Linker.Option... options) {
        return lookup.find(name).map(a -> linker.downcallHandle(a, fd, options)).orElse(null);
    }

    /** {@return true if the memory calls ({@code mmap}, {@code munmap}, {@code madvise}) are bound} */
    public static boolean hasMemoryCalls() {
        return MMAP != null && MUNMAP != null && MADVISE != null;
    }

    /** {@return true if {@code madvise} is bound (the page hints reach the kernel)} */
    public static boolean hasMadvise() {
        return MADVISE != null;
    }

    /** {@code mmap(address, length, prot, flags, fd, offset)}: {@return the mapping's address, or {@link #MAP_FAILED}} */
    public static long mmap(long address, long length, int prot, int flags, int fd, long offset) {
        if (MMAP == null) {
            return MAP_FAILED;
        }
        try {
            return (long) MMAP.invokeExact(address, length, prot, flags, fd, offset);
        } catch (Throwable t) {
            return MAP_FAILED;
        }
    }

    /** {@code munmap(address, length)}: {@return 0, or -1} */
    public static int munmap(long address, long length) {
        if (MUNMAP == null) {
            return -1;
        }
        try {
            return (int) MUNMAP.invokeExact(address, length);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@code mprotect(address, length, prot)}, {@code address} page-aligned: {@return 0, or -1} */
    public static int mprotect(long address, long length, int prot) {
        if (MPROTECT == null) {
            return -1;
        }
        try {
            return (int) MPROTECT.invokeExact(address, length, prot);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@code madvise(address, length, advice)}, {@code address} page-aligned: {@return 0, or -1} */
    public static int madvise(long address, long length, int advice) {
        if (MADVISE == null) {
            return -1;
        }
        try {
            return (int) MADVISE.invokeExact(address, length, advice);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@code open(path, flags)}: {@return a file descriptor, or -1} */
    public static int open(String path, int flags) {
        if (OPEN == null) {
            return -1;
        }
        try (Arena a = Arena.ofConfined()) {
            return (int) OPEN.invokeExact(a.allocateFrom(path), flags);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@code close(fd)}: {@return 0, or -1} */
    public static int close(int fd) {
        if (CLOSE == null) {
            return -1;
        }
        try {
            return (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            return -1;
        }
    }

    /**
     * {@code fallocate(fd, mode, offset, length)}: {@return 0, or the error number ({@code errno}) of the
     * failure, e.g. {@link #ENOSPC}} (unlike C, which returns -1 and sets {@code errno}).
     */
    public static int fallocate(int fd, int mode, long offset, long length) {
        if (FALLOCATE == null) {
            return ENOSYS;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CALL_STATE);
            int rc = (int) FALLOCATE.invokeExact(state, fd, mode, offset, length);
            return rc == 0 ? 0 : (int) ERRNO.get(state, 0L);
        } catch (Throwable t) {
            return ENOSYS;
        }
    }

    /** {@code sync_file_range(fd, offset, length, flags)}: {@return 0, or -1} */
    public static int syncFileRange(int fd, long offset, long length, int flags) {
        if (SYNC_FILE_RANGE == null) {
            return -1;
        }
        try {
            return (int) SYNC_FILE_RANGE.invokeExact(fd, offset, length, flags);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@code posix_fadvise(fd, offset, length, advice)}: {@return 0, or an error number} */
    public static int posixFadvise(int fd, long offset, long length, int advice) {
        if (POSIX_FADVISE == null) {
            return ENOSYS;
        }
        try {
            return (int) POSIX_FADVISE.invokeExact(fd, offset, length, advice);
        } catch (Throwable t) {
            return ENOSYS;
        }
    }
}
