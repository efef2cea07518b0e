package dev.tegula.vector.kernels;

/**
 * The elements a walk moves: their size on each side and the conversion made on the way (null:
 * the bits move unchanged). A source element may be narrower than a byte (4-bit codes packed
 * {@code E(4)}), so its size is in bits. Immutable.
 *
 * @param srcBits    bits of a source slot (4 or a multiple of 8)
 * @param dstBytes   bytes of a destination element
 * @param conversion what each element becomes on the way, or null where it stays as it is
 */
public record Elements(int srcBits, int dstBytes, Conversion conversion) {

    /** f32 source elements written as bf16. */
    public static final Elements F32_TO_BF16 = of(Conversion.F32_TO_BF16);

    /** @throws IllegalArgumentException if {@code srcBits} is not 4 or a positive multiple of 8, or {@code dstBytes} is not positive */
    public Elements {
        if (srcBits != 4 && (srcBits < 8 || srcBits % 8 != 0) || dstBytes < 1) {
            throw new IllegalArgumentException("elements: " + srcBits + " bits -> " + dstBytes + " bytes");
        }
    }

    /** {@return elements of {@code bytes} bytes moved unchanged} */
    public static Elements same(int bytes) {
        return new Elements(bytes * 8, bytes, null);
    }

    /** {@return elements converted by {@code c} on the way} */
    public static Elements of(Conversion c) {
        return new Elements(c.fromBits(), c.toBytes(), c);
    }

    /** {@return whether the elements are converted on the way} */
    public boolean converts() {
        return conversion != null;
    }

    /** {@return whether the elements widen on the way ({@link WideningKernels})} */
    public boolean widens() {
        return conversion != null && conversion.widens();
    }

    /**
     * {@return the bytes that {@code count} source elements span, rounded up}
     *
     * @throws ArithmeticException if it overflows a {@code long}
     */
    public long srcBytes(long count) {
        long bits = Math.multiplyExact(count, (long) srcBits);
        return bits / 8 + (bits % 8 != 0 ? 1 : 0);
    }
}
