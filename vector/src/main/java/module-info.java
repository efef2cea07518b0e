/** Tegula vector: the relayout engine (planner, Vector API kernels, scalar reference kernels). */
module dev.tegula.vector {
    requires transitive dev.tegula.core;
    requires transitive dev.tegula.ffm;
    requires jdk.incubator.vector;
    requires java.management;
    exports dev.tegula.vector;
    provides dev.tegula.ffm.internal.BulkCopier with dev.tegula.vector.EngineBulkCopier;
}
