/**
 * Tegula io: tensor files and native exchange, one package per format ({@code .npy}, safetensors,
 * GGUF, DLPack), and in {@code dev.tegula.io} the formats as a type, reading a tensor into a
 * chosen layout and converting whole files. Its parsers and file helpers live in an internal
 * package that is exported to Tegula's command-line tool only (which writes its pictures and
 * charts through {@code AtomicFile} and prints byte counts with {@code ByteCounts}).
 */
module dev.tegula.io {
    requires transitive dev.tegula.core;
    requires transitive dev.tegula.ffm;
    requires transitive dev.tegula.vector;
    exports dev.tegula.io;
    exports dev.tegula.io.npy;
    exports dev.tegula.io.safetensors;
    exports dev.tegula.io.gguf;
    exports dev.tegula.io.dlpack;
    exports dev.tegula.io.internal to dev.tegula.cli;
}
