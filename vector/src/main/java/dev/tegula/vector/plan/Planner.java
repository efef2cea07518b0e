package dev.tegula.vector.plan;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.MachineFacts;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.Planning;
import dev.tegula.vector.kernels.Elements;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans relayouts: the strategy and loop nests from the two shapes, then one {@link Walk} per nest
 * (each naming its kernel), by rule ({@link Estimate}), from kept choices ({@link WalkMemory}), or
 * by timing candidates ({@link MeasuredSearch}). Nests under {@link #MIN_MEASURED_BYTES} and all
 * but the largest nest keep the estimate. Stateless and thread-safe.
 */
public final class Planner {
    private Planner() {
    }

    /** Nests under this many bytes are never measured. */
    public static final long MIN_MEASURED_BYTES = 1L << 20;

    /** {@return the walks for the request} The shapes must be compatible (checked by the caller). */
    public static PlannedWalks plan(PlanRequest r) {
        ArrayShape from = r.from();
        ArrayShape to = r.to();
        SlotTerms srcTerms = r.srcStrides() != null ? SlotTerms.strided(from.dimensions(), 0, r.srcStrides())
                : SlotTerms.of(from);
        SlotTerms dstTerms = r.dstStrides() != null ? SlotTerms.strided(to.dimensions(), 0, r.dstStrides())
                : SlotTerms.of(to);
        RelayoutStrategy strategy = RelayoutStrategy.choose(from, to, srcTerms, dstTerms, r.views());
        if (!(strategy instanceof RelayoutStrategy.Nests nests)) {
            return PlannedWalks.estimate(strategy, List.of());
        }
        Elements elements = nests.elements();
        List<Walk> walks = new ArrayList<>();
        int largest = 0;
        MachineFacts facts = r.machineFacts();
        for (int i = 0; i < nests.nests().size(); i++) {
            walks.add(Estimate.of(nests.nests().get(i), elements, facts));
            if (nests.nests().get(i).elements() > nests.nests().get(largest).elements()) {
                largest = i;
            }
        }
        long nestBytes = walks.isEmpty() ? 0 : elements.srcBytes(walks.get(largest).nest().elements());
        if (r.planning() == Planning.ESTIMATE || nestBytes < MIN_MEASURED_BYTES) {
            return PlannedWalks.estimate(strategy, walks);
        }
        String known = r.memory() == null ? null : r.memory().recall(r);
        if (known != null) {
            List<Walk> kept = fromText(known, nests.nests(), walks, elements, r.memory());
            if (kept != null) {
                return new PlannedWalks(strategy, kept, r.planning(), PlanOrigin.WISDOM, List.of());
            }
        }
        if (r.planning() == Planning.RECALL) {   // nothing kept: the estimate, untimed
            return new PlannedWalks(strategy, walks, Planning.RECALL, PlanOrigin.ESTIMATE, List.of());
        }
        if (r.src() != null && r.dst() != null) {
            return MeasuredSearch.run(r, strategy, walks, largest, r.src(), r.dst());
        }
        if (r.views()) {
            return PlannedWalks.estimate(strategy, walks);
        }
        try (Arena arena = Arena.ofShared()) {
            boolean huge = !Pages.SMALL.equals(r.pageKind());
            MemorySegment s = buffer(arena, from.bufferSize(), huge);
            MemorySegment d = buffer(arena, to.bufferSize(), huge);
            // pages of their own (an untouched page reads as the shared zero page, from cache)
            s.fill((byte) 0x3C);
            d.fill((byte) 0);
            return MeasuredSearch.run(r, strategy, walks, largest, s, d);
        }
    }

    /**
     * {@return a buffer of {@code bytes} to time candidates on, allocated as the caller's arrays are}:
     * through {@link HostMemory} (huge pages where it gives them) where {@code huge}, else on 4 KiB
     * pages ({@link Arena#allocate}). A walk timed on huge pages and run on 4 KiB ones (or the other
     * way) was chosen for a TLB the relayout does not have.
     */
    static MemorySegment buffer(Arena arena, long bytes, boolean huge) {
        return huge ? HostMemory.allocate(arena, bytes, 4096) : arena.allocate(bytes, 4096);
    }

    /** {@return the walks in the text that {@link WalkMemory} keeps: {@code NEST:WALK} items separated by {@code ;}} */
    public static String toText(List<Walk> walks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < walks.size(); i++) {
            b.append(b.isEmpty() ? "" : ";").append(i).append(':').append(walks.get(i));
        }
        return b.toString();
    }

    /** {@return the estimate walks with the kept walks in place, or null (with a warning) if those do not fit these nests} */
    private static List<Walk> fromText(String text, List<LoopNest> nests, List<Walk> estimate, Elements elements,
                                       WalkMemory memory) {
        List<Walk> out = new ArrayList<>(estimate);
        try {
            for (String item : text.split(";")) {
                int colon = item.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("walk item '" + item + "' has no nest number");
                }
                int nest = Integer.parseInt(item.substring(0, colon).trim());
                if (nest < 0 || nest >= nests.size()) {
                    throw new IllegalArgumentException("nest " + nest + " of " + nests.size());
                }
                out.set(nest, Walk.parse(item.substring(colon + 1), nests.get(nest), elements));
            }
            return out;
        } catch (RuntimeException e) {
            memory.warn("wisdom entry not used: " + e.getMessage());
            return null;
        }
    }
}
