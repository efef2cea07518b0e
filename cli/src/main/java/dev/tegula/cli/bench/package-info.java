/**
 * {@code tegula bench}: a quick, in-process timing of the relayout cases of
 * {@code dev.tegula.vector.bench.RelayoutCases} (the same list as the JMH benchmark) against
 * {@code MemorySegment.copy}, with a progress bar and an optional bar chart. Its figures are a
 * smoke check, not a measurement: the reported figures come from the JMH module. Must not define
 * cases of its own.
 */
package dev.tegula.cli.bench;
