/**
 * JMH benchmarks: {@link dev.tegula.jmh.RelayoutBench} (the relayout cases of
 * {@code dev.tegula.bench.RelayoutCases} against {@code MemorySegment.copy} of the same
 * bytes in the same fork), {@link dev.tegula.jmh.DequantizeBench} (block-quantized tensors into f32
 * and tiled bf16), {@link dev.tegula.jmh.ArrayReadBench} (element access), the second baseline
 * {@link dev.tegula.jmh.VectorCopy} (the same bytes copied with Vector API loads and stores) and
 * {@link dev.tegula.jmh.Report}, which runs the relayout benchmark and prints the table of
 * {@code docs/benchmarks.md}, and {@link dev.tegula.jmh.PlanningBench} (planning by measurement and
 * from wisdom). Not published; nothing depends on it. It runs from JMH's uber-jar on the class path,
 * where module boundaries do not bind; a test checks that its sources use only packages the modules
 * export to everyone (the huge-page count it prints comes from {@code dev.tegula.bench.MemoryMaps}).
 * Figures live in {@code docs/benchmarks.md}, not in class comments.
 */
package dev.tegula.jmh;
