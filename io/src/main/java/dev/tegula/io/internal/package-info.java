/**
 * What {@code io}'s format packages and its conversion share. Not API: exported only
 * {@code to dev.tegula.cli}, Tegula's command-line tool, which writes its pictures and charts
 * through {@link dev.tegula.io.internal.AtomicFile} and prints byte counts with
 * {@link dev.tegula.io.internal.ByteCounts}; no other module may use it.
 * <ul>
 *   <li>the header parsers: {@link dev.tegula.io.internal.Json} (safetensors headers) and
 *       {@link dev.tegula.io.internal.PyLiteral} (the Python literal in an {@code .npy} header);</li>
 *   <li>{@link dev.tegula.io.internal.HeaderText}: header text in error messages (one quoting rule,
 *       the {@code FILE: FIELD WHAT} error, the parsers' {@code Malformed});</li>
 *   <li>{@link dev.tegula.io.internal.FileMagic}: the bytes the formats start with;</li>
 *   <li>file helpers: {@link dev.tegula.io.internal.MappedFiles} (read-only mappings, strict text
 *       decoding, whole writes), {@link dev.tegula.io.internal.AtomicFile} (a file written whole or
 *       not at all), {@link dev.tegula.io.internal.AtomicDirectory} (a directory written whole or
 *       not at all), {@link dev.tegula.io.internal.Temporaries} (the temporaries of both: their
 *       names, their writers' locks, stale ones removed, what a shutdown deletes) and
 *       {@link dev.tegula.io.internal.NativeFiles} (kernel hints: madvise, fallocate,
 *       writeback);</li>
 *   <li>{@link dev.tegula.io.internal.ByteCounts}: byte counts in text, in binary units;</li>
 *   <li>{@link dev.tegula.io.internal.F16OverflowCheck}: the {@link dev.tegula.io.F16Overflow} rule
 *       applied to a tensor just written as f16, by whoever writes a file (conversion, the GGUF
 *       writer).</li>
 * </ul>
 * Parsers here read bounded text and throw {@link dev.tegula.io.internal.HeaderText.Malformed}; the
 * helpers throw {@link java.io.IOException}s ({@link dev.tegula.io.TensorFormatException} for a
 * file that breaks its format) or {@link IllegalArgumentException} naming the field and value.
 * Apart from {@code F16OverflowCheck} (which reads a written array's codes and its source's values,
 * and throws {@code F16OverflowException}), nothing here touches arrays or layouts, knows a format's
 * tensors, or depends on anything in {@code io} but {@code TensorFormatException}.
 */
package dev.tegula.io.internal;
