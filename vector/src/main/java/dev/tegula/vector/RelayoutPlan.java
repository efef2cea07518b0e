package dev.tegula.vector;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.ffm.internal.RawSlots;
import dev.tegula.ffm.internal.ThreadAccess;
import dev.tegula.vector.kernels.PackKernels;
import dev.tegula.vector.plan.DigitPlanner;
import dev.tegula.vector.plan.PlannedWalks;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Tasks;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRunner;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.ToLongFunction;

/**
 * A reusable plan for moving an array from one layout (and element type) to another, made once from
 * the two shapes (and the strides of either side that is a strided view) and executed on any
 * buffers of those shapes, with any number of threads: XLA's {@code TransposePlan} is the model.
 * Built by {@link Relayout#plan} or a {@link PlanCache}; immutable and thread-safe: one plan may
 * execute on many array pairs from many threads at once.
 *
 * <p>The plan holds one strategy, chosen when it is made. Loop nests see both layouts as strided
 * views of a common digit space (tiles split dimensions into digits), normalise the loops (size-1
 * dropped, contiguous ones merged) and walk each loop nest with the kernel its walk names: bulk
 * copies where the innermost loop is contiguous in both arrays, an in-register blocked transpose
 * (Vector API) where it is not, element loops otherwise. How each nest is walked (kernel, loop
 * order, the loop that threads share, tile, blocks, staging) is chosen once, among candidates, by
 * rule or by timing them ({@link Planning}); {@link #walks()} says it and {@link #report()} how it
 * was chosen. A pack strategy packs or unpacks 4-bit elements. The element walk, for element-type
 * conversion, packed sub-byte layouts, and tiles whose digits do not nest (a {@code *} merge split
 * unevenly), walks the elements through core's address calculators. Destination padding slots are filled with the
 * destination layout's padding value first whenever the destination has any.
 *
 * <p>A plan made for strided views knows their strides, not their offsets: it executes on any views
 * with those strides ({@link #execute(Array, Array)}).
 */
public final class RelayoutPlan {
    private final ArrayShape from;
    private final ArrayShape to;
    private final RelayoutStrategy strategy;
    /** One walk per nest of a {@link RelayoutStrategy.Nests} strategy, else empty. */
    private final List<Walk> walks;
    private final int elementBytes;
    private final int srcElementBytes;
    private final boolean prefill;
    private final long padBits;
    /** The slot strides of a strided-view source (null: dense), and of a strided-view destination. */
    private final long[] srcStrides;
    private final long[] dstStrides;
    private final Planning planning;
    private final int threads;
    private final PlanReport report;

