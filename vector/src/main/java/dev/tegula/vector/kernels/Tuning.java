package dev.tegula.vector.kernels;

import jdk.incubator.vector.IntVector;

/**
 * The system properties that tune the relayout engine, one name each, all of the form
 * {@code tegula.relayout.<camelCase>}. Each is read once, when the class that uses it is
 * initialised; setting one later has no effect. They exist for testing (see
 * {@code docs/relayout.md}); no result depends on them, only speed. How the kernels walk each
 * relayout is the planner's choice, not a property.
 */
public final class Tuning {
    private Tuning() {
    }

    /**
     * {@value}: {@code true} switches the Vector API kernels off, so only the scalar paths run
     * (what runs anyway on CPUs without 256-bit vectors). Default {@code false}. The test suite runs
     * once with it set.
     */
    public static final String SCALAR = "tegula.relayout.scalar";

    /** Whether the Vector API kernels run (false: scalar paths only, for testing them, or without 256-bit vectors). */
    public static final boolean VECTOR = !Boolean.getBoolean(SCALAR)
            && IntVector.SPECIES_PREFERRED.vectorBitSize() >= 256;

    /** The preferred vector width of this JVM on this CPU, in bits (what the kernels use where {@link #VECTOR}). */
    public static final int VECTOR_BITS = IntVector.SPECIES_PREFERRED.vectorBitSize();

    /** The largest square tile edge of the transpose kernels on this machine: 16 where 512-bit vectors are native, else 8; 0 when the Vector API paths are off. */
    public static final int TILE = !VECTOR ? 0 : IntVector.SPECIES_PREFERRED.length() >= 16 ? 16 : 8;
}
