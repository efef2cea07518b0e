package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plans of dense arrays, by (source shape, destination shape): least recently used entries
 * leave first once {@link #capacity} plans are held. Thread-safe (one lock around the map; plans
 * are built outside it, so two threads may build the same plan once each and the later one wins).
 */
final class PlanCache {
    private final int capacity;
    private final Map<List<ArrayShape>, RelayoutPlan> plans;

    PlanCache(int capacity) {
        this.capacity = capacity;
        this.plans = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<List<ArrayShape>, RelayoutPlan> e) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    /** {@return the cached plan from {@code from} to {@code to}, built and cached if absent} */
    RelayoutPlan plan(ArrayShape from, ArrayShape to) {
        List<ArrayShape> key = List.of(from, to);
        synchronized (plans) {
            RelayoutPlan p = plans.get(key);
            if (p != null) {
                return p;
            }
        }
        RelayoutPlan p = RelayoutPlan.forShapes(from, to);
        synchronized (plans) {
            plans.put(key, p);
        }
        return p;
    }
}
