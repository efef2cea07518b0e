package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.util.concurrent.ExecutorService;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

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
    private static final int CACHE_SIZE = 256;
    private static final Map<List<ArrayShape>, RelayoutPlan> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<ArrayShape>, RelayoutPlan> e) {
            return size() > CACHE_SIZE;
        }
    };
    private static final Thread PROBE = new Thread(() -> { });

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
        List<ArrayShape> key = List.of(from, to);
        synchronized (CACHE) {
            RelayoutPlan p = CACHE.get(key);
            if (p != null) {
                return p;
            }
        }
        RelayoutPlan p = new RelayoutPlan(from, to, Side.of(from));
        synchronized (CACHE) {
            CACHE.put(key, p);
        }
        return p;
    }

    /**
     * {@return the plan for these two arrays} Dense arrays share the cached plan of their shapes;
     * strided views (slices with steps, selections, permuted views) get a plan that knows their
     * element offsets and strides.
     */
    public static RelayoutPlan plan(Array src, Array dst) {
        boolean srcDense = isDense(src);
        boolean dstDense = isDense(dst);
        if (srcDense && dstDense) {
            return plan(src.shape(), dst.shape());
        }
        Side srcSide = srcDense ? Side.of(src.shape()) : Side.strided(src.shape().dimensions(), src.elementOffset(),
                src.elementStrides());
        Side dstSide = dstDense ? null : Side.strided(dst.shape().dimensions(), dst.elementOffset(),
                dst.elementStrides());
        return new RelayoutPlan(src.shape(), dst.shape(), srcSide, dstSide, srcDense ? null : srcSide, dstSide);
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
        ArrayShape target = ArrayShape.ofDynamic(src.shape().elementType(), src.shape().dimensions(),
                dynamicFlags(src.shape())).withLayout(layout);
        Array dst = Array.allocate(arena, target);
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

    private static boolean[] dynamicFlags(ArrayShape s) {
        boolean[] f = new boolean[s.rank()];
        for (int d = 0; d < f.length; d++) {
            f[d] = s.isDynamicDimension(d);
        }
        return f;
    }

    /** {@return true if the array is its layout's whole buffer at offset 0 (not a strided view)} */
    static boolean isDense(Array a) {
        long[] strides = a.elementStrides();
        if (strides == null) {
            return true;   // tiled arrays and tiled views are dense over their segment
        }
        ArrayShape s = a.shape();
        if (s.elementCount() == 0) {
            return true;   // no element to address (and no in-bounds index to probe the strides with)
        }
        if (a.elementOffset() != 0) {
            return false;
        }
        for (int d = 0; d < strides.length; d++) {
            long[] unit = new long[s.rank()];
            if (s.dimension(d) < 2) {
                continue;
            }
            unit[d] = 1;
            if (s.linearIndex(unit) != strides[d]) {
                return false;
            }
        }
        return true;
    }

    static void checkArrays(Array src, Array dst) {
        if (!src.isHostAccessible()) {
            throw new IllegalStateException("src: memory space S(" + src.shape().layout().memorySpace()
                    + ") is not host-addressable; copy it to host memory through its provider first");
        }
        if (!dst.isHostAccessible()) {
            throw new IllegalStateException("dst: memory space S(" + dst.shape().layout().memorySpace()
                    + ") is not host-addressable");
        }
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination array is read-only");
        }
    }

    /** Checks that a relayout between these shapes is defined. */
    static void checkCompatible(ArrayShape from, ArrayShape to) {
        if (!Arrays.equals(from.dimensions(), to.dimensions())) {
            throw new IllegalArgumentException("dimensions: source " + from.toStringWithoutLayout()
                    + " and destination " + to.toStringWithoutLayout() + " differ");
        }
        if (from.elementType().isComplex() != to.elementType().isComplex()) {
            throw new IllegalArgumentException("elementType: cannot convert " + from.elementType() + " to "
                    + to.elementType() + " (complex and real)");
        }
        if (!from.isStaticOrBounded() || !to.isStaticOrBounded()) {
            throw new IllegalArgumentException("dimensions: unbounded dynamic dimensions cannot be relayouted");
        }
    }

    /** {@return true if the segment may be used from threads other than the caller's} */
    static boolean sharable(MemorySegment seg) {
        return seg.isAccessibleBy(PROBE);
    }

    static void await(List<Future<?>> futures) {
        RuntimeException failure = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                RuntimeException r = c instanceof RuntimeException re ? re : new IllegalStateException(c);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for relayout tasks", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
