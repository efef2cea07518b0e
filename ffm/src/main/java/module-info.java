/** Tegula ffm: {@code MemorySegment}-backed arrays, element codecs, views and file/native interop. */
module dev.tegula.ffm {
    requires transitive dev.tegula.core;
    requires org.slf4j;
    // exports dev.tegula.ffm;  -- restore when the package has a class (Array); javac refuses to export an empty package
    exports dev.tegula.ffm.codec;
}
