/** Tegula ffm: {@code MemorySegment}-backed arrays, element codecs and views. */
module dev.tegula.ffm {
    requires transitive dev.tegula.core;
    exports dev.tegula.ffm;
    exports dev.tegula.ffm.codec;
    exports dev.tegula.ffm.internal to dev.tegula.vector, dev.tegula.io, dev.tegula.cli;
    uses dev.tegula.ffm.MemorySpaceProvider;
    uses dev.tegula.ffm.internal.BulkCopier;
}
