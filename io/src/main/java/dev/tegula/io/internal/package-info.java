/**
 * The parsers behind {@code io}'s file formats: a strict JSON reader (safetensors headers) and a
 * reader of the Python literal in a {@code .npy} header. Not exported: nothing outside {@code io}
 * may use it (if Tegula's cli ever needs it, export it {@code to dev.tegula.cli} only). Parsers
 * here read bounded text and throw {@link java.io.IOException} subclasses or
 * {@link IllegalArgumentException} naming the field and value; they must not touch memory
 * segments, arrays or layouts, and must not depend on anything above {@code core}.
 */
package dev.tegula.io.internal;
