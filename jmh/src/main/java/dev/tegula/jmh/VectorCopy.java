package dev.tegula.jmh;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The second baseline of the benchmarks: a copy written with Vector API loads and stores of the
 * preferred width, as any Tegula kernel writes. {@code MemorySegment.copy} of tens of MiB uses
 * streaming stores, which the Vector API does not have; every line this loop writes is read for
 * ownership first, so its time is about the least a kernel that reads and writes as many bytes
 * through the cache can take. Comparing a kernel with both baselines separates that cost from the kernel's own.
 */
final class VectorCopy {
    private VectorCopy() {
    }

    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;

    /** Copies {@code bytes} bytes from the start of {@code src} to the start of {@code dst}. */
    static void copy(MemorySegment src, MemorySegment dst, long bytes) {
        int step = SPECIES.length();
        long n = bytes - bytes % step;
        for (long i = 0; i < n; i += step) {
            ByteVector.fromMemorySegment(SPECIES, src, i, ByteOrder.LITTLE_ENDIAN)
                    .intoMemorySegment(dst, i, ByteOrder.LITTLE_ENDIAN);
        }
        MemorySegment.copy(src, n, dst, n, bytes - n);
    }
}
