/**
 * {@code tegula bench}: a quick, in-process timing of the relayout cases of
 * {@code dev.tegula.bench.RelayoutCases} (the same list as the JMH benchmark) against
 * {@code MemorySegment.copy}, timed in alternating repetitions by a small harness of its own
 * ({@code Timing}), with an optional bar chart; {@code tegula plan}: a relayout plan, its
 * candidates timed and the choice, with an optional chart; and the progress bar that
 * {@code convert} uses too. Its figures are a smoke check, not a measurement: the reported figures
 * come from the JMH module. Must not define cases of its own.
 */
package dev.tegula.cli.bench;
