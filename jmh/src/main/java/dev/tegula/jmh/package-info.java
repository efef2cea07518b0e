/**
 * JMH benchmarks: {@link dev.tegula.jmh.RelayoutBench} (the relayout cases of
 * {@code dev.tegula.vector.bench.RelayoutCases} against {@code MemorySegment.copy} of the same
 * bytes in the same fork), {@link dev.tegula.jmh.DequantizeBench} (block-quantized tensors into f32
 * and tiled bf16), {@link dev.tegula.jmh.ArrayReadBench} (element access), the second baseline
 * {@link dev.tegula.jmh.VectorCopy} (the same bytes copied with Vector API loads and stores) and
 * {@link dev.tegula.jmh.Report}, which runs the relayout benchmark and prints the table of
 * {@code docs/benchmarks.md}. Not published; nothing depends on it. Figures live in
 * {@code docs/benchmarks.md}, not in class comments.
 */
package dev.tegula.jmh;
