package dev.tegula.vector;

/**
 * The system properties that tune the relayout engine, one name each, all of the form
 * {@code tegula.relayout.<camelCase>}. Each is read once, when the class that uses it is
 * initialised; setting one later has no effect. They exist for testing (see
 * {@code docs/relayout.md}); no result depends on them, only speed. How the kernels walk each
 * relayout is the planner's choice ({@link Planning}), not a property.
 */
final class Tuning {
    private Tuning() {
    }

    /**
     * {@value}: {@code true} switches the Vector API kernels off, so only the scalar paths run
     * (what runs anyway on CPUs without 256-bit vectors). Default {@code false}. The test suite runs
     * once with it set.
     */
    static final String SCALAR = "tegula.relayout.scalar";
}