    /** The plan the planner chose for these shapes (and view strides), for {@code threads} threads. */
    RelayoutPlan(ArrayShape from, ArrayShape to, long[] srcStrides, long[] dstStrides, int threads,
                 PlannedWalks planned) {
        this.from = from;
        this.to = to;
        this.strategy = planned.strategy();
        this.walks = planned.walks();
        this.srcStrides = srcStrides == null ? null : srcStrides.clone();
        this.dstStrides = dstStrides == null ? null : dstStrides.clone();
        this.planning = planned.planning();
        this.threads = threads;
        this.report = new PlanReport(planned.origin(), planned.measurements());
        long tb = to.slotBits();
        this.elementBytes = (int) (tb / 8);
        this.srcElementBytes = (int) (from.slotBits() / 8);
        this.prefill = dstStrides == null
                && (to.slotCount() > to.elementCount() || (tb < 8 && (to.slotCount() * tb) % 8 != 0));
        this.padBits = ElementCodec.paddingCode(to.elementType(), to.layout().paddingValue());
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

    /** {@return how this plan's walks were chosen: {@link Planning#ESTIMATE}, {@link Planning#MEASURE} or {@link Planning#EXHAUSTIVE}} */
    public Planning planning() {
        return planning;
    }

    /** {@return the thread count the plan was chosen for (it executes correctly with any)} */
    public int threads() {
        return threads;
    }

    /**
     * {@return how the walks were chosen: where they come from ({@link PlanOrigin#ESTIMATE}, the
     * rules; {@link PlanOrigin#MEASURED}, timed here; {@link PlanOrigin#WISDOM}, timed before on this
     * machine) and every timing a measuring planner made}
     */
    public PlanReport report() {
        return report;
    }

    /** {@return the walk of each loop nest in the text form of {@link Wisdom} files, e.g. {@code order=0,1,2 split=0 tile=16 block=512x64 strips=staged bands=source}; empty for plans with no loop nests} */
    public List<String> walks() {
        return walks.stream().map(Walk::toString).toList();
    }

    /**
     * {@return the plan in words, one line (for diagnostics and the benchmark report)}, e.g. {@code copy 8 x 4
     * = 32 elements in 2 loops (outermost first): source strides 1, 8; destination strides 4, 1 (in slots);
     * from source slot 0 to destination slot 0; walk order=0,1 split=1 tile=16 block=512x512
     * strips=source bands=source (estimate)}, or {@code pack to E(4)}, {@code general element walk}
     */
    public String describe() {
        return switch (strategy) {
            case RelayoutStrategy.Pack4 p -> p.pack() ? "pack to E(4)" : "unpack from E(4)";
            case RelayoutStrategy.ElementWalk w -> "general element walk";
            case RelayoutStrategy.Nests n -> (n.elements().converts() ? n.elements().conversion() + " " : "")
                    + DigitPlanner.describe(walks.stream().map(Walk::nest).toList()) + walkText();
        };
    }

    private String walkText() {
        if (walks.isEmpty()) {
            return "";
        }
        return "; walk " + (walks.size() == 1 ? walks.get(0) : walks()) + " (" + report.describe(threads) + ")";
    }

    /**
     * Relayouts a dense source buffer into a destination buffer.
     *
     * @param src a buffer in the layout of {@link #from()}, at least {@code from().bufferSize()} bytes
     * @param dst a buffer for {@link #to()}, at least {@code to().bufferSize()} bytes
     * @throws IllegalArgumentException  if a buffer is too small, or the two buffers share memory
     *                                   (a relayout cannot run in place: see {@link Relayout#copy(Array, Array)})
     * @throws IllegalStateException     if a segment's arena is closed, or the plan is one for strided views
     * @throws WrongThreadException      if a segment's confined arena belongs to another thread
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public void execute(MemorySegment src, MemorySegment dst) {
        execute(src, dst, null, 1);
    }

    /**
     * Like {@link #execute(MemorySegment, MemorySegment)}, sharing the work between up to
     * {@code parallelism} tasks of {@code executor} when both
     * segments may be used from other threads (shared or global arenas) and a loop nest is large
     * enough to pay (2 MiB); otherwise on the calling thread. Each nest is cut along the loop its
     * walk splits. Returns when all the work is done.
     */
    public void execute(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism) {
        execute(src, dst, executor, parallelism, Tasks.MIN_PARALLEL_BYTES);
    }

    /** {@link #execute(MemorySegment, MemorySegment, ExecutorService, int)}, splitting nests of {@code minParallelBytes} and more. */
    void execute(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism, long minParallelBytes) {
        if (srcStrides != null || dstStrides != null) {
            throw new IllegalStateException("a plan for strided views executes on arrays: execute(Array, Array)");
        }
        RelayoutChecks.checkSize("src", src, from.bufferSize());
        RelayoutChecks.checkSize("dst", dst, to.bufferSize());
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination segment is read-only");
        }
        RelayoutChecks.checkNoOverlap(src, from.bufferSize(), dst, to.bufferSize());
        boolean interrupted = ThreadAccess.interruptedNow();
        try {
            run(src, null, dst, null, prefill, sharing(executor, parallelism, src, dst), parallelism, minParallelBytes);
        } finally {
            ThreadAccess.restoreInterrupt(interrupted, src, dst);
        }
    }

