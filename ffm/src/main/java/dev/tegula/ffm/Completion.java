package dev.tegula.ffm;

/**
 * The completion of an operation a memory space provider enqueued (a copy, an unmap, a kernel): an
 * OpenCL event, a CUDA stream event, or nothing for host memory, which completes at once.
 *
 * <p>{@link #await()} blocks until the operation has finished and then releases what the provider
 * held for it (the event); it may be called more than once and from any thread. A failed operation
 * makes {@code await} throw {@link IllegalStateException} naming it. Implementations are thread-safe.
 */
public interface Completion {
    /** The completion of an operation that finished before it returned. */
    Completion DONE = () -> { };

    /**
     * Waits for the operation to finish.
     *
     * @throws IllegalStateException if the operation failed (the message names it and the device's reason)
     */
    void await();
}
