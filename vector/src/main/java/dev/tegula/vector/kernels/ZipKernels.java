package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The transposes of 2-byte elements where one side of the pair has extent 2 (the bf16
 * {@code (2,1)} sub-tile): two rows interleaved into one run ({@link Kernel#ZIP_2}) or one run of
 * pairs split into two rows ({@link Kernel#UNZIP_2}), 16 elements of each row per two-vector
 * {@code selectFrom}. Stateless and thread-safe.
 */
public final class ZipKernels {
    private ZipKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    private static final ShortVector ZIP_LO;
    private static final ShortVector ZIP_HI;
    private static final ShortVector UNZIP_EVEN;
    private static final ShortVector UNZIP_ODD;

    static {
        short[] lo = new short[16];
        short[] hi = new short[16];
        short[] ev = new short[16];
        short[] od = new short[16];
        for (int c = 0; c < 16; c++) {
            lo[c] = (short) ((c & 1) == 0 ? c / 2 : 16 + c / 2);
            hi[c] = (short) ((c & 1) == 0 ? 8 + c / 2 : 24 + c / 2);
            ev[c] = (short) (2 * c);
            od[c] = (short) (2 * c + 1);
        }
        ZIP_LO = ShortVector.fromArray(S16, lo, 0);
        ZIP_HI = ShortVector.fromArray(S16, hi, 0);
        UNZIP_EVEN = ShortVector.fromArray(S16, ev, 0);
        UNZIP_ODD = ShortVector.fromArray(S16, od, 0);
    }


    /** dst[dO + 2i + j] = src[so + i + j·sJ], j in {0, 1}: interleave two 16-bit rows. */
    public static void zip2(MemorySegment src, long so, long sJ, MemorySegment dst, long dO, long nI) {
        KernelTrace.ran(Kernel.ZIP_2);
        long i = 0;
        for (; i + 16 <= nI; i += 16) {
            ShortVector a = ShortVector.fromMemorySegment(S16, src, (so + i) * 2, NATIVE);
            ShortVector b = ShortVector.fromMemorySegment(S16, src, (so + i + sJ) * 2, NATIVE);
            ZIP_LO.selectFrom(a, b).intoMemorySegment(dst, (dO + 2 * i) * 2, NATIVE);
            ZIP_HI.selectFrom(a, b).intoMemorySegment(dst, (dO + 2 * i + 16) * 2, NATIVE);
        }
        for (; i < nI; i++) {
            dst.set(CopyKernels.S, (dO + 2 * i) * 2, src.get(CopyKernels.S, (so + i) * 2));
            dst.set(CopyKernels.S, (dO + 2 * i + 1) * 2, src.get(CopyKernels.S, (so + i + sJ) * 2));
        }
    }

    /** dst[dO + i·tI + j] = src[so + i + 2j], i in {0, 1}: split interleaved 16-bit pairs into two rows. */
    public static void unzip2(MemorySegment src, long so, MemorySegment dst, long dO, long tI, long nJ) {
        KernelTrace.ran(Kernel.UNZIP_2);
        long j = 0;
        for (; j + 16 <= nJ; j += 16) {
            ShortVector a = ShortVector.fromMemorySegment(S16, src, (so + 2 * j) * 2, NATIVE);
            ShortVector b = ShortVector.fromMemorySegment(S16, src, (so + 2 * j + 16) * 2, NATIVE);
            UNZIP_EVEN.selectFrom(a, b).intoMemorySegment(dst, (dO + j) * 2, NATIVE);
            UNZIP_ODD.selectFrom(a, b).intoMemorySegment(dst, (dO + tI + j) * 2, NATIVE);
        }
        for (; j < nJ; j++) {
            dst.set(CopyKernels.S, (dO + j) * 2, src.get(CopyKernels.S, (so + 2 * j) * 2));
            dst.set(CopyKernels.S, (dO + tI + j) * 2, src.get(CopyKernels.S, (so + 2 * j + 1) * 2));
        }
    }
}
