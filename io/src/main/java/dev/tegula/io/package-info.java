/**
 * Tensor files and native exchange: NumPy {@code .npy}, safetensors and DLPack, and reading a tensor
 * from a file straight into a chosen layout.
 *
 * <p>{@link dev.tegula.io.Npy} and {@link dev.tegula.io.SafeTensors} read files by mapping them into
 * the caller's {@link java.lang.foreign.Arena}, and write them the way NumPy and the safetensors
 * library do. {@link dev.tegula.io.TensorFiles#readAs} reads a tensor into a
 * target layout (for example a tiled device layout) in one pass. {@link dev.tegula.io.DLPack} exports
 * arrays to and imports them from native DLPack structs.
 *
 * <p>A malformed or lying file throws {@link dev.tegula.io.TensorFormatException} (an
 * {@link java.io.IOException}) naming the field and value.
 * The classes are stateless; arrays follow their arenas' lifetime and thread rules. DLPack calls
 * restricted methods: run with {@code --enable-native-access=dev.tegula.ffm,dev.tegula.io}.
 */
package dev.tegula.io;
