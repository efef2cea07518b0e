/**
 * llama.cpp's block-quantized weights: {@link dev.tegula.vector.quant.QuantBlock} names the block
 * encodings (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0 and the K-quants Q2_K to Q6_K);
 * {@link dev.tegula.vector.quant.Dequantize} turns blocks into an array of any element type and
 * layout, on one or more threads, with f32 values equal to those of the reference
 * ({@code gguf.quants}) bit for bit; {@link dev.tegula.vector.quant.Quantize} encodes f32 values as
 * Q8_0 or Q4_0 blocks. Like {@link dev.tegula.vector.Relayout}, {@code Dequantize} needs the Vector API.
 */
package dev.tegula.vector.quant;
