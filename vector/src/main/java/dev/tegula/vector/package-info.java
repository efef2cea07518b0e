/**
 * The relayout engine: copies arrays between XLA layouts (tiled, transposed, padded, packed, of a
 * different element type) with Vector API kernels, and scalar kernels that serve as their reference.
 *
 * <p>{@link dev.tegula.vector.Relayout} is the entry point: {@code copy} between two arrays of the same
 * logical shape, {@code to} into a new array in a given layout, and {@code plan}, which returns a
 * reusable, immutable {@link dev.tegula.vector.RelayoutPlan} for two shapes. Plans are cached and may be
 * shared and run from many threads at once; a run reads its source and writes its destination and
 * nothing else. Arrays follow their arenas' lifetime and thread rules. Dimensions that differ, or
 * element types that cannot be converted, throw {@link IllegalArgumentException}.
 *
 * <p>The Vector API is an incubator module in JDK 25: on the module path {@code requires
 * dev.tegula.vector} resolves it; on the class path run with {@code --add-modules jdk.incubator.vector}.
 */
package dev.tegula.vector;
