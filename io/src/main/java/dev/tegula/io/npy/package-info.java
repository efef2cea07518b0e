/**
 * NumPy {@code .npy} files, format versions 1.0, 2.0 and 3.0: {@link dev.tegula.io.npy.Npy} reads
 * a file zero-copy from a mapping into the caller's {@link java.lang.foreign.Arena} and writes one
 * as {@code numpy.save} does; {@link dev.tegula.io.npy.NpyHeader} is a file's validated header.
 * A malformed file throws {@link dev.tegula.io.TensorFormatException} naming the field and value.
 */
package dev.tegula.io.npy;
