/**
 * Tensor files as a whole: which formats there are, reading a tensor from any of them straight
 * into a chosen layout, and converting files from one format and layout to another. The formats
 * themselves live in a package each: {@link dev.tegula.io.npy} (NumPy {@code .npy}),
 * {@link dev.tegula.io.safetensors}, {@link dev.tegula.io.gguf} (llama.cpp's GGUF, block-quantized
 * tensors dequantized) and {@link dev.tegula.io.dlpack} (native exchange through DLPack structs).
 *
 * <ul>
 *   <li>{@link dev.tegula.io.TensorFormat} is the sealed type of the file formats
 *       ({@link dev.tegula.io.NpyFormat}, {@link dev.tegula.io.NpyDirectoryFormat},
 *       {@link dev.tegula.io.SafeTensorsFormat},
 *       {@link dev.tegula.io.SafeTensorsCheckpointFormat} (a sharded Hugging Face checkpoint
 *       directory), {@link dev.tegula.io.GgufFormat}, {@link dev.tegula.io.RawFormat}): the one
 *       place a file's format is recognised, by its name or its first bytes.</li>
 *   <li>{@link dev.tegula.io.TensorFiles#readAs} reads a tensor into a target layout (for example
 *       a tiled device layout) in one pass from a mapping of the file.</li>
 *   <li>{@link dev.tegula.io.TensorFiles#convert} converts file to file in bounded memory, as
 *       {@link dev.tegula.io.ConvertRules} (which tensors, which layouts and types) and
 *       {@link dev.tegula.io.ConvertOptions} (memory, threads, the f16 overflow rule, and a
 *       {@link dev.tegula.io.ConvertProgress} told how far it has come) say, and returns a
 *       {@link dev.tegula.io.ConvertReport}.</li>
 *   <li>{@link dev.tegula.io.F16Overflow} says what writing a tensor as f16 does with a finite value
 *       too large for f16 (refuse with an {@link dev.tegula.io.F16OverflowException}, saturate, or
 *       IEEE infinity), wherever Tegula writes a file.</li>
 * </ul>
 *
 * <p>A malformed or lying file throws {@link dev.tegula.io.TensorFormatException} (an
 * {@link java.io.IOException}) naming the file, the field and the value, whatever its format. The
 * classes are stateless or immutable; arrays follow their arenas' lifetime and thread rules.
 */
package dev.tegula.io;
