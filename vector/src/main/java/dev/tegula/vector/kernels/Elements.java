package dev.tegula.vector.kernels;

/**
 * The elements a walk moves: their size on each side and the conversion made on the way (none:
 * the bits move unchanged). Immutable.
 *
 * @param srcBytes   bytes of a source element
 * @param dstBytes   bytes of a destination element
 * @param conversion what each element becomes on the way
 */
public record Elements(int srcBytes, int dstBytes, Conversion conversion) {

    /** The conversions the kernels make in the same pass as the move. */
    public enum Conversion {
        /** Same type and storage: the bits move unchanged. */
        NONE,
        /** f32 to bf16, rounded to nearest even ({@link ConvertKernels}). */
        F32_TO_BF16
    }

    /** f32 source elements written as bf16. */
    public static final Elements F32_TO_BF16 = new Elements(4, 2, Conversion.F32_TO_BF16);

    public Elements {
        if (srcBytes < 1 || dstBytes < 1) {
            throw new IllegalArgumentException("elements: " + srcBytes + " -> " + dstBytes + " bytes");
        }
    }

    /** {@return elements of {@code bytes} bytes moved unchanged} */
    public static Elements same(int bytes) {
        return new Elements(bytes, bytes, Conversion.NONE);
    }

    /** {@return whether the elements are converted on the way} */
    public boolean converts() {
        return conversion != Conversion.NONE;
    }
}
