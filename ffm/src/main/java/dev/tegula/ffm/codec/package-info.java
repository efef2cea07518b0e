/**
 * Element codecs: pure-Java, allocation-free conversions between the raw bit codes of XLA element
 * types and Java {@code float}, {@code double} and {@code long} values.
 *
 * <p>{@link dev.tegula.ffm.codec.BFloat16} and {@link dev.tegula.ffm.codec.Float16} cover the 16-bit
 * floats; {@link dev.tegula.ffm.codec.MiniFloatFormat} and {@link dev.tegula.ffm.codec.MiniFloat}
 * cover every 8-, 6- and 4-bit float of XLA, following the definitions of JAX's {@code ml_dtypes};
 * {@link dev.tegula.ffm.codec.ElementCodec} dispatches on a {@link dev.tegula.core.ElementType}.
 * All conversions to a narrower float round to nearest, ties to even. See {@code docs/codecs.md}.
 */
package dev.tegula.ffm.codec;
