package dev.tegula.vector;

import dev.tegula.ffm.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Runs a part of a walk with the right kernels, staging its destination where the walk asks for
 * it ({@link Walk#stage()}): the part's range of the split loop is cut into pieces whose
 * destination region is one contiguous block of at most {@code stage} bytes; each piece is walked
 * into a per-thread buffer and then copied to the destination with one {@link MemorySegment#copy},
 * which for large blocks writes whole lines without reading them first (plain stores read each
 * destination line before writing it). Thread-safe; its state is the per-thread buffer, made on a
 * thread's first staged walk and freed with the thread.
 */
final class Stage {
    private Stage() {
    }

    private static final ThreadLocal<MemorySegment[]> BUFFER = ThreadLocal.withInitial(() -> new MemorySegment[1]);

    /**
     * Runs indices {@code [from, to)} of the walk's split loop.
     *
     * @param convert true for the f32 to bf16 kernels ({@link ConvertKernels}), else the same-type ones
     * @param b       bytes of a destination element
     */
    static void run(Walk w, boolean convert, MemorySegment src, MemorySegment dst, int b, long from, long to) {
        if (w.stage() == 0) {
            kernel(w, convert, src, dst, b, from, to);
            return;
        }
        LoopNest n = w.nest();
        long unit = n.dstStrides()[w.split()] * b;
        long per = Math.max(1, w.stage() / unit);
        MemorySegment buf = buffer(per * unit);
        for (long c = Math.max(0, from); c < to; c += per) {
            long e = Math.min(to, c + per);
            long base = n.dstOffset() + c * n.dstStrides()[w.split()];
            kernel(w.shiftDestination(-base), convert, src, buf, b, c, e);
            MemorySegment.copy(buf, 0, dst, base * b, (e - c) * unit);
        }
    }

    private static void kernel(Walk w, boolean convert, MemorySegment src, MemorySegment dst, int b, long from,
                               long to) {
        if (convert) {
            ConvertKernels.run(w, src, dst, from, to);
        } else {
            Kernels.run(w, src, dst, b, from, to);
        }
    }

    /** {@return this thread's staging buffer, of at least {@code bytes} (also a panel's buffer, {@link PanelKernels})} */
    static MemorySegment buffer(long bytes) {
        MemorySegment[] holder = BUFFER.get();
        if (holder[0] == null || holder[0].byteSize() < bytes) {
            holder[0] = HostMemory.allocate(Arena.ofAuto(), bytes, 4096);
        }
        return holder[0];
    }
}