    /**
     * {@return {@code executor} where a relayout between these segments may share its work with other
     * threads (an executor, more than one task, both segments usable from any thread), else null}
     * The one place that decides it: what runs below takes the answer.
     */
    static ExecutorService sharing(ExecutorService executor, int parallelism, MemorySegment src, MemorySegment dst) {
        return executor != null && parallelism > 1 && ThreadAccess.fromAnyThread(src) && ThreadAccess.fromAnyThread(dst)
                ? executor : null;
    }

    /** {@return the strategy} */
    RelayoutStrategy strategy() {
        return strategy;
    }

    /** {@return the walks, one per nest of a {@link RelayoutStrategy.Nests} strategy} */
    List<Walk> walkList() {
        return walks;
    }

    /**
     * The one execution core: fills the destination's padding where {@code fill}, then runs the
     * strategy. The slot functions serve the element walk (null: the dense layouts' own);
     * {@code executor} is {@link #sharing}'s answer (null: this thread only).
     */
    private void run(MemorySegment src, ToLongFunction<long[]> srcSlot, MemorySegment dst,
                     ToLongFunction<long[]> dstSlot, boolean fill, ExecutorService executor, int parallelism,
                     long minParallelBytes) {
        if (fill) {
            fillPadding(dst);
        }
        switch (strategy) {
            case RelayoutStrategy.Pack4 p -> runPack(p.pack(), src, dst, executor, parallelism);
            case RelayoutStrategy.ElementWalk w -> walkElements(src, srcSlot != null ? srcSlot : Addressing.of(from)::slot,
                    dst, dstSlot != null ? dstSlot : Addressing.of(to)::slot);
            case RelayoutStrategy.Nests n -> runNests(src, dst, executor, parallelism, minParallelBytes);
        }
    }

    private void runPack(boolean pack, MemorySegment src, MemorySegment dst, ExecutorService executor,
                         int parallelism) {
        long n = from.elementCount();
        boolean signed = from.elementType().isIntegral() && !from.elementType().isUnsigned();
        boolean parallel = executor != null && n >= Tasks.MIN_PARALLEL_BYTES;
        // parts of whole 128-element groups (64 packed bytes), the last part takes the rest
        long groups = (n + 127) / 128;
        Tasks.forEachChunk(parallel ? executor : null, parallelism, groups, 1, (lo, hi) -> {
            long a = lo * 128;
            long z = Math.min(n, hi * 128);
            if (pack) {
                PackKernels.pack4(src, dst, n, a, z);
            } else {
                PackKernels.unpack4(src, dst, n, a, z, signed);
            }
        }, src, dst);
    }

    /**
     * Relayouts {@code src} into {@code dst}, which must have this plan's shapes, and, if the plan
     * was made for strided views ({@link Relayout#plan(Array, Array)}), its strides; their offsets
     * may differ from those of the arrays it was made for.
     *
     * @throws IllegalArgumentException      if the arrays' shapes or strides are not the plan's, or an
     *                                       element of {@code dst} shares a byte with one of {@code src}
     *                                       (as for {@link Relayout#copy(Array, Array)})
     * @throws IllegalStateException         if an array is not host-addressable or its arena is closed
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public void execute(Array src, Array dst) {
        execute(src, dst, null, 1);
    }

    /** Like {@link #execute(Array, Array)}, sharing the work as {@link #execute(MemorySegment, MemorySegment, ExecutorService, int)} does. */
    public void execute(Array src, Array dst, ExecutorService executor, int parallelism) {
        RelayoutChecks.checkArrays(src, dst);
        executeChecked(src, dst, sharing(executor, parallelism, src.segment(), dst.segment()), parallelism);
    }

