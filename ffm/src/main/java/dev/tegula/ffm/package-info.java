/**
 * {@code MemorySegment}-backed N-dimensional arrays in XLA layouts: allocation (large host buffers
 * on transparent huge pages, {@link dev.tegula.ffm.HostMemory}), wrapping, typed element access,
 * views and memory spaces.
 *
 * <p>{@link dev.tegula.ffm.Array} pairs a {@link java.lang.foreign.MemorySegment} with the
 * {@link dev.tegula.core.ArrayShape} that says where each element sits. Arrays are allocated from,
 * or wrap segments of, an {@link java.lang.foreign.Arena} the caller owns: an array never owns memory,
 * and its lifetime and thread rules are its arena's. The {@code Array} object is immutable; reads are
 * safe from any thread the arena admits, and concurrent writes need outside synchronisation. Element
 * accessors convert between the element type and Java's {@code float}, {@code double}, {@code long},
 * {@code int} and {@code boolean} (see {@link dev.tegula.ffm.codec}); for loops over many arrays,
 * each element type with a Java value has a final accessor class of its own
 * ({@link dev.tegula.ffm.FloatAccessor}, {@link dev.tegula.ffm.DoubleAccessor}, ...,
 * {@link dev.tegula.ffm.Float8Accessor}; {@link dev.tegula.ffm.Array#floatAccessor()}). A layout's memory space
 * {@code S(n)} selects a {@link dev.tegula.ffm.MemorySpaceProvider}, registered in
 * {@link dev.tegula.ffm.MemorySpaces}.
 *
 * <p>Wrapping a raw native address calls a restricted method: run with
 * {@code --enable-native-access=dev.tegula.ffm} (or {@code ALL-UNNAMED} on the class path).
 */
package dev.tegula.ffm;
