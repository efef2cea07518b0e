/**
 * Jlama running checkpoints that Tegula converted: its own loader on a bf16 conversion, and a
 * Tegula-based {@code WeightLoader} on a tiled one. Jlama's jar has no module descriptor; on the
 * module path it is the automatic module {@code jlama.core} (named after the jar file).
 */
module dev.tegula.example.jlama {
    requires dev.tegula.io;
    requires dev.tegula.vector;
    requires jlama.core;
}
