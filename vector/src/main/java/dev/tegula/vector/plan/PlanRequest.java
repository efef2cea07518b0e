package dev.tegula.vector.plan;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.MachineFacts;
import dev.tegula.vector.Planning;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;

/**
 * What a plan is asked for: the two shapes, the strides of either side that is a strided view, how
 * to choose the walks and for how many threads, and for a measuring planner where to time them.
 * Immutable (the arrays are the caller's; the planner does not change them).
 *
 * @param from       the source shape
 * @param to         the destination shape
 * @param srcStrides the source's slot strides if it is a strided view, else null
 * @param dstStrides the destination's, likewise
 * @param planning   how to choose the walks, resolved for these shapes (never {@link Planning#AUTO})
 * @param threads    the thread count the walks are chosen for (positive)
 * @param src        the buffer to measure on (at its view's offset), or null: measuring then
 *                   allocates buffers of the two shapes (dense sides only)
 * @param dst        likewise for the destination
 * @param executor   where a measuring planner runs the other threads' parts (null: it makes its own)
 * @param memory     where measured choices are kept and looked up (null: none)
 * @param facts      the machine facts the estimate reads (null: {@link MachineFacts#here()})
 * @param pages      the pages under the buffers the plan is for ({@link Pages}: {@code huge}, {@code 4k} or
 *                   {@code mixed}; null: those {@code HostMemory} gives buffers of these shapes now): a
 *                   measured choice is kept and recalled for these pages only, and a plan of shapes times
 *                   on buffers allocated as the caller's are
 */
public record PlanRequest(ArrayShape from, ArrayShape to, long[] srcStrides, long[] dstStrides, Planning planning,
                          int threads, MemorySegment src, MemorySegment dst, ExecutorService executor,
                          WalkMemory memory, MachineFacts facts, String pages) {

    public PlanRequest {
        if (threads < 1) {
            throw new IllegalArgumentException("threads: " + threads + " is not positive");
        }
        if (planning == Planning.AUTO) {
            throw new IllegalArgumentException("planning: AUTO is resolved before planning");
        }
        if (pages != null && !Pages.valid(pages)) {
            throw new IllegalArgumentException("pages: '" + pages + "' is none of huge, 4k, mixed");
        }
    }

    /** {@return a request to plan by rule, one thread, dense sides} */
    public static PlanRequest estimate(ArrayShape from, ArrayShape to) {
        return new PlanRequest(from, to, null, null, Planning.ESTIMATE, 1, null, null, null, null, null, null);
    }

    /** {@return the facts the estimate reads: those given, else this machine's} */
    public MachineFacts machineFacts() {
        return facts != null ? facts : MachineFacts.here();
    }

    /** {@return the pages under the plan's buffers: those given, else those {@code HostMemory} gives buffers of these shapes now} */
    public String pageKind() {
        return pages != null ? pages : Pages.ofAllocation(from.bufferSize(), to.bufferSize());
    }

    /** {@return whether either side is a strided view} */
    public boolean views() {
        return srcStrides != null || dstStrides != null;
    }
}
