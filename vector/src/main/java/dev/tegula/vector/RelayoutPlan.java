package dev.tegula.vector;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.internal.RawSlots;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.ToLongFunction;

/**
 * A reusable plan for moving an array from one layout (and element type) to another. Built by
 * {@link Relayout#plan}; immutable and thread-safe: one plan may execute on many array pairs from
 * many threads at once.
 *
 * <p>The plan holds one {@link RelayoutStrategy}. {@link RelayoutStrategy.LoopNests} sees both
 * layouts as strided views of a common digit space (tiles split dimensions into digits), normalises
 * the loops (size-1 dropped, contiguous ones merged, destination order) and picks a kernel per loop
 * nest: bulk copies where the innermost loop is contiguous in both arrays, an in-register blocked
 * transpose (Vector API) where it is not, element loops otherwise. {@link RelayoutStrategy.Pack4}
 * packs or unpacks 4-bit elements. {@link RelayoutStrategy.ElementWalk}, for element-type
 * conversion, packed sub-byte layouts, and tiles whose digits do not nest (a {@code *} merge split
 * unevenly), walks the elements through core's address calculators. Destination padding slots are
 * filled with the destination layout's padding value first whenever the destination has any.
 */
public final class RelayoutPlan {
    private final ArrayShape from;
    private final ArrayShape to;
    private final RelayoutStrategy strategy;
    private final int elementBytes;
    private final boolean prefill;
    private final long padBits;
    /** True for a plan made for two arrays of which at least one is a strided view. */
    private final boolean forViews;
    /** True if the destination is a strided view (its padding and surroundings are not the plan's). */
    private final boolean dstIsView;

    private RelayoutPlan(ArrayShape from, ArrayShape to, RelayoutStrategy strategy, boolean forViews,
                         boolean dstIsView) {
        this.from = from;
        this.to = to;
        this.strategy = strategy;
        this.forViews = forViews;
        this.dstIsView = dstIsView;
        long tb = to.slotBits();
        this.elementBytes = (int) (tb / 8);
        this.prefill = !dstIsView
                && (to.slotCount() > to.elementCount() || (tb < 8 && (to.slotCount() * tb) % 8 != 0));
        this.padBits = ElementCodec.paddingCode(to.elementType(), to.layout().paddingValue());
    }

    /** {@return the plan between two dense layouts} */
    static RelayoutPlan forShapes(ArrayShape from, ArrayShape to) {
        RelayoutChecks.checkCompatible(from, to);
        RelayoutStrategy strategy = RelayoutStrategy.choose(from, to, SlotTerms.of(from), SlotTerms.of(to), false);
        return new RelayoutPlan(from, to, strategy, false, false);
    }

    /**
     * {@return the plan for two arrays of which at least one is a strided view}
     *
     * @param srcTerms the source's slot terms (its strides if it is a view), or null if none
     * @param dstView  the destination's strides as slot terms if it is a view, else null
     */
    static RelayoutPlan forViews(ArrayShape from, ArrayShape to, SlotTerms srcTerms, SlotTerms dstView) {
        RelayoutChecks.checkCompatible(from, to);
        SlotTerms dstTerms = dstView != null ? dstView : SlotTerms.of(to);
        RelayoutStrategy strategy = RelayoutStrategy.choose(from, to, srcTerms, dstTerms, true);
        return new RelayoutPlan(from, to, strategy, true, dstView != null);
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
        return !(strategy instanceof RelayoutStrategy.ElementWalk);
    }

