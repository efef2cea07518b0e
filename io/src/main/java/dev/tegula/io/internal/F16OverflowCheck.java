package dev.tegula.io.internal;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.Float16;
import dev.tegula.io.F16Overflow;
import dev.tegula.io.F16OverflowException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Applies an {@link F16Overflow} rule to an f16 tensor just written by an IEEE narrowing (the
 * relayout engine's conversion, which rounds a finite value of magnitude 65520 or more to
 * infinity): the written codes are scanned for infinities ({@link Float16#indexOfInfinity}), and
 * each one whose source element is not itself infinite is refused or saturated. An infinity in
 * the source is data and stays. The destination is a whole array over its segment (slot
 * {@code s} at byte {@code 2 s}); padding slots are skipped. Used by whoever writes a file;
 * confined to the writing thread.
 */
public final class F16OverflowCheck {
    /** The value an element of the written tensor had before narrowing, by logical index. */
    @FunctionalInterface
    public interface Source {
        /** {@return the element's value before narrowing} */
        double valueAt(long[] index);
    }

    private final String tensor;
    private final Array dst;
    private final Source source;
    private final F16Overflow rule;

    private F16OverflowCheck(String tensor, Array dst, Source source, F16Overflow rule) {
        this.tensor = tensor;
        this.dst = dst;
        this.source = source;
        this.rule = rule;
    }

    /**
     * {@return the check of {@code dst}, written from elements of type {@code from}, or null when there
     * is nothing to check} (the destination is not f16, the source is f16 already, or the rule is
     * {@link F16Overflow#INFINITY}, which is what the narrowing did)
     *
     * @param tensor the tensor's name, for the exception
     * @param dst    the whole destination array (no view)
     */
    public static F16OverflowCheck of(String tensor, ElementType from, Array dst, Source source, F16Overflow rule) {
        ArrayShape to = dst.shape();
        if (to.elementType() != ElementType.F16 || from == ElementType.F16 || rule == F16Overflow.INFINITY) {
            return null;
        }
        if (to.slotBits() != 16 || dst.slotOffset() != 0) {
            throw new IllegalArgumentException("dst: " + to + " is not a whole array of 16-bit f16 slots");
        }
        return new F16OverflowCheck(tensor, dst, source, rule);
    }

    /** Checks every slot of the destination. */
    public void checkAll() {
        check(0, dst.shape().bufferSize());
    }

    /**
     * Checks the slots that lie in bytes {@code [offset, offset + length)} of the destination's segment.
     *
     * @throws F16OverflowException under {@link F16Overflow#REFUSE}, for the first finite source value
     *                              that became infinite
     */
    public void check(long offset, long length) {
        MemorySegment seg = dst.segment();
        ArrayShape shape = dst.shape();
        long first = offset / 2;
        long end = Math.min((offset + length) / 2, shape.slotCount());
        for (long slot = first; slot < end; ) {
            long found = Float16.indexOfInfinity(seg, 2 * slot, end - slot);
            if (found < 0) {
                return;
            }
            slot += found;
            if (shape.isElementSlot(slot)) {
                long[] index = shape.multiIndex(slot);
                double value = source.valueAt(index);
                if (!Double.isInfinite(value)) {
                    if (rule == F16Overflow.REFUSE) {
                        throw new F16OverflowException(tensor, index, value, "as f16 it");
                    }
                    short code = seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * slot);
                    seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * slot, (short) ((code & 0x8000) | Float16.MAX_VALUE));
                }
            }
            slot++;
        }
    }
}
