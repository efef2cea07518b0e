/**
 * Tegula bench: the relayout benchmark cases of Tegula's own tools ({@code tegula bench} and
 * {@code tegula plan} in {@code dev.tegula.cli}, the JMH benchmarks). Not a library: no library
 * module requires it. It exports its package to everyone because the JMH benchmarks run on the
 * class path, where a qualified export would not reach them.
 */
module dev.tegula.bench {
    requires transitive dev.tegula.core;
    exports dev.tegula.bench;
}