    /**
     * {@return the plan in words, one line (for diagnostics and the benchmark report)}, e.g. {@code copy 8 x 4
     * = 32 elements in 2 loops (outermost first): source strides 1, 8; destination strides 4, 1 (in slots);
     * from source slot 0 to destination slot 0}, or {@code pack to E(4)}, {@code general element walk}
     */
    public String describe() {
        return switch (strategy) {
            case RelayoutStrategy.Pack4 p -> p.pack() ? "pack to E(4)" : "unpack from E(4)";
            case RelayoutStrategy.ElementWalk w -> "general element walk";
            case RelayoutStrategy.LoopNests n -> DigitPlanner.describe(n.nests());
            case RelayoutStrategy.ConvertNests n -> "f32 -> bf16 " + DigitPlanner.describe(n.nests());
        };
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
        RelayoutChecks.checkSize("src", src, from.bufferSize());
        RelayoutChecks.checkSize("dst", dst, to.bufferSize());
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination segment is read-only");
        }
        if (prefill) {
            fillPadding(dst);
        }
        switch (strategy) {
            case RelayoutStrategy.Pack4 p -> runPack(p.pack(), src, dst, executor, parallelism);
            case RelayoutStrategy.ElementWalk w -> walkElements(src, Addressing.of(from)::slot, dst, Addressing.of(to)::slot);
            case RelayoutStrategy.LoopNests n -> runNests(n.nests(), false, src, dst, executor, parallelism);
            case RelayoutStrategy.ConvertNests n -> runNests(n.nests(), true, src, dst, executor, parallelism);
        }
    }

    private void runPack(boolean pack, MemorySegment src, MemorySegment dst, ExecutorService executor,
                         int parallelism) {
        long n = from.elementCount();
        boolean signed = from.elementType().isIntegral() && !from.elementType().isUnsigned();
        boolean parallel = executor != null && parallelism > 1 && n >= Tasks.MIN_PARALLEL_BYTES
                && ThreadAccess.fromAnyThread(src) && ThreadAccess.fromAnyThread(dst);
        int tasks = parallel ? parallelism : 1;
        List<Future<?>> futures = new ArrayList<>();
        for (int k = 0; k < tasks; k++) {
            long lo = (n * k / tasks) & ~127L;
            long hi = k == tasks - 1 ? n : (n * (k + 1) / tasks) & ~127L;
            Runnable r = pack ? () -> PackKernels.pack4(src, dst, n, lo, hi)
                    : () -> PackKernels.unpack4(src, dst, n, lo, hi, signed);
            if (k == tasks - 1) {
                r.run();
            } else {
                futures.add(executor.submit(r));
            }
        }
        Tasks.await(futures);
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
        RelayoutChecks.checkArrays(src, dst);
        if (!src.shape().equalsIgnoringLayout(from) || !dst.shape().equalsIgnoringLayout(to)) {
            throw new IllegalArgumentException("arrays " + src.shape() + " -> " + dst.shape() + " do not fit the plan "
                    + from + " -> " + to);
        }
        if (!forViews) {
            execute(src.segment(), dst.segment(), executor, parallelism);
            return;
        }
        MemorySegment d = dst.segment();
        if (!dstIsView) {
            RelayoutChecks.checkSize("dst", d, to.bufferSize());
            if (prefill) {
                fillPadding(d);
            }
        }
        switch (strategy) {
            case RelayoutStrategy.LoopNests n -> runNests(n.nests(), false, src.segment(), d, executor, parallelism);
            case RelayoutStrategy.ConvertNests n -> runNests(n.nests(), true, src.segment(), d, executor, parallelism);
            case RelayoutStrategy.ElementWalk w -> walkElements(src.segment(), src::slot, d, dst::slot);
            case RelayoutStrategy.Pack4 p -> throw new IllegalStateException("a plan for views never packs");
        }
    }

    /** Runs loop nests, {@code convert}: from f32 to bf16 ({@link ConvertKernels}), else same type ({@link Kernels}). */
    private void runNests(List<LoopNest> nests, boolean convert, MemorySegment src, MemorySegment dst,
                          ExecutorService executor, int parallelism) {
        boolean parallel = executor != null && parallelism > 1 && ThreadAccess.fromAnyThread(src) && ThreadAccess.fromAnyThread(dst);
        for (LoopNest nest : nests) {
            long extent = convert ? ConvertKernels.splitExtent(nest) : Kernels.splitExtent(nest);
            long bytes = nest.elements() * elementBytes;
            if (!parallel || bytes < Tasks.MIN_PARALLEL_BYTES || extent < 2) {
                runPart(nest, convert, src, dst, 0, Long.MAX_VALUE);
                continue;
            }
            int tasks = (int) Math.min(parallelism, extent);
            List<Future<?>> futures = new ArrayList<>();
            for (int k = 0; k < tasks; k++) {
                long lo = extent * k / tasks;
                long hi = extent * (k + 1) / tasks;
                futures.add(executor.submit(() -> runPart(nest, convert, src, dst, lo, hi)));
            }
            Tasks.await(futures);
        }
    }

    private void runPart(LoopNest nest, boolean convert, MemorySegment src, MemorySegment dst, long lo, long hi) {
        if (convert) {
            ConvertKernels.run(nest, src, dst, lo, hi);
        } else {
            Kernels.run(nest, src, dst, elementBytes, lo, hi);
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
        long bits = to.slotBits();
        long chunk = Math.min(size, 64);
        long slotsInChunk = chunk * 8 / bits;
        for (long s = 0; s < slotsInChunk; s++) {
            RawSlots.write(d, s, bits, padBits);
            if (bits == 128) {
                RawSlots.writeHigh(d, s, 0);
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

    /**
     * The element walk: every logical index in row-major order, the element at the source's slot
     * copied (converted when the types differ) to the destination's slot.
     */
    private void walkElements(MemorySegment src, ToLongFunction<long[]> srcSlot, MemorySegment dst,
                              ToLongFunction<long[]> dstSlot) {
        ElementType ft = from.elementType();
        ElementType tt = to.elementType();
        long fb = from.slotBits();
        long tb = to.slotBits();
        long[] dims = to.dimensions();
        if (to.elementCount() == 0) {
            return;
        }
        long[] idx = new long[dims.length];
        while (true) {
            copyElement(src, srcSlot.applyAsLong(idx), fb, ft, dst, dstSlot.applyAsLong(idx), tb, tt);
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

    /** Copies one element between slots of widths {@code fb} and {@code tb}, converting between types (complex per component). */
    private static void copyElement(MemorySegment src, long fs, long fb, ElementType ft, MemorySegment dst, long ts,
                                    long tb, ElementType tt) {
        if (ft.isComplex()) {
            long re;
            long im;
            if (ft == ElementType.C64) {
                long raw = RawSlots.read(src, fs, fb);
                re = raw & 0xFFFFFFFFL;
                im = raw >>> 32;
            } else {
                re = RawSlots.read(src, fs, 128);
                im = RawSlots.readHigh(src, fs);
            }
            ElementType fc = ft.componentType();
            ElementType tc = tt.componentType();
            re = RawSlots.convert(fc, tc, re);
            im = RawSlots.convert(fc, tc, im);
            if (tt == ElementType.C64) {
                RawSlots.write(dst, ts, tb, (re & 0xFFFFFFFFL) | (im << 32));
            } else {
                RawSlots.write(dst, ts, 128, re);
                RawSlots.writeHigh(dst, ts, im);
            }
            return;
        }
        long raw = RawSlots.read(src, fs, fb);
        if (ft == tt && fb == tb) {
            RawSlots.write(dst, ts, tb, raw);   // same storage: the bits move unchanged
            return;
        }
        RawSlots.write(dst, ts, tb, RawSlots.convert(ft, tt, RawSlots.normalise(ft, raw)));
    }

    @Override
    public String toString() {
        return "RelayoutPlan[" + from + " -> " + to + ", " + describe() + "]";
    }
}
