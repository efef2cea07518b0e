package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import java.util.Objects;

/**
 * How {@link TensorFiles#convert} works: its memory budget, progress listener, the shape of a raw
 * input, the threads it may use, what an f16 output does with values too large for f16, and what it
 * does with a tensor it cannot write. Immutable; the {@code with...} methods return copies.
 *
 * @param memoryBytes     bytes of file pages the windows of the output and their source spans may
 *                        hold together (default {@value #DEFAULT_MEMORY}), whatever number of files
 *                        are written at once; the conversion allocates no anonymous buffer of a
 *                        tensor's size, so this bounds its working set, not a heap
 * @param progress        told the bytes written after each window
 * @param rawShape        the full shape (with layout) of a raw input file; null when the input has a format
 * @param parallelism     threads the conversion may use (1: the calling thread only)
 * @param f16Overflow     what a tensor converted to f16 does with a finite value of magnitude 65520 or
 *                        more (default {@link F16Overflow#REFUSE}: the conversion fails naming the
 *                        tensor, the element and its value, and the target is left as it was)
 * @param skipUnsupported true to leave out, and report, a tensor that cannot be written as the rules
 *                        ask (a GGUF type Tegula does not dequantize, a layout that does not fit it, a
 *                        type the output format cannot hold) instead of failing the conversion
 */
public record ConvertOptions(long memoryBytes, ConvertProgress progress, ArrayShape rawShape, int parallelism,
                             F16Overflow f16Overflow, boolean skipUnsupported) {
    /** The default memory budget: 256 MiB. */
    public static final long DEFAULT_MEMORY = 256L << 20;
    /** The smallest budget accepted: 1 MiB. */
    public static final long MIN_MEMORY = 1L << 20;

    /** @throws IllegalArgumentException if the budget is under 1 MiB or parallelism under 1 */
    public ConvertOptions {
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(f16Overflow, "f16Overflow");
        if (memoryBytes < MIN_MEMORY) {
            throw new IllegalArgumentException("memoryBytes: at least " + MIN_MEMORY + " bytes (1 MiB), got " + memoryBytes);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism: at least 1, got " + parallelism);
        }
    }

    /** Options with f16 overflow refused ({@link F16Overflow#REFUSE}) and no tensor skipped. */
    public ConvertOptions(long memoryBytes, ConvertProgress progress, ArrayShape rawShape, int parallelism) {
        this(memoryBytes, progress, rawShape, parallelism, F16Overflow.REFUSE, false);
    }

    /** {@return the defaults: 256 MiB, no progress, no raw shape, every available processor, f16 overflow refused, no tensor skipped} */
    public static ConvertOptions defaults() {
        return new ConvertOptions(DEFAULT_MEMORY, ConvertProgress.NONE, null, Runtime.getRuntime().availableProcessors(),
                F16Overflow.REFUSE, false);
    }

    /** {@return these options with a memory budget of {@code bytes}} */
    public ConvertOptions withMemory(long bytes) {
        return new ConvertOptions(bytes, progress, rawShape, parallelism, f16Overflow, skipUnsupported);
    }

    /** {@return these options with a progress listener} */
    public ConvertOptions withProgress(ConvertProgress listener) {
        return new ConvertOptions(memoryBytes, listener, rawShape, parallelism, f16Overflow, skipUnsupported);
    }

    /** {@return these options reading the input as a raw buffer of {@code shape} (its layout included)} */
    public ConvertOptions withRawShape(ArrayShape shape) {
        return new ConvertOptions(memoryBytes, progress, shape, parallelism, f16Overflow, skipUnsupported);
    }

    /** {@return these options with up to {@code threads} threads} */
    public ConvertOptions withParallelism(int threads) {
        return new ConvertOptions(memoryBytes, progress, rawShape, threads, f16Overflow, skipUnsupported);
    }

    /** {@return these options with {@code rule} for values too large for an f16 output} */
    public ConvertOptions withF16Overflow(F16Overflow rule) {
        return new ConvertOptions(memoryBytes, progress, rawShape, parallelism, rule, skipUnsupported);
    }

    /** {@return these options leaving out (true) or failing on (false) a tensor that cannot be written as the rules ask} */
    public ConvertOptions withSkipUnsupported(boolean skip) {
        return new ConvertOptions(memoryBytes, progress, rawShape, parallelism, f16Overflow, skip);
    }
}
