/**
 * The relayout benchmark cases shared by Tegula's own tools: {@code tegula bench} (cli) and the
 * JMH benchmarks (jmh) run the one list in {@link dev.tegula.vector.bench.RelayoutCases}. Not
 * exported by the module: not API. Holds data and its parsing only; must not time anything or
 * depend on cli, jmh or a benchmark harness.
 */
package dev.tegula.vector.bench;
