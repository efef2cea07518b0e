package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The scalar kernels of the relayout engine, on byte segments with elements of {@code b} bytes (1,
 * 2, 4, 8 or 16), offsets and strides in elements: bulk runs ({@link Kernel#COPY_RUNS}, one
 * {@link MemorySegment#copy} per run), strided lines ({@link Kernel#COPY_ELEMENTS}) and the
 * transpose element by element ({@link Kernel#TRANSPOSE_ELEMENTS}), which also finish the
 * remainders of the vector kernels. Stateless and thread-safe. Bounds and lifetime are checked by
 * the segments.
 */
public final class CopyKernels {
    private CopyKernels() {
    }

    static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;

    /** One run of {@code n} elements from slot {@code so} to slot {@code dO} ({@link Kernel#COPY_RUNS}). */
    public static void run(MemorySegment src, long so, MemorySegment dst, long dO, long n, int b) {
        KernelTrace.ran(Kernel.COPY_RUNS);
        MemorySegment.copy(src, so * b, dst, dO * b, n * b);
    }

    /**
     * {@code n} bulk runs of {@code runBytes} bytes, the {@code i}-th from slot {@code so + i s} to slot
     * {@code dO + i t} (element size {@code b}): the last loop around the runs written out here, not
     * one more level of the walk's recursion per run ({@link Kernel#COPY_RUNS}); with streaming stores
     * ({@link StreamStores#copy2d}, one call for the {@code n} runs) where {@code streamed}.
     */
    public static void runs(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n, long runBytes,
                            int b, boolean streamed) {
        KernelTrace.ran(Kernel.COPY_RUNS);
        if (streamed) {
            StreamStores.copy2d(src, so * b, s * b, dst, dO * b, t * b, n, runBytes);
            return;
        }
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(src, (so + i * s) * b, dst, (dO + i * t) * b, runBytes);
        }
    }

    /** {@code dst[dO + i·t] = src[so + i·s]} for {@code i < n} ({@link Kernel#COPY_ELEMENTS}). */
    public static void line(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n, int b) {
        KernelTrace.ran(Kernel.COPY_ELEMENTS);
        stridedLine(src, so, s, dst, dO, t, n, b);
    }

    /** {@code dst[dO + i·t] = src[so + i·s]} for {@code i < n}: the element loop the kernels finish their remainders with. */
    static void stridedLine(MemorySegment src, long so, long s, MemorySegment dst, long dO, long t, long n, int b) {
        switch (b) {
            case 1 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(ValueLayout.JAVA_BYTE, dO + i * t, src.get(ValueLayout.JAVA_BYTE, so + i * s));
                }
            }
            case 2 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(S, (dO + i * t) * 2, src.get(S, (so + i * s) * 2));
                }
            }
            case 4 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(I, (dO + i * t) * 4, src.get(I, (so + i * s) * 4));
                }
            }
            case 8 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(L, (dO + i * t) * 8, src.get(L, (so + i * s) * 8));
                }
            }
            default -> {
                for (long i = 0; i < n; i++) {
                    MemorySegment.copy(src, (so + i * s) * b, dst, (dO + i * t) * b, b);
                }
            }
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = src[so + i + j·sJ]} for {@code i < nI}, {@code j < nJ} (element units), element by element,
     * blocked so both arrays are walked in cache-sized pieces ({@link Kernel#TRANSPOSE_ELEMENTS}).
     */
    public static void transpose(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                                 long sJ) {
        KernelTrace.ran(Kernel.TRANSPOSE_ELEMENTS);
        blocks(src, so, dst, dO, b, nI, tI, nJ, sJ);
    }

    /** The transpose of {@link #transpose}, untraced: for kernels that transpose a buffer of their own. */
    static void blocks(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                       long sJ) {
        final long blk = 32;
        for (long j0 = 0; j0 < nJ; j0 += blk) {
            long jEnd = Math.min(nJ, j0 + blk);
            for (long i0 = 0; i0 < nI; i0 += blk) {
                long iEnd = Math.min(nI, i0 + blk);
                for (long i = i0; i < iEnd; i++) {
                    stridedLine(src, so + i + j0 * sJ, sJ, dst, dO + i * tI + j0, 1, jEnd - j0, b);
                }
            }
        }
    }
}
