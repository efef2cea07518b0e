/**
 * The implementations of {@link dev.tegula.core.Addressing}, one {@code final} class per layout
 * family (strided of rank 1, 2, 3, 4 and N; a 2-D tile on the two most minor physical dimensions
 * for rank 2 and for higher ranks; XLA's general algorithm). They are the only permitted
 * subclasses of the sealed {@code Addressing}; {@link dev.tegula.core.Addressing#of} picks one.
 * Tegula's {@code ffm} names them to give each call an exact receiver type on its hot path.
 * {@link dev.tegula.core.internal.IndexErrors} words the errors both modules share.
 *
 * <p>Exported only {@code to dev.tegula.ffm}: not API. Users call {@code Addressing}'s own methods.
 * Must not depend on anything outside {@code core} or touch memory.
 */
package dev.tegula.core.internal;
