/** {@code MemorySegment}-backed arrays in XLA layouts: allocation, wrapping, typed access and views. */
package dev.tegula.ffm;
