package dev.tegula.io;

import java.io.Serial;
import java.util.Objects;

/**
 * A tensor of a type Tegula cannot read, such as a GGUF block type it does not dequantize
 * ({@code IQ4_NL}), met by {@link TensorFiles#convert}. It is one of the failures that
 * {@link ConvertOptions#skipUnsupported()} turns into a tensor left out (and reported); nothing
 * has been written when it is thrown. The message names the tensor and its type.
 */
public final class UnsupportedTensorException extends IllegalArgumentException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The tensor's name. */
    private final String tensor;

    /**
     * @param tensor  the tensor's name
     * @param message names the tensor and says what Tegula cannot read
     */
    public UnsupportedTensorException(String tensor, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.tensor = Objects.requireNonNull(tensor, "tensor");
    }

    /** {@return the name of the tensor that cannot be read} */
    public String tensor() {
        return tensor;
    }
}
