/**
 * The relayout benchmark cases shared by Tegula's own tools: {@code tegula bench} and
 * {@code tegula plan} (cli) and the JMH benchmarks (jmh) run the one list in
 * {@link dev.tegula.bench.RelayoutCases}. Not API: a tool's module, which no library module
 * requires. Holds data and its parsing only; must not time anything or depend on cli, jmh or a
 * benchmark harness.
 */
package dev.tegula.bench;
