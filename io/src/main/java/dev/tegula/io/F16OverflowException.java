package dev.tegula.io;

import dev.tegula.io.internal.HeaderText;
import java.util.Arrays;

/**
 * A finite value too large for f16 met where a tensor is written as f16 under
 * {@link F16Overflow#REFUSE}: the tensor, the element's index and its value say which.
 */
public final class F16OverflowException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The tensor's name. */
    private final String tensor;
    /** The element's logical index. */
    private final long[] index;
    /** The element's value before narrowing. */
    private final double value;

    /**
     * @param tensor the tensor's name
     * @param index  the element's logical index (copied)
     * @param value  its value before narrowing
     * @param what   what would become infinite: {@code "as f16 it"}, or the f16 a value gives, such as
     *               {@code "its Q8_0 block's scale 78740.16"}
     */
    public F16OverflowException(String tensor, long[] index, double value, String what) {
        super("tensor '" + HeaderText.shorten(tensor) + "' element " + Arrays.toString(index) + " is " + value + ": " + what
                + " would be infinite (f16's largest finite value is 65504); write a"
                + " wider type, or choose F16Overflow.SATURATE (65504 of its sign) or F16Overflow.INFINITY (IEEE"
                + " rounding to infinity)");
        this.tensor = tensor;
        this.index = index.clone();
        this.value = value;
    }

    /** {@return the name of the tensor being written} */
    public String tensor() {
        return tensor;
    }

    /** {@return the logical index of the element (a copy)} */
    public long[] index() {
        return index.clone();
    }

    /** {@return the element's value before narrowing (finite, of magnitude at least 65520)} */
    public double value() {
        return value;
    }
}
