package dev.tegula.io;

import java.io.IOException;
import java.io.Serial;

/**
 * A tensor file ({@code .npy}, safetensors) that does not follow its format: wrong magic, a
 * truncated file, a length that lies, a malformed header, an unknown dtype, a shape whose size
 * overflows, offsets past the end. The message names the file, the field and the value.
 */
public final class TensorFormatException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** @param message the file, the field and the value at fault */
    public TensorFormatException(String message) {
        super(message);
    }

    /** @param message the file, the field and the value at fault; @param cause what went wrong underneath */
    public TensorFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
