package dev.tegula.vector;

import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.BulkCopier;
import dev.tegula.vector.kernels.VectorApi;

/**
 * The relayout engine behind {@link Array}'s bulk methods ({@code toFloatArray}, {@code copyFrom},
 * {@code toRowMajor}, ...): a service provider that {@code ffm} loads with
 * {@link java.util.ServiceLoader}, so that those methods run as {@link Relayout#copy} when this
 * module is present. Not meant to be called directly. Stateless and thread-safe.
 */
@SuppressWarnings("exports")   // the service type lives in ffm's internal package, exported to this module only
public final class EngineBulkCopier implements BulkCopier {
    /**
     * Creates the provider.
     *
     * @throws NoClassDefFoundError if the JVM has no Vector API, so that {@code ffm} keeps its element walk
     */
    public EngineBulkCopier() {
        VectorApi.require();
    }

    @Override
    public void copy(Array src, Array dst) {
        Relayout.copy(src, dst);
    }
}
