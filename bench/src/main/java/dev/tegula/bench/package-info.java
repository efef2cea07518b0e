/**
 * What Tegula's own tools share for benchmarking: {@code tegula bench} and {@code tegula plan}
 * (cli) and the JMH benchmarks (jmh) run the one list of relayout cases in
 * {@link dev.tegula.bench.RelayoutCases}, and the benchmarks and tests read how many bytes of a
 * buffer huge pages back through {@link dev.tegula.bench.MemoryMaps}. Not API: a tool's module,
 * which no library module requires. Holds the cases, their parsing and that reading of the
 * process's memory mappings; must not time anything or depend on cli, jmh or a benchmark harness.
 */
package dev.tegula.bench;
