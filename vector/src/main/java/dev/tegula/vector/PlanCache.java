package dev.tegula.vector;

import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.Pages;
import dev.tegula.vector.plan.PlanRequest;
import dev.tegula.vector.plan.Planner;
import dev.tegula.ffm.internal.ThreadAccess;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * Relayout plans kept for reuse, by relayout (source and destination shapes, the strides of either
 * side that is a strided view), planning mode, thread count and, for plans that measure or recall
 * measured walks, the pages under the buffers (huge or 4 KiB: a walk timed on one need not be the
 * fastest on the other): the least recently used leave first
 * once {@link #capacity()} are held. {@link Relayout}'s entry points share one ({@link Relayout#plans()});
 * a caller may own others, of any size, with their own {@link Wisdom}.
 *
 * <p>Thread-safe: one lock around the map; plans are made outside it, so two threads that ask for the
 * same new plan at once may both make it (the later one is kept). A measuring plan is made once per
 * key; later calls get it without timing anything.
 */
public final class PlanCache {
    /**
     * The system property that sets the default planning of {@link Relayout}'s shared cache (the
     * planning {@link Relayout#copy}, {@link Relayout#to} and {@link Relayout#plan(Array, Array)} use):
     * a {@link Planning} name, case ignored; {@code recall} when unset.
     */
    public static final String PLANNING_PROPERTY = "tegula.relayout.planning";

    private final int capacity;
    private volatile Planning defaultPlanning = Planning.RECALL;
    private final Wisdom wisdom;
    /** The facts given to the cache, or null: the wisdom's, else this machine's. */
    private final MachineFacts facts;
    private final Map<Key, RelayoutPlan> plans;

    private record Key(ArrayShape from, ArrayShape to, List<Long> srcStrides, List<Long> dstStrides, Planning planning,
                       int threads, String pages) {
    }

    /**
     * {@return the pages a plan of this planning is kept by: those of the buffers where it measures or
     * recalls measured walks, null (any) where it plans by rule}
     */
    private static String pagesFor(Planning planning, String pages) {
        return planning == Planning.ESTIMATE ? null : pages;
    }

    /**
     * A cache of up to {@code capacity} plans whose measured walks are kept in (and taken from) {@code wisdom}.
     *
     * @param wisdom where measured walks are kept, or null for none
     * @throws IllegalArgumentException if {@code capacity} is negative
     */
    public PlanCache(int capacity, Wisdom wisdom) {
        this(capacity, wisdom, null);
    }

    /**
     * A cache of up to {@code capacity} plans, as {@link #PlanCache(int, Wisdom)}, whose estimates
     * read {@code facts} instead of this machine's: to see what the estimate chooses on a machine of
     * other facts (the kernels are still this machine's), or to plan without the store probe.
     *
     * @param wisdom where measured walks are kept, or null for none
     * @param facts  the machine facts the estimate reads, or null: those {@code wisdom} keeps for
     *               this machine, else {@link MachineFacts#here()} (then kept in {@code wisdom}, which
     *               writes them to its file, if it has one, with its next entry)
     * @throws IllegalArgumentException if {@code capacity} is negative
     */
    public PlanCache(int capacity, Wisdom wisdom, MachineFacts facts) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity: " + capacity + " is negative");
        }
        this.capacity = capacity;
        this.wisdom = wisdom;
        this.facts = facts;
        this.plans = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, RelayoutPlan> e) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    /** {@return the most plans this cache holds} */
    public int capacity() {
        return capacity;
    }

    /** {@return how many plans it holds now} */
    public int size() {
        synchronized (plans) {
            return plans.size();
        }
    }

    /** {@return the wisdom its measuring plans use, or null} */
    public Wisdom wisdom() {
        return wisdom;
    }

    /**
     * {@return the machine facts this cache's estimates read} The facts given to the cache, else
     * those its wisdom keeps for this machine, else {@link MachineFacts#here()} (measured at the
     * first call in the JVM, then kept in the wisdom).
     */
    public MachineFacts machineFacts() {
        if (facts != null) {
            return facts;
        }
        MachineFacts kept = wisdom == null ? null : wisdom.facts();
        if (kept != null) {
            return kept;
        }
        MachineFacts here = MachineFacts.here();
        if (wisdom != null) {
            wisdom.keepFacts(here);
        }
        return here;
    }

    /**
     * {@return the facts a plan to {@code to} reads: {@link #machineFacts()}, but where no destination
     * of that size is ever streamed ({@link Estimate#STREAMED_MIN_BYTES}) and no facts were given or
     * kept, those that need no probe ({@link MachineFacts#unmeasured()})}
     */
    private MachineFacts factsFor(ArrayShape to) {
        if (facts == null && to.bufferSize() < Estimate.STREAMED_MIN_BYTES
                && (wisdom == null || wisdom.facts() == null)) {
            return MachineFacts.unmeasured();
        }
        return machineFacts();
    }

    /**
     * {@return the planning of {@link #plan(Array, Array)}: {@link Planning#RECALL} unless set}
     * {@link Relayout}'s shared cache starts from the system property {@value #PLANNING_PROPERTY}.
     */
    public Planning defaultPlanning() {
        return defaultPlanning;
    }

    /**
     * Sets the planning of {@link #plan(Array, Array)} (for the shared cache: of {@link Relayout#copy}
     * and {@link Relayout#to}). {@link Planning#AUTO} or {@link Planning#MEASURE} opt in to timing
     * candidates on the caller's arrays the first time a large relayout is seen; plans made before
     * keep their walks (call {@link #clear()} to plan again). Thread-safe.
     *
     * @throws NullPointerException if {@code planning} is null
     */
    public void setDefaultPlanning(Planning planning) {
        defaultPlanning = Objects.requireNonNull(planning, "planning");
    }

    /**
     * {@return the plan {@link Relayout#copy} runs for these arrays on one thread: by
     * {@link #defaultPlanning()}}
     *
     * @throws IllegalArgumentException if the arrays cannot be relayouted into each other
     */
    public RelayoutPlan plan(Array src, Array dst) {
        return plan(src, dst, defaultPlanning, 1, null);
    }

    /** Forgets every plan (wisdom keeps what was measured). */
    public void clear() {
        synchronized (plans) {
            plans.clear();
        }
    }

    /**
     * {@return the plan from {@code from} to {@code to} for one thread, by {@link #defaultPlanning()}
     * (the planning {@link #plan(Array, Array)} uses too)}, made and kept if absent.
     *
     * @throws IllegalArgumentException if the dimensions differ, an element type cannot be converted
     *                                  to the other, or a shape is not valid
     */
    public RelayoutPlan plan(ArrayShape from, ArrayShape to) {
        return plan(from, to, defaultPlanning, 1);
    }

    /**
     * {@return the plan from {@code from} to {@code to} chosen by {@code planning} for {@code threads}
     * threads}, made and kept if absent. Measuring here times candidates on buffers it allocates
     * for the purpose (of both shapes, freed before it returns) as {@link dev.tegula.ffm.HostMemory}
     * allocates arrays now (huge pages or not, as its property says), and, for more than one thread,
     * on threads of its own; the plan is kept for those pages.
     *
     * @throws IllegalArgumentException if the shapes cannot be relayouted into each other, or
     *                                  {@code threads} is not positive
     */
    public RelayoutPlan plan(ArrayShape from, ArrayShape to, Planning planning, int threads) {
        Objects.requireNonNull(planning, "planning");
        String pages = Pages.ofAllocation(from.bufferSize(), to.bufferSize());
        Key key = new Key(from, to, null, null, planning, threads, pagesFor(planning, pages));
        RelayoutPlan p = get(key);
        if (p == null) {
            p = make(from, to, null, null, planning, threads, null, null, null, pages);
            put(key, p);
        }
        return p;
    }

    /**
     * {@return the plan for these two arrays, chosen by {@code planning} for {@code threads} threads}
     * Dense arrays share the plan of their shapes; strided views (slices with steps, selections,
     * permuted views) get a plan that knows their strides (not their offsets: it serves any views
     * with the same strides). Measuring times candidates on these arrays themselves, writing
     * {@code dst} (as the relayout does), and, for more than one thread, on {@code executor} (null:
     * threads of its own).
     *
     * @throws IllegalArgumentException if the arrays cannot be relayouted into each other, or
     *                                  {@code threads} is not positive
     * @throws IllegalArgumentException if measuring and {@code dst} shares memory with {@code src}
     *                                  (the timing would write over the source)
     * @throws IllegalStateException    if measuring and an array is not host-addressable
     */
    public RelayoutPlan plan(Array src, Array dst, Planning planning, int threads, ExecutorService executor) {
        return plan(src, dst, planning, threads, executor, false);
    }

    /** {@link #plan(Array, Array, Planning, int, ExecutorService)}, the arrays' checks made already where {@code checked}. */
    RelayoutPlan plan(Array src, Array dst, Planning planning, int threads, ExecutorService executor, boolean checked) {
        Objects.requireNonNull(planning, "planning");
        long[] s = src.isDense() ? null : src.slotStrides();
        long[] d = dst.isDense() ? null : dst.slotStrides();
        String pages = Pages.of(src.segment(), dst.segment());
        Key key = new Key(src.shape(), dst.shape(), boxed(s), boxed(d), planning, threads, pagesFor(planning, pages));
        RelayoutPlan p = get(key);
        if (p == null) {
            Planning resolved = planning.resolve(Math.max(src.shape().bufferSize(), dst.shape().bufferSize()));
            boolean measure = resolved == Planning.MEASURE || resolved == Planning.EXHAUSTIVE;
            MemorySegment ss = null;
            MemorySegment ds = null;
            if (measure) {
                if (!checked) {
                    RelayoutChecks.checkArrays(src, dst);
                }
                RelayoutChecks.checkNoOverlap(src, dst);   // timing writes dst: never over the source
                ss = s == null ? src.segment() : src.segment().asSlice(src.slotOffset() * (src.shape().slotBits() / 8));
                ds = d == null ? dst.segment() : dst.segment().asSlice(dst.slotOffset() * (dst.shape().slotBits() / 8));
            }
            p = make(src.shape(), dst.shape(), s, d, planning, threads, ss, ds, executor, pages);
            put(key, p);
        }
        return p;
    }

    /** {@return a new plan} The buffers ({@code src}, {@code dst}: null unless measuring on them) are where a measuring planner times. */
    private RelayoutPlan make(ArrayShape from, ArrayShape to, long[] srcStrides, long[] dstStrides, Planning planning,
                              int threads, MemorySegment src, MemorySegment dst, ExecutorService executor,
                              String pages) {
        RelayoutChecks.checkCompatible(from, to);
        Planning mode = planning.resolve(Math.max(from.bufferSize(), to.bufferSize()));
        PlanRequest request = new PlanRequest(from, to, srcStrides, dstStrides, mode, threads, src, dst, executor,
                wisdom == null ? null : wisdom.memory(), factsFor(to), pages);
        return new RelayoutPlan(from, to, srcStrides, dstStrides, threads, Planner.plan(request));
    }

    private static List<Long> boxed(long[] a) {
        return a == null ? null : Arrays.stream(a).boxed().toList();
    }

    private RelayoutPlan get(Key key) {
        synchronized (plans) {
            return plans.get(key);
        }
    }

    private void put(Key key, RelayoutPlan p) {
        synchronized (plans) {
            plans.put(key, p);
        }
    }
}
