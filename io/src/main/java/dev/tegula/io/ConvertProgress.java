package dev.tegula.io;

/**
 * Told how far a {@link TensorFiles#convert} has come: after each window of the destination and at
 * the end of each tensor. Calls come one at a time (never concurrently), from the calling thread
 * or, while small tensors are written several at once, from common-pool threads. Keep it quick;
 * an exception it throws fails the conversion (the target is then left as it was).
 */
@FunctionalInterface
public interface ConvertProgress {
    /** A listener that does nothing. */
    ConvertProgress NONE = (tensor, done, total) -> { };

    /**
     * @param tensor the name of the tensor being written
     * @param done   bytes of the output written so far, all tensors together
     * @param total  bytes the output's tensors will have in all
     */
    void update(String tensor, long done, long total);
}
