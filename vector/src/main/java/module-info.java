/**
 * Tegula vector: the relayout engine. Exports its API ({@code dev.tegula.vector}: relayout, plans,
 * planning, wisdom) and block quantization ({@code dev.tegula.vector.quant}); the planner
 * ({@code dev.tegula.vector.plan}), the kernels ({@code dev.tegula.vector.kernels}) and the engine
 * behind ffm's bulk methods with its conversion rule ({@code dev.tegula.vector.bulk}, a service
 * provider) stay inside.
 */
module dev.tegula.vector {
    requires transitive dev.tegula.core;
    requires transitive dev.tegula.ffm;
    requires jdk.incubator.vector;
    requires java.management;
    exports dev.tegula.vector;
    provides dev.tegula.ffm.internal.BulkCopier with dev.tegula.vector.bulk.EngineBulkCopier;
    exports dev.tegula.vector.quant;
}
