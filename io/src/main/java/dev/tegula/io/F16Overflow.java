package dev.tegula.io;

/**
 * What writing a tensor as f16 does with a finite value that IEEE rounding would turn into
 * infinity: a magnitude of at least 65520 (the midpoint between f16's largest finite value 65504
 * and 2^16). Values from 65504 up to 65520 round to 65504 under every rule; an infinity or a NaN
 * in the input is data and is written as it is (an infinity stays an infinity).
 *
 * <p>The rule applies where Tegula writes a file and narrows to f16: {@link TensorFiles#convert}
 * to an f16 type ({@link ConvertOptions#f16Overflow()}), and {@link dev.tegula.io.gguf.GgufWriter}
 * writing a float array as {@code F16} or quantizing to {@code Q8_0}/{@code Q4_0}, whose block
 * scale is an f16 ({@link dev.tegula.io.gguf.GgufWriter#f16Overflow}). Everything else that
 * converts in memory ({@code Relayout}, {@code TensorFiles.readAs}, an array's setters) rounds as
 * IEEE 754 does, to infinity.
 */
public enum F16Overflow {
    /**
     * Refuse: the write fails with an {@link F16OverflowException} naming the tensor, the element's
     * index and its value, and the target is left as it was. The default: llama.cpp's checks refuse a
     * file whose f16 data holds infinities, and an infinity written in place of a large value loses it.
     */
    REFUSE,
    /** Saturate: such a value is written as 65504 of its sign, f16's largest finite value. */
    SATURATE,
    /** IEEE 754 rounding: such a value is written as an infinity of its sign (as NumPy's {@code astype} does). */
    INFINITY
}
