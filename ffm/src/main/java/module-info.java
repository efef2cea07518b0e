/** Tegula ffm: {@code MemorySegment}-backed arrays, element codecs, views and file/native interop. */
module dev.tegula.ffm {
    requires transitive dev.tegula.core;
    requires org.slf4j;
    exports dev.tegula.ffm;
    exports dev.tegula.ffm.codec;
    exports dev.tegula.ffm.io;
    uses dev.tegula.ffm.MemorySpaceProvider;
}
