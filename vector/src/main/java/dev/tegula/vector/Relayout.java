package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
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
