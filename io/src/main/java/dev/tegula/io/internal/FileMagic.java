package dev.tegula.io.internal;


/**
 * The bytes the tensor file formats start with: what each format's reader checks, its writer
 * writes, and {@code TensorFormat} recognises a file by.
 */
public final class FileMagic {
    private static final byte[] NPY = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    /** The first four bytes of a GGUF file, {@code GGUF}, read as a little-endian {@code int}. */
    public static final int GGUF = 0x46554747;

    private FileMagic() {
    }

    /** {@return the six bytes every {@code .npy} file starts with, {@code \x93NUMPY} (a new array)} */
    public static byte[] npy() {
        return NPY.clone();
    }
}
