package dev.tegula.vector;

import dev.tegula.vector.kernels.StreamStores;
import dev.tegula.vector.plan.Estimate;

/**
 * Whether this process's relayouts can write their destination with streaming (non-temporal) stores,
 * which write whole cache lines without reading them first, and whether the estimate uses them
 * ({@code docs/relayout.md}, "Store paths"). A walk that streams says so in its text
 * ({@code strips=streamed}, {@code stores=streamed}); where the routine is not there such a walk
 * runs with plain stores, with the same result. Fixed for the life of the process. Immutable.
 *
 * @param available whether the streaming routine is there (Linux on x86-64, executable memory
 *                  allowed, not switched off with {@code -Dtegula.relayout.streamStores=false})
 * @param estimated whether the estimate ({@link Planning#ESTIMATE}) streams large destinations on
 *                  this machine (the routine is there and {@link MachineFacts#streamingHelps()});
 *                  measuring planners time streaming walks wherever the routine is there
 * @param reason    why the routine is not there, or null when it is
 */
public record StreamingStores(boolean available, boolean estimated, String reason) {

    /** {@return what this process has} */
    public static StreamingStores here() {
        return new StreamingStores(StreamStores.available(), StreamStores.available() && MachineFacts.here().streamingHelps(),
                StreamStores.unavailableReason());
    }

    /** {@return one line for people: on or off, where the estimate uses it, and why it is off} */
    public String describe() {
        if (!available) {
            return "streaming stores: off (" + reason + "); walks that stream copy with plain stores";
        }
        if (estimated) {
            return "streaming stores: on; the estimate streams destinations of " + (Estimate.STREAMED_MIN_BYTES >> 20)
                    + " MiB or more on this machine (streaming stores measured faster), a measuring planner times walks with and without them";
        }
        return "streaming stores: on; the estimate does not use them on this machine (not measured faster), a"
                + " measuring planner times walks with and without them";
    }
}
