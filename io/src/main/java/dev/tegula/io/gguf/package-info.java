/**
 * GGUF files, llama.cpp's format for model weights (versions 2 and 3, little-endian):
 * {@link dev.tegula.io.gguf.Gguf} maps a file ({@link dev.tegula.io.gguf.GgufFile}: its
 * {@link dev.tegula.io.gguf.GgufHeader} with {@link dev.tegula.io.gguf.GgufValue} metadata (each
 * value of a {@link dev.tegula.io.gguf.GgufValueType}) and
 * {@link dev.tegula.io.gguf.GgufTensorInfo} entries, and its {@link dev.tegula.io.gguf.GgufTensor}s),
 * dequantizes block-quantized tensors ({@link dev.tegula.io.gguf.GgufType}) into any element type
 * and layout in one pass, and writes files ({@link dev.tegula.io.gguf.GgufWriter}). A malformed
 * file throws {@link dev.tegula.io.TensorFormatException} naming the field and value.
 */
package dev.tegula.io.gguf;
