package dev.tegula.vector;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * A reusable plan for moving an array from one layout (and element type) to another. Built by
 * {@link Relayout#plan}; immutable and thread-safe: one plan may execute on many array pairs from
 * many threads at once.
 *
 * <p>The plan is one of two kinds. The fast kind sees both layouts as strided views of a common
 * digit space (tiles split dimensions into digits), normalises the loops (size-1 dropped,
 * contiguous ones merged, destination order) and picks a kernel per loop nest: bulk copies where
 * the innermost loop is contiguous in both arrays, an in-register blocked transpose (Vector API)
 * where it is not, element loops otherwise. The general kind, for element-type conversion, packed
 * sub-byte layouts, and tiles whose digits do not nest (a {@code *} merge split unevenly), walks the
 * elements through core's address calculators. Destination padding slots are filled with the
 * destination layout's padding value first whenever the destination has any.
 */
public final class RelayoutPlan {
    /** Below this many bytes a nest is not split between threads. */
    static final long MIN_PARALLEL_BYTES = 1L << 21;

    private final ArrayShape from;
    private final ArrayShape to;
    private final List<LoopNest> nests;
    private final int elementBytes;
    private final boolean prefill;
    private final long padBits;
    /** 1: pack 8-bit to E(4); -1: unpack E(4) to 8-bit; 0: neither. */
    private final int pack;
    /** Strided sides when the plan was made for views (null for dense layouts). */
    private final Side srcView;
    private final Side dstView;
    /** The nests convert f32 to bf16 as they move ({@link ConvertKernels}). */
    private final boolean convertBf16;

    RelayoutPlan(ArrayShape from, ArrayShape to, Side srcSide) {
        this(from, to, srcSide, null, null, null);
    }

    /** A plan for arrays that may be strided views: {@code srcView}/{@code dstView} non-null give their strides. */
    RelayoutPlan(ArrayShape from, ArrayShape to, Side srcSide, Side dstSideOverride, Side srcView, Side dstView) {
        Relayout.checkCompatible(from, to);
        this.from = from;
        this.to = to;
        long fb = from.storageBitsPerElement();
        long tb = to.storageBitsPerElement();
        List<LoopNest> n = null;
        boolean f32ToBf16 = from.elementType() == ElementType.F32 && to.elementType() == ElementType.BF16
                && fb == 32 && tb == 16;
        if ((from.elementType() == to.elementType() && fb == tb && fb >= 8) || f32ToBf16) {
            Side dstSide = dstSideOverride != null ? dstSideOverride : Side.of(to);
            if (srcSide != null && dstSide != null) {
                n = DigitPlanner.plan(srcSide, dstSide);
            }
        }
        this.nests = n;
        this.convertBf16 = f32ToBf16 && n != null;
        this.pack = srcView == null && dstView == null ? packDirection(from, to) : 0;
        this.elementBytes = (int) (tb / 8);
        this.srcView = srcView;
        this.dstView = dstView;
        this.prefill = dstView == null
                && (to.slotCount() > to.elementCount() || (tb < 8 && (to.slotCount() * tb) % 8 != 0));
        this.padBits = RawElements.paddingBits(to.elementType(), to.layout().paddingValue());
    }

    /** {@return 1 or -1 when the layouts differ only in E(4) vs one byte per element and have no padding} */
    private static int packDirection(ArrayShape from, ArrayShape to) {
        if (from.elementType() != to.elementType() || from.elementType().bitWidth() != 4
                || from.slotCount() != from.elementCount() || to.slotCount() != to.elementCount()) {
            return 0;
        }
        long fb = from.storageBitsPerElement();
        long tb = to.storageBitsPerElement();
        if (!from.layout().withElementSizeInBits(0).equals(to.layout().withElementSizeInBits(0))) {
            return 0;
        }
        return fb == 8 && tb == 4 ? 1 : fb == 4 && tb == 8 ? -1 : 0;
    }

    /** {@return the source shape} */
    public ArrayShape from() {
        return from;
    }

    /** {@return the destination shape} */
    public ArrayShape to() {
        return to;
    }

    /** {@return true if this plan runs the strided/transpose kernels, false if it walks elements one by one} */
    public boolean isFast() {
        return nests != null || pack != 0;
    }

    /** {@return a one-line description of the loop nests (for diagnostics and the benchmark report)} */
    public String describe() {
        if (pack != 0) {
            return pack > 0 ? "pack to E(4)" : "unpack from E(4)";
        }
        return nests == null ? "general element walk"
                : (convertBf16 ? "f32 -> bf16 " : "") + DigitPlanner.describe(nests);
    }

    /**
     * Relayouts a dense source buffer into a destination buffer.
     *
     * @param src a buffer in the layout of {@link #from()}, at least {@code from().bufferSize()} bytes
     * @param dst a buffer for {@link #to()}, at least {@code to().bufferSize()} bytes
     * @throws IllegalArgumentException  if a buffer is too small
     * @throws IllegalStateException     if a segment's arena is closed
     * @throws WrongThreadException      if a segment's confined arena belongs to another thread
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public void execute(MemorySegment src, MemorySegment dst) {
        execute(src, dst, null, 1);
    }

    /**
     * Like {@link #execute(MemorySegment, MemorySegment)}, sharing the work between up to
     * {@code parallelism} tasks of {@code executor} when both segments may be used from other threads
     * (shared or global arenas) and a loop nest is large enough to pay (2 MiB); otherwise on the
     * calling thread. Returns when all the work is done.
     */
    public void execute(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism) {
        checkSize("src", src, from.bufferSize());
        checkSize("dst", dst, to.bufferSize());
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination segment is read-only");
        }
        if (prefill) {
            fillPadding(dst);
        }
        if (pack != 0) {
            runPack(src, dst, executor, parallelism);
            return;
        }
        if (nests == null) {
            general(src, Addressing.of(from), dst);
            return;
        }
        runNests(src, dst, executor, parallelism);
    }

    private void runPack(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism) {
        long n = from.elementCount();
        boolean signed = from.elementType().isIntegral() && !from.elementType().isUnsigned();
        boolean parallel = executor != null && parallelism > 1 && n >= MIN_PARALLEL_BYTES
                && Relayout.sharable(src) && Relayout.sharable(dst);
        int tasks = parallel ? parallelism : 1;
        List<Future<?>> futures = new ArrayList<>();
        for (int k = 0; k < tasks; k++) {
            long lo = (n * k / tasks) & ~127L;
            long hi = k == tasks - 1 ? n : (n * (k + 1) / tasks) & ~127L;
            Runnable r = pack > 0 ? () -> PackKernels.pack4(src, dst, n, lo, hi)
                    : () -> PackKernels.unpack4(src, dst, n, lo, hi, signed);
            if (k == tasks - 1) {
                r.run();
            } else {
                futures.add(executor.submit(r));
            }
        }
        Relayout.await(futures);
    }

    /**
     * Relayouts {@code src} into {@code dst}, which must have this plan's shapes (views included:
     * a plan made by {@link Relayout#plan(Array, Array)} knows their strides).
     *
     * @throws IllegalArgumentException      if the arrays' shapes are not the plan's
     * @throws IllegalStateException         if an array is not host-addressable or its arena is closed
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public void execute(Array src, Array dst) {
        execute(src, dst, null, 1);
    }

    /** Like {@link #execute(Array, Array)}, sharing the work as {@link #execute(MemorySegment, MemorySegment, ExecutorService, int)} does. */
    public void execute(Array src, Array dst, ExecutorService executor, int parallelism) {
        Relayout.checkArrays(src, dst);
        if (!src.shape().equalsIgnoringLayout(from) || !dst.shape().equalsIgnoringLayout(to)) {
            throw new IllegalArgumentException("arrays " + src.shape() + " -> " + dst.shape() + " do not fit the plan "
                    + from + " -> " + to);
        }
        if (srcView == null && dstView == null) {
            execute(src.segment(), dst.segment(), executor, parallelism);
            return;
        }
        MemorySegment d = dst.segment();
        if (dstView == null) {
            checkSize("dst", d, to.bufferSize());
            if (prefill) {
                fillPadding(d);
            }
        }
        if (nests == null) {
            general(src.segment(), src, dst.segment(), dst);
            return;
        }
        runNests(src.segment(), d, executor, parallelism);
    }

    private void runNests(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism) {
        boolean parallel = executor != null && parallelism > 1 && Relayout.sharable(src) && Relayout.sharable(dst);
        for (LoopNest nest : nests) {
            long extent = convertBf16 ? ConvertKernels.splitExtent(nest) : Kernels.splitExtent(nest);
            long bytes = nest.elements() * elementBytes;
            if (!parallel || bytes < MIN_PARALLEL_BYTES || extent < 2) {
                runPart(nest, src, dst, 0, Long.MAX_VALUE);
                continue;
            }
            int tasks = (int) Math.min(parallelism, extent);
            List<Future<?>> futures = new ArrayList<>();
            for (int k = 0; k < tasks; k++) {
                long lo = extent * k / tasks;
                long hi = extent * (k + 1) / tasks;
                futures.add(executor.submit(() -> runPart(nest, src, dst, lo, hi)));
            }
            Relayout.await(futures);
        }
    }

    private void runPart(LoopNest nest, MemorySegment src, MemorySegment dst, long lo, long hi) {
        if (convertBf16) {
            ConvertKernels.run(nest, src, dst, lo, hi);
        } else {
            Kernels.run(nest, src, dst, elementBytes, lo, hi);
        }
    }

    private static void checkSize(String name, MemorySegment seg, long need) {
        if (seg.byteSize() < need) {
            throw new IllegalArgumentException(name + ": segment has " + seg.byteSize() + " bytes, the layout needs "
                    + need);
        }
    }

    /** Fills the whole destination buffer with the padding pattern (trailing bits of a packed buffer: zero). */
    private void fillPadding(MemorySegment dst) {
        long size = to.bufferSize();
        MemorySegment d = dst.asSlice(0, size);
        if (padBits == 0 || size == 0) {
            d.fill((byte) 0);
            return;
        }
        long bits = to.storageBitsPerElement();
        long chunk = Math.min(size, 64);
        long slotsInChunk = chunk * 8 / bits;
        for (long s = 0; s < slotsInChunk; s++) {
            RawElements.write(d, s, bits, padBits);
            if (bits == 128) {
                RawElements.writeHigh(d, s, 0);
            }
        }
        long done = chunk;
        while (done < size) {
            long n = Math.min(done, size - done);
            MemorySegment.copy(d, 0, d, done, n);
            done += n;
        }
        long slots = to.slotCount();
        if (bits < 8 && (slots * bits) % 8 != 0) {
            long bit = slots * bits;
            long at = bit >>> 3;
            int keep = (1 << (bit & 7)) - 1;
            d.set(ValueLayout.JAVA_BYTE, at, (byte) (d.get(ValueLayout.JAVA_BYTE, at) & keep));
        }
    }

    /** The general kernel for arrays that may be views: slots come from each array. */
    private void general(MemorySegment src, Array srcArray, MemorySegment dst, Array dstArray) {
        ElementType ft = from.elementType();
        ElementType tt = to.elementType();
        long fb = from.storageBitsPerElement();
        long tb = to.storageBitsPerElement();
        long[] dims = to.dimensions();
        if (to.elementCount() == 0) {
            return;
        }
        long[] idx = new long[dims.length];
        while (true) {
            ReferenceRelayout.copyElement(src, srcArray.slotOf(idx), fb, ft, dst, dstArray.slotOf(idx), tb, tt);
            int d = dims.length - 1;
            while (d >= 0 && ++idx[d] == dims[d]) {
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** The general kernel: every logical index, row-major, through the address calculators. */
    private void general(MemorySegment src, Addressing srcAddr, MemorySegment dst) {
        Addressing dstAddr = Addressing.of(to);
        ElementType ft = from.elementType();
        ElementType tt = to.elementType();
        long fb = from.storageBitsPerElement();
        long tb = to.storageBitsPerElement();
        int rank = to.rank();
        long[] dims = to.dimensions();
        if (to.elementCount() == 0) {
            return;
        }
        long[] idx = new long[rank];
        while (true) {
            ReferenceRelayout.copyElement(src, srcAddr.slot(idx), fb, ft, dst, dstAddr.slot(idx), tb, tt);
            int d = rank - 1;
            while (d >= 0 && ++idx[d] == dims[d]) {
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "RelayoutPlan[" + from + " -> " + to + ", " + describe() + "]";
    }
}
