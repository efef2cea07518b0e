package dev.tegula.vector;

import dev.tegula.vector.kernels.VectorApi;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.Arena;
import java.util.concurrent.ExecutorService;

/**
 * The relayout engine's entry points: move an array between any two layouts of the same
 * dimensions (every {@code minor_to_major} permutation, tiles, nested tiles, {@code *} combined
 * dimensions, tail padding, legacy padded dimensions, packed sub-byte {@code E(n)}), optionally
 * converting the element type in the same pass.
 *
 * <p>{@link #plan} makes (and keeps, in the shared {@link #plans()} cache) an immutable
 * {@link RelayoutPlan}: plan once, run many. {@link #copy} and {@link #to} run the plan
 * {@link #plan(Array, Array)} returns for the same arrays, made by the shared cache's
 * {@linkplain PlanCache#defaultPlanning() default planning}: {@link Planning#RECALL} unless the
 * application opted in to measuring ({@link PlanCache#setDefaultPlanning}, or the system property
 * {@value PlanCache#PLANNING_PROPERTY}{@code =auto}). So by default they never time candidates and
 * never write a file; the walks that {@link Wisdom#global()} holds for this machine are still used.
 * Plans and this class are thread-safe.
 *
 * <p>The first relayout of a kind in a JVM runs its kernels interpreted while the JIT compiles
 * them, so it takes longer than later ones (see {@code docs/relayout.md}, "The first relayout").
 *
 * <p>The kernels use the Vector API (module {@code jdk.incubator.vector}). On the module path it is
 * resolved by {@code dev.tegula.vector}'s {@code requires}; on the class path the JVM needs
 * {@code --add-modules jdk.incubator.vector}, and without it every method here throws a
 * {@link NoClassDefFoundError} that says so.
 */
public final class Relayout {
    /** How many plans the shared cache keeps. */
    static final int PLAN_CACHE_CAPACITY = 256;
    private static final class Shared {
        static final PlanCache PLANS = shared();