    /**
     * Runs on arrays that {@link RelayoutChecks#checkArrays} has passed, with {@code pool}
     * {@link #sharing}'s answer: what {@link Relayout#copy} runs (the checks made once per copy).
     */
    void executeChecked(Array src, Array dst, ExecutorService pool, int parallelism) {
        if (!src.shape().equalsIgnoringLayout(from) || !dst.shape().equalsIgnoringLayout(to)) {
            throw new IllegalArgumentException("arrays " + src.shape() + " -> " + dst.shape() + " do not fit the plan "
                    + from + " -> " + to);
        }
        if (srcStrides == null && dstStrides == null) {
            if (!src.isDense() || !dst.isDense()) {
                throw new IllegalArgumentException("arrays: a strided view needs a plan made for views (Relayout.plan(Array, Array))");
            }
            RelayoutChecks.checkSize("src", src.segment(), from.bufferSize());
            RelayoutChecks.checkSize("dst", dst.segment(), to.bufferSize());
            RelayoutChecks.checkNoOverlap(src.segment(), from.bufferSize(), dst.segment(), to.bufferSize());
            boolean interrupted = ThreadAccess.interruptedNow();
            try {
                run(src.segment(), null, dst.segment(), null, prefill, pool, parallelism, Tasks.MIN_PARALLEL_BYTES);
            } finally {
                ThreadAccess.restoreInterrupt(interrupted, src.segment(), dst.segment());
            }
            return;
        }
        checkStrides("src", src, srcStrides);
        checkStrides("dst", dst, dstStrides);
        RelayoutChecks.checkNoOverlap(src, dst);
        MemorySegment d = dst.segment();
        if (dstStrides == null) {
            RelayoutChecks.checkSize("dst", d, to.bufferSize());
        }
        boolean interrupted = ThreadAccess.interruptedNow();
        try {
            if (strategy instanceof RelayoutStrategy.Nests) {
                // the kernels address each side from its view's first slot
                run(base(src.segment(), src, srcStrides, srcElementBytes), null, base(d, dst, dstStrides, elementBytes),
                        null, prefill && dstStrides == null, pool, parallelism, Tasks.MIN_PARALLEL_BYTES);
            } else {
                run(src.segment(), src::slot, d, dst::slot, prefill && dstStrides == null, pool, parallelism,
                        Tasks.MIN_PARALLEL_BYTES);
            }
        } finally {
            ThreadAccess.restoreInterrupt(interrupted, src.segment(), d);
        }
    }

    /** {@return the part of a view's segment from its slot offset on (a dense side: the whole segment)} */
    private static MemorySegment base(MemorySegment seg, Array a, long[] strides, int bytes) {
        return strides == null ? seg : seg.asSlice(Math.multiplyExact(a.slotOffset(), (long) bytes));
    }

    /** @throws IllegalArgumentException if a side the plan knows as a view has other strides, or a dense side is a view */
    private static void checkStrides(String name, Array a, long[] strides) {
        if (strides == null) {
            if (!a.isDense()) {
                throw new IllegalArgumentException(name + ": a strided view, and the plan was made for a dense array");
            }
            return;
        }
        long[] s = a.slotStrides();
        if (!java.util.Arrays.equals(s, strides)) {
            throw new IllegalArgumentException(name + ": slot strides " + java.util.Arrays.toString(s)
                    + " are not the plan's " + java.util.Arrays.toString(strides));
        }
    }

    /** Runs the walks, each with the kernel it names. */
    private void runNests(MemorySegment src, MemorySegment dst, ExecutorService executor, int parallelism,
                          long minParallelBytes) {
        // the kernels see no confined arena (ThreadAccess.forThisCall): views that end with this call,
        // never stored; work on a confined segment stays on this thread
        try (ThreadAccess.CallViews views = ThreadAccess.openCall()) {
            WalkRunner.runAll(walks, views.view(src), views.view(dst), executor, parallelism, minParallelBytes);
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
