package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.MemorySegment;

/**
 * The scalar reference relayout, the oracle every fast path is tested against. It walks every slot
 * of the destination buffer in order, asks core's index math which element (if any) the slot holds
 * ({@link ArrayShape#multiIndex}), reads that element from the source through
 * {@link ArrayShape#linearIndex} (or the source's element strides), converts it if the element
 * types differ (between storage widths of one sub-byte type, the value is
 * re-encoded: s4 -1 is 0xFF in a byte of its own and 0xF packed), and writes padding slots with the destination's padding value. Bits of the last
 * byte of a packed buffer beyond its last slot are set to zero. Deliberately simple and slow.
 */
public final class ReferenceRelayout {
    private ReferenceRelayout() {
    }

    /**
     * Relayouts a dense source buffer into a destination buffer.
     *
     * @param from source shape (layout of {@code src})
     * @param src  source buffer, at least {@code from.bufferSize()} bytes
     * @param to   destination shape: same dimensions, any layout and element type
     * @param dst  destination buffer, at least {@code to.bufferSize()} bytes
     */
    public static void copy(ArrayShape from, MemorySegment src, ArrayShape to, MemorySegment dst) {
        copy(from, src, -1, null, to, dst);
    }

    /**
     * Like {@link #copy(ArrayShape, MemorySegment, ArrayShape, MemorySegment)} for a strided source:
     * element {@code e} of the source is at slot {@code offset + Σ e[d]·strides[d]}.
     */
    public static void copyStrided(ArrayShape from, MemorySegment src, long offset, long[] strides, ArrayShape to,
                                   MemorySegment dst) {
        copy(from, src, offset, strides, to, dst);
    }

    private static void copy(ArrayShape from, MemorySegment src, long offset, long[] strides, ArrayShape to,
                             MemorySegment dst) {
        Relayout.checkCompatible(from, to);
        ElementType ft = from.elementType();
        ElementType tt = to.elementType();
        long fb = from.storageBitsPerElement();
        long tb = to.storageBitsPerElement();
        long pad = RawElements.paddingBits(tt, to.layout().paddingValue());
        long slots = to.slotCount();
        long[] idx = new long[to.rank()];
        for (long s = 0; s < slots; s++) {
            if (!to.isElementSlot(s)) {
                RawElements.write(dst, s, tb, pad);
                if (tb == 128) {
                    RawElements.writeHigh(dst, s, 0);
                }
                continue;
            }
            long[] e = to.multiIndex(s);
            System.arraycopy(e, 0, idx, 0, e.length);
            long fs;
            if (strides == null) {
                fs = from.linearIndex(idx);
            } else {
                fs = offset;
                for (int d = 0; d < idx.length; d++) {
                    fs += idx[d] * strides[d];
                }
            }
            copyElement(src, fs, fb, ft, dst, s, tb, tt);
        }
        if (tb < 8 && (slots * tb) % 8 != 0) {
            long bit = slots * tb;
            for (long b = bit; b < ((bit + 7) & ~7L); b++) {
                RawElements.write(dst, b, 1, 0);
            }
        }
    }

    /** Copies one element, converting between types (complex per component). */
    static void copyElement(MemorySegment src, long fs, long fb, ElementType ft, MemorySegment dst, long ts, long tb,
                            ElementType tt) {
        if (ft.isComplex()) {
            long re;
            long im;
            if (ft == ElementType.C64) {
                long raw = RawElements.read(src, fs, fb);
                re = raw & 0xFFFFFFFFL;
                im = raw >>> 32;
            } else {
                re = RawElements.read(src, fs, 128);
                im = RawElements.readHigh(src, fs);
            }
            ElementType fc = ft.componentType();
            ElementType tc = tt.componentType();
            re = RawElements.convert(fc, tc, re);
            im = RawElements.convert(fc, tc, im);
            if (tt == ElementType.C64) {
                RawElements.write(dst, ts, tb, (re & 0xFFFFFFFFL) | (im << 32));
            } else {
                RawElements.write(dst, ts, 128, re);
                RawElements.writeHigh(dst, ts, im);
            }
            return;
        }
        long raw = RawElements.read(src, fs, fb);
        if (ft == tt && fb == tb) {
            RawElements.write(dst, ts, tb, raw);   // same storage: the bits move unchanged
            return;
        }
        RawElements.write(dst, ts, tb, RawElements.convert(ft, tt, RawElements.normalise(ft, raw)));
    }
}
