package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.util.concurrent.ExecutorService;

/**
 * The relayout engine's entry points: move an array between any two layouts of the same
 * dimensions (every {@code minor_to_major} permutation, tiles, nested tiles, {@code *} combined
 * dimensions, tail padding, legacy padded dimensions, packed sub-byte {@code E(n)}), optionally
 * converting the element type in the same pass.
 *
 * <p>{@link #plan} builds (and caches, per shape pair) an immutable {@link RelayoutPlan}. Plans and
 * this class are thread-safe.
 */
public final class Relayout {
    /** How many plans of dense shape pairs {@link #plan(ArrayShape, ArrayShape)} keeps. */
    static final int PLAN_CACHE_CAPACITY = 256;
    private static final PlanCache PLANS = new PlanCache(PLAN_CACHE_CAPACITY);

    private Relayout() {
    }

    /**
     * {@return the plan that moves arrays of shape {@code from} into arrays of shape {@code to}}
     * Plans are cached by shape pair (least recently used, 256 entries).
     *
     * @throws IllegalArgumentException if the dimensions differ, an element type cannot be converted
     *                                  to the other, or a shape is not valid
     */
    public static RelayoutPlan plan(ArrayShape from, ArrayShape to) {
        return PLANS.plan(from, to);
    }

    /**
     * {@return the plan for these two arrays} Dense arrays share the cached plan of their shapes;
     * strided views (slices with steps, selections, permuted views) get a plan that knows their
     * slot offsets and strides.
     */
    public static RelayoutPlan plan(Array src, Array dst) {
        boolean srcDense = src.isDense();
        boolean dstDense = dst.isDense();
        if (srcDense && dstDense) {
            return plan(src.shape(), dst.shape());
        }
        SlotTerms srcTerms = srcDense ? SlotTerms.of(src.shape()) : SlotTerms.strided(src);
        SlotTerms dstView = dstDense ? null : SlotTerms.strided(dst);
        return RelayoutPlan.forViews(src.shape(), dst.shape(), srcTerms, dstView);
    }

    /**
     * Copies {@code src} into {@code dst}: same dimensions, any two layouts, converting the element
     * type when the two differ (floats round to nearest even; see {@code docs/relayout.md}).
     * Destination padding slots get the destination layout's padding value.
     *
     * @throws IllegalArgumentException      if the dimensions differ or the types cannot be converted
     * @throws IllegalStateException         if an array is not host-addressable or its arena is closed
     * @throws WrongThreadException          if an array's confined arena belongs to another thread
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public static void copy(Array src, Array dst) {
        plan(src, dst).execute(src, dst);
    }

    /**
     * Like {@link #copy(Array, Array)}, sharing large work between up to {@code parallelism} tasks
     * of {@code executor} when both arrays' arenas allow other threads (shared or global arenas);
     * otherwise on the calling thread.
     */
    public static void copy(Array src, Array dst, ExecutorService executor, int parallelism) {
        plan(src, dst).execute(src, dst, executor, parallelism);
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
