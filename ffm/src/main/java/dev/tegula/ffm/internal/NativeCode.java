package dev.tegula.ffm.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Machine code that this package writes ({@link StreamingCopy}), made callable through the FFM
 * linker; nothing outside the package can map code through it. The code is
 * written into fresh anonymous pages mapped readable and writable, which are then switched to
 * readable and executable with {@code mprotect} before the linker sees them: the pages are never
 * writable and executable at once, and are never written again. They stay mapped for the life of the
 * JVM (one page or a few per routine, linked once). Where the C library is not bound (not Linux, or
 * no native access for {@code dev.tegula.ffm}) or the system refuses the mapping or the switch (a
 * policy against executable anonymous memory), nothing is linked and {@link Linked#refusal()} says
 * why. Thread-safe; not API (see the package).
 */
public final class NativeCode {
    private static final long PAGE = 4096;

    private NativeCode() {
    }

    /**
     * What {@link #link} made: a downcall handle, or the reason there is none.
     *
     * @param handle  the downcall handle of the code, or {@code null}
     * @param refusal why there is no handle, or {@code null} when there is one
     */
    public record Linked(MethodHandle handle, String refusal) {
    }

    /**
     * Maps {@code code} as described above and links it with {@code descriptor} and {@code options}.
     * The caller (a routine of this package) vouches that the bytes are a routine of this CPU and this platform's C calling
     * convention that matches {@code descriptor} and touches only the memory its arguments name.
     *
     * @param code       the machine code, not empty
     * @param descriptor the routine's C signature
     * @param options    the linker options (e.g. {@link Linker.Option#critical(boolean)})
     * @return the handle, or the refusal; never {@code null}
     * @throws IllegalArgumentException if {@code code} is empty
     */
    static Linked link(byte[] code, FunctionDescriptor descriptor, Linker.Option... options) {
        Objects.requireNonNull(descriptor, "descriptor");
        if (code.length == 0) {
            throw new IllegalArgumentException("code: empty");
        }
        if (!Libc.hasMemoryCalls()) {
            return new Linked(null, "the C library is not bound (not Linux, or no native access for dev.tegula.ffm)");
        }
        long length = (code.length + PAGE - 1) / PAGE * PAGE;
        long address = Libc.mmap(0, length, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        if (address == Libc.MAP_FAILED) {
            return new Linked(null, "mmap of " + length + " bytes for the routine was refused");
        }
        MemorySegment.ofAddress(address).reinterpret(length).copyFrom(MemorySegment.ofArray(code));
        if (Libc.mprotect(address, length, Libc.PROT_READ | Libc.PROT_EXEC) != 0) {
            Libc.munmap(address, length);
            return new Linked(null, "mprotect to read+execute was refused (a policy against executable anonymous memory)");
        }
        try {
            return new Linked(Linker.nativeLinker().downcallHandle(MemorySegment.ofAddress(address), descriptor, options), null);
        } catch (RuntimeException e) {
            // the code stays mapped read+execute and unreferenced: harmless, and unmapping memory the
            // linker may have seen is not
            return new Linked(null, "the linker refused the routine: " + e);
        }
    }
}
