package dev.tegula.vector.kernels;

import dev.tegula.ffm.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The per-thread buffer that staged walks write their staged regions into and that a walk with
 * panels ({@link PanelKernels}) transposes its panels into: made on a thread's first use, grown
 * when a larger one is asked for, freed with the thread. Thread-safe (each thread has its own).
 */
public final class Scratch {
    private Scratch() {
    }

    private static final ThreadLocal<MemorySegment[]> BUFFER = ThreadLocal.withInitial(() -> new MemorySegment[1]);

    /** {@return this thread's staging buffer, of at least {@code bytes}} */
    public static MemorySegment stage(long bytes) {
        MemorySegment[] holder = BUFFER.get();
        if (holder[0] == null || holder[0].byteSize() < bytes) {
            holder[0] = HostMemory.allocate(Arena.ofAuto(), bytes, 4096);
        }
        return holder[0];
    }
}
