package dev.tegula.ffm.internal;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The relayout engine as seen from {@code ffm}: module {@code dev.tegula.vector} provides it (a
 * {@link ServiceLoader} service, so that {@code ffm} does not depend on {@code vector}), and
 * {@link Array}'s bulk methods ({@code toFloatArray}, {@code copyFrom}, {@code toRowMajor}, ...) run
 * through it as relayouts into or out of a heap segment. Without a provider (module {@code vector}
 * absent, or the JVM without the Vector API) they walk the elements one by one. Implementations are
 * stateless and thread-safe.
 */
public interface BulkCopier {
    /**
     * Copies {@code src} into {@code dst}: same dimensions, any two layouts, converting the element type
     * when the two differ, as {@code Relayout.copy} does.
     *
     * @throws IllegalArgumentException      if the dimensions differ or the types cannot be converted
     * @throws IllegalStateException         if an array is not host-addressable or its arena is closed
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    void copy(Array src, Array dst);

    /**
     * {@return true if {@link #copy} converts {@code from} into {@code to} exactly as the typed
     * accessors ({@code getFloat}, {@code setLong}, ...) do, element by element} The bulk methods
     * use the engine only for those pairs and walk the elements for the others, so that a bulk
     * method and a loop of accessors always give the same values.
     */
    boolean converts(ElementType from, ElementType to);

    /**
     * {@return the provider found on the module or class path, loaded once; null if there is none or it
     * cannot run in this JVM (its constructor refused, e.g. without the Vector API)}
     */
    static BulkCopier installed() {
        return Installed.COPIER;
    }

    /** Holder: the provider is looked up on first use, not when {@code ffm} loads. */
    final class Installed {
        static final BulkCopier COPIER = find();

        private Installed() {
        }

        private static BulkCopier find() {
            try {
                for (BulkCopier c : ServiceLoader.load(BulkCopier.class, BulkCopier.class.getClassLoader())) {
                    return c;
                }
            } catch (ServiceConfigurationError | LinkageError e) {
                return null;                                  // documented fallback: the element walk
            }
            return null;
        }
    }
}