        private static PlanCache shared() {
            PlanCache cache = new PlanCache(PLAN_CACHE_CAPACITY, Wisdom.global());
            String p = System.getProperty(PlanCache.PLANNING_PROPERTY);
            if (p != null && !p.isBlank()) {
                try {
                    cache.setDefaultPlanning(Planning.valueOf(p.trim().toUpperCase(java.util.Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    System.getLogger("dev.tegula.vector").log(System.Logger.Level.WARNING,
                            PlanCache.PLANNING_PROPERTY + "=" + p + " is not a planning mode (estimate, measure,"
                                    + " exhaustive, auto, recall); planning by recall");
                }
            }
            return cache;
        }
    }

    private Relayout() {
    }

    /**
     * {@return the plan cache that this class's methods share (256 plans, with {@link Wisdom#global()})}
     *
     * @throws NoClassDefFoundError if the JVM was started without the Vector API (on the class path:
     *                              without {@code --add-modules jdk.incubator.vector}); the message
     *                              names the flag
     */
    public static PlanCache plans() {
        VectorApi.require();
        return Shared.PLANS;
    }

    /**
     * {@return the plan that moves arrays of shape {@code from} into arrays of shape {@code to}, for
     * one thread, by the shared cache's default planning: the plan {@link #copy(Array, Array)} runs
     * for dense arrays of these shapes} Plans are cached by shape pair (least recently used, 256
     * entries).
     *
     * @throws IllegalArgumentException if the dimensions differ, an element type cannot be converted
     *                                  to the other, or a shape is not valid
     */
    public static RelayoutPlan plan(ArrayShape from, ArrayShape to) {
        return plans().plan(from, to);
    }

    /**
     * {@return the plan from {@code from} to {@code to} chosen by {@code planning} for
     * {@code threads} threads} (see {@link PlanCache#plan(ArrayShape, ArrayShape, Planning, int)}).
     */
    public static RelayoutPlan plan(ArrayShape from, ArrayShape to, Planning planning, int threads) {
        return plans().plan(from, to, planning, threads);
    }

    /**
     * {@return the plan {@link #copy(Array, Array)} runs for these two arrays} made by the shared
     * cache's default planning ({@link Planning#RECALL} unless the application chose otherwise).
     * Dense arrays share the cached plan of their shapes; strided views (slices with steps,
     * selections, permuted views) get a plan that knows their strides, and serves any views with
     * the same strides.
     */
    public static RelayoutPlan plan(Array src, Array dst) {
        return plans().plan(src, dst);
    }

    /**
     * Copies {@code src} into {@code dst}: same dimensions, any two layouts, converting the element
     * type when the two differ (floats round to nearest even; see {@code docs/relayout.md}).
     * Destination padding slots get the destination layout's padding value.
     *
     * <p>The destination must not share memory with the source: a view of the source's own buffer
     * (or the source itself) whose elements share a byte with the source's is refused with an
     * {@link IllegalArgumentException} before anything is written, as the copy reads the source
     * while it writes the destination and would leave a corrupt result; no copy through a buffer
     * is made. Views of one buffer whose elements are disjoint (two halves, interleaved columns)
     * are accepted. Arrays whose byte spans ({@link Array#byteSpan()}) do not overlap cost two
     * comparisons; views whose spans overlap are told apart element by element.
     *
     * <p>A shared arena of either array closed by another thread while the copy runs ends it with an
     * {@link IllegalStateException} (or lets it finish, where the close came after the last access).
     * The JVM interrupts a thread it finds inside an access of memory being closed; the copy clears
     * that interrupt, on the calling thread and on an executor's, so it leaves each thread's
     * interrupt status as it found it (an interrupt the caller had before the call is kept).
     *
     * <p>Either array may be device memory ({@link Array#deviceBuffer()}): between two arrays of one
     * device the provider's device relayout runs where it has one
     * ({@link dev.tegula.ffm.MemorySpaceProvider#relayout}); otherwise the engine reads and writes
     * {@linkplain Array#map mappings} of the device buffers, the destination mapped for writing only
     * when it is a whole buffer, or the bytes are copied as they are and the device relayouts them
     * ({@link DeviceRoute}): each byte moves between host and device once. Which of the two runs is
     * measured on the first runs of each pair of shapes ({@link DeviceRoute#MEASURE}), unless the
     * system property {@value #DEVICE_ROUTE_PROPERTY} names {@code mapped} or {@code staged}.
     *
     * @throws IllegalArgumentException      if the dimensions differ, the types cannot be converted, or
     *                                       the destination shares memory with the source
     * @throws IllegalStateException         if an array is neither host memory nor mappable, or its arena is closed
     * @throws WrongThreadException          if an array's confined arena belongs to another thread
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public static void copy(Array src, Array dst) {
        if (DeviceRelayout.involvesDevice(src, dst)) {
            copy(src, dst, defaultDeviceRoute());
            return;
        }
        hostCopy(src, dst);
    }

    /**
     * The system property that sets the route of relayouts between host and device memory:
     * {@code measure} (the default), {@code mapped} or {@code staged} ({@link DeviceRoute}).
     */
    public static final String DEVICE_ROUTE_PROPERTY = "tegula.device.route";

    /** {@return the route {@value #DEVICE_ROUTE_PROPERTY} sets, read at each call} */
    private static DeviceRoute defaultDeviceRoute() {
        return deviceRouteOf(System.getProperty(DEVICE_ROUTE_PROPERTY));
    }

    static DeviceRoute deviceRouteOf(String text) {
        if (text == null || text.isBlank()) {
            return DeviceRoute.MEASURE;
        }
        try {
            return DeviceRoute.valueOf(text.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(DEVICE_ROUTE_PROPERTY + ": '" + text
                    + "' is not a route; use measure, mapped or staged", e);
        }
    }

    /**
     * Like {@link #copy(Array, Array)}, with the route between host and device memory given; on
     * arrays that are both host memory, or both of one device, {@code route} has no effect.
     *
     * @throws NullPointerException if {@code route} is null
     */
    public static void copy(Array src, Array dst, DeviceRoute route) {
        java.util.Objects.requireNonNull(route, "route");
        if (DeviceRelayout.involvesDevice(src, dst)) {
            DeviceRelayout.copy(src, dst, route, (s, d) -> plans().plan(s, d).execute(s, d));
            return;
        }
        hostCopy(src, dst);
    }

    /** The relayout of two host arrays on the calling thread. */
    private static void hostCopy(Array src, Array dst) {
        RelayoutChecks.checkArrays(src, dst);
        PlanCache cache = plans();
        boolean interrupted = ThreadAccess.interruptedNow();
        try {
            cache.plan(src, dst, cache.defaultPlanning(), 1, null, true).executeChecked(src, dst, null, 1);
        } finally {
            ThreadAccess.restoreInterrupt(interrupted, src.segment(), dst.segment());
        }
    }

    /**
     * Like {@link #copy(Array, Array)}, sharing large work between up to {@code parallelism} tasks
     * of {@code executor} when both arrays' arenas allow other threads (shared
     * or global arenas); otherwise on the calling thread.
     */
    public static void copy(Array src, Array dst, ExecutorService executor, int parallelism) {
        if (DeviceRelayout.involvesDevice(src, dst)) {
            DeviceRelayout.copy(src, dst, defaultDeviceRoute(), (s, d) -> copy(s, d, executor, parallelism));
            return;
        }
        RelayoutChecks.checkArrays(src, dst);
        ExecutorService pool = RelayoutPlan.sharing(executor, parallelism, src.segment(), dst.segment());
        PlanCache cache = plans();
        boolean interrupted = ThreadAccess.interruptedNow();
        try {
            cache.plan(src, dst, cache.defaultPlanning(), pool == null ? 1 : parallelism, pool, true)
                    .executeChecked(src, dst, pool, parallelism);
        } finally {
            ThreadAccess.restoreInterrupt(interrupted, src.segment(), dst.segment());
        }
    }
    /**
     * {@return the route that measurement chose between host memory and a device for this pair of
     * arrays' shapes, or empty while the first runs are still timed} Pairs that only run mapped (views,
     * small relayouts, pairs the device has no relayout for) give {@link DeviceRoute#MAPPED}.
     */
    public static java.util.Optional<DeviceRoute> measuredDeviceRoute(Array src, Array dst) {
        return DeviceRelayout.chosen(src, dst);
    }

    /**
     * {@return a new array in {@code arena} holding {@code src} in {@code layout}}
     *
     * @throws IllegalArgumentException if the layout does not fit the array's dimensions
     */
    public static Array to(Array src, Layout layout, Arena arena) {
        Array dst = Array.allocate(arena, src.shape().withLayout(layout));
        copy(src, dst);
        return dst;
    }

    /**
     * {@return a new array in {@code arena} holding {@code src} converted to {@code target}'s element
     * type and layout} {@code target} must have the same dimensions.
     */
    public static Array to(Array src, ArrayShape target, Arena arena) {
        Array dst = Array.allocate(arena, target);
        copy(src, dst);
        return dst;
    }
}
