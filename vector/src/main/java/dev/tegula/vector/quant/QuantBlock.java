package dev.tegula.vector.quant;

/**
 * The block-quantized encodings of llama.cpp's ggml library that Tegula dequantizes. A block holds
 * {@link #blockSize()} consecutive elements of a row in {@link #blockBytes()} bytes: one or two
 * f16 scales (and for the K-quants packed 4- or 6-bit sub-block scales) followed by the packed
 * quants. A row of {@code n} elements ({@code n} a multiple of the block size) is
 * {@code n / blockSize()} blocks, one after another.
 *
 * <p>The value each quant stands for follows the definitions of the reference implementation
 * ({@code gguf.quants} of llama.cpp's {@code gguf-py}), computed in f32 in the same order, so
 * Tegula's dequantized values equal the reference's bit for bit.
 */
public enum QuantBlock {
    /** 32 elements: f16 scale {@code d}, 4-bit quants; {@code x = d * (q - 8)}. */
    Q4_0(32, 18),
    /** 32 elements: f16 scale {@code d} and minimum {@code m}, 4-bit quants; {@code x = d * q + m}. */
    Q4_1(32, 20),
    /** 32 elements: f16 scale, 32 high bits, 4-bit low quants; {@code x = d * (q - 16)}. */
    Q5_0(32, 22),
    /** 32 elements: f16 scale and minimum, 32 high bits, 4-bit low quants; {@code x = d * q + m}. */
    Q5_1(32, 24),
    /** 32 elements: f16 scale, 8-bit signed quants; {@code x = q * d}. */
    Q8_0(32, 34),
    /** 256 elements: 16 sub-blocks of 16 with 4-bit scales and minimums, 2-bit quants. */
    Q2_K(256, 84),
    /** 256 elements: 16 sub-blocks of 16 with 6-bit signed scales, 3-bit quants (2 low bits + a high-bit mask). */
    Q3_K(256, 110),
    /** 256 elements: 8 sub-blocks of 32 with 6-bit scales and minimums, 4-bit quants. */
    Q4_K(256, 144),
    /** 256 elements: 8 sub-blocks of 32 with 6-bit scales and minimums, 5-bit quants. */
    Q5_K(256, 176),
    /** 256 elements: 16 sub-blocks of 16 with 8-bit signed scales, 6-bit quants. */
    Q6_K(256, 210);

    private final int blockSize;
    private final int blockBytes;

    QuantBlock(int blockSize, int blockBytes) {
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
    }

    /** {@return the number of elements one block holds} */
    public int blockSize() {
        return blockSize;
    }

    /** {@return the number of bytes one block takes} */
    public int blockBytes() {
        return blockBytes;
    }

    /**
     * {@return the bytes of {@code elements} elements in this encoding}
     *
     * @throws IllegalArgumentException if {@code elements} is negative or not a multiple of the block size
     */
    public long byteSize(long elements) {
        if (elements < 0 || elements % blockSize != 0) {
            throw new IllegalArgumentException("elements: " + elements + " is not a non-negative multiple of "
                    + name() + "'s block size " + blockSize);
        }
        return Math.multiplyExact(elements / blockSize, (long) blockBytes);
    }
}
