package dev.tegula.vector.bulk;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.BulkCopier;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.kernels.VectorApi;

/**
 * The relayout engine behind {@link Array}'s bulk methods ({@code toFloatArray}, {@code copyFrom},
 * {@code toRowMajor}, ...): a service provider that {@code ffm} loads with
 * {@link java.util.ServiceLoader}, so that those methods run as {@link Relayout#copy} when this
 * module is present. It lives in a package this module does not export: only the service loader
 * instantiates it. Stateless and thread-safe.
 */
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

    /**
     * The conversions in which the engine computes what the accessors do: same types; integers to
     * integers (both through {@code long}, keeping the low bits); floats to floats (widening is exact,
     * narrowing rounds once to nearest even); integers of at most 32 bits to f32 and f64 (exact in
     * {@code double}, then one rounding). Not: complex, pred, floats to integers (the accessors' Java
     * casts saturate), 64-bit integers to floats (the engine goes through {@code double} and could
     * round twice).
     */
    @Override
    public boolean converts(ElementType from, ElementType to) {
        if (from == to) {
            return true;
        }
        if (from.isComplex() || to.isComplex() || from.isPred() || to.isPred()) {
            return false;
        }
        if (from.isIntegral() && to.isIntegral() || from.isFloating() && to.isFloating()) {
            return true;
        }
        return from.isIntegral() && from.bitWidth() <= 32 && (to == ElementType.F32 || to == ElementType.F64);
    }
}
