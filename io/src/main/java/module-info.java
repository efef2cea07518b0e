/**
 * Tegula io: tensor files and native exchange ({@code .npy}, safetensors, GGUF, DLPack) and reading a
 * tensor into a chosen layout. Its parsers and file helpers live in an internal package that is
 * not exported.
 */
module dev.tegula.io {
    requires transitive dev.tegula.core;
    requires transitive dev.tegula.ffm;
    requires transitive dev.tegula.vector;
    requires org.slf4j;
    exports dev.tegula.io;
}
