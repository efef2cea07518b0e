/**
 * DLPack 1.x exchange through FFM: {@link dev.tegula.io.dlpack.DLPack} exports an array as a
 * {@code DLManagedTensorVersioned} a native library (or Python's {@code __dlpack__} machinery) can
 * consume, and imports a producer's tensor as an array over the same memory;
 * {@link dev.tegula.io.dlpack.DLPackStructs} holds the C structs as memory layouts. Import calls
 * restricted methods: run with {@code --enable-native-access=dev.tegula.ffm,dev.tegula.io}. A
 * tensor Tegula cannot represent is refused with {@link IllegalArgumentException} after its
 * deleter has been called.
 */
package dev.tegula.io.dlpack;
