/**
 * The relayout engine: copies arrays between XLA layouts (tiled, transposed, padded, packed, of a
 * different element type) with Vector API kernels, and scalar kernels that serve as their reference;
 * and llama.cpp's block-quantized weights, which it dequantizes into any layout in the same pass.
 *
 * <p>{@link dev.tegula.vector.Relayout} is the entry point: {@code copy} between two arrays of the same
 * logical shape, {@code to} into a new array in a given layout, and {@code plan}, which returns a
 * reusable, immutable {@link dev.tegula.vector.RelayoutPlan} for two shapes. Plans are cached and may be
 * shared and run from many threads at once; a run reads its source and writes its destination and
 * nothing else. Arrays follow their arenas' lifetime and thread rules. Dimensions that differ, or
 * element types that cannot be converted, throw {@link IllegalArgumentException}.
 *
 * <p>How a plan walks its loops is chosen among candidates by rule or by timing them
 * ({@link dev.tegula.vector.Planning}; each timed candidate a {@link dev.tegula.vector.PlanMeasurement}),
 * how they were chosen is the plan's {@link dev.tegula.vector.PlanReport} (its
 * {@link dev.tegula.vector.PlanOrigin}), plans are kept in a {@link dev.tegula.vector.PlanCache} (a shared one, or one of your own), and
 * measured choices in {@link dev.tegula.vector.Wisdom}, in memory or in a small text file.
 *
 * <p>Block quantization (llama.cpp's Q4_0 to Q6_K) is in {@code dev.tegula.vector.quant}.
 *
 * <p>The Vector API is an incubator module in JDK 25: on the module path {@code requires
 * dev.tegula.vector} resolves it; on the class path run with {@code --add-modules jdk.incubator.vector}
 * (without it, {@link dev.tegula.vector.Relayout} and {@code Dequantize} throw a
 * {@link java.lang.NoClassDefFoundError} that names the flag, before any class of the Vector API is loaded).
 */
package dev.tegula.vector;
