package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The scalar reference relayout, the oracle every fast path is tested against. Written from the
 * contract in {@code docs/relayout.md} and the layout semantics, not from the engine: it shares no
 * code with {@code RelayoutPlan} (its bit reads and writes, its conversion rule and its padding
 * walk are its own), and leans only on core's public index math ({@link ArrayShape#multiIndex},
 * {@link ArrayShape#linearIndex}, tested against core's own reference) and the ffm codecs (tested
 * against ffm's reference).
 *
 * <p>It walks every slot of the destination buffer in order. A slot that holds an element gets the
 * source element at the same logical index (read at the source's slot, or at
 * {@code offset + Σ index[d]·strides[d]} for a strided source), converted if the element types
 * differ: integers and pred through {@code long}, an integer other than u64 into a floating type
 * through {@code long} as well, a narrower float into f32 through the codec's exact {@code toFloat}
 * (a NaN's payload kept, not quieted), everything else through {@code double} rounding to nearest even,
 * complex per component; between storage widths of one sub-byte type the value is re-encoded (s4
 * -1 is 0xFF in a byte of its own and 0xF packed). A padding slot gets the destination layout's
 * padding value; bits of the last byte of a packed buffer beyond its last slot are zero.
 * Deliberately simple and slow.
 */
public final class ReferenceRelayout {
    private ReferenceRelayout() {
    }

    /** Relayouts a dense source buffer in {@code from}'s layout into a buffer in {@code to}'s. */
    public static void copy(ArrayShape from, MemorySegment src, ArrayShape to, MemorySegment dst) {
        copy(from, src, -1, null, to, dst);
    }

    /** Like {@link #copy}, for a source whose element {@code e} is at slot {@code offset + Σ e[d]·strides[d]}. */
    public static void copyStrided(ArrayShape from, MemorySegment src, long offset, long[] strides, ArrayShape to,
                            MemorySegment dst) {
        copy(from, src, offset, strides, to, dst);
    }

    private static void copy(ArrayShape from, MemorySegment src, long offset, long[] strides, ArrayShape to,
                             MemorySegment dst) {
        if (!Arrays.equals(from.dimensions(), to.dimensions())) {
            throw new IllegalArgumentException("dimensions differ");
        }
        ElementType ft = from.elementType();
        ElementType tt = to.elementType();
        long fb = from.slotBits();
        long tb = to.slotBits();
        long pad = ElementCodec.paddingCode(tt, to.layout().paddingValue());
        long slots = to.slotCount();
        for (long s = 0; s < slots; s++) {
            if (!to.isElementSlot(s)) {
                putBits(dst, s * tb, (int) Math.min(tb, 64), pad);
                if (tb == 128) {
                    putBits(dst, s * tb + 64, 64, 0);
                }
                continue;
            }
            long[] e = to.multiIndex(s);
            long fs = offset;
            if (strides == null) {
                fs = from.linearIndex(e);
            } else {
                for (int d = 0; d < e.length; d++) {
                    fs += e[d] * strides[d];
                }
            }
            if (ft.isComplex()) {
                int fw = ft.componentType().bitWidth();
                int tw = tt.componentType().bitWidth();
                for (int part = 0; part < 2; part++) {
                    long raw = getBits(src, fs * fb + part * fw, fw);
                    putBits(dst, s * tb + part * tw, tw, convert(ft.componentType(), tt.componentType(), raw));
                }
            } else {
                long raw = getBits(src, fs * fb, (int) fb);
                long value = ft == tt && fb == tb ? raw : convert(ft, tt, canonical(ft, raw));
                putBits(dst, s * tb, (int) tb, value);
            }
        }
        long end = slots * tb;
        long tail = ((end + 7) & ~7L) - end;
        if (tail > 0) {
            putBits(dst, end, (int) tail, 0);
        }
    }

    /**
     * A stored code as the type's canonical code: a sub-byte type's own bits, sign-extended for
     * signed integers; every other type (pred included: any non-zero byte is true) as stored.
     */
    private static long canonical(ElementType t, long raw) {
        if (!t.isSubByte()) {
            return raw;
        }
        int w = t.bitWidth();
        long low = raw & ((1L << w) - 1);
        boolean signed = t.isIntegral() && !t.isUnsigned();
        return signed && (low >>> (w - 1)) != 0 ? low - (1L << w) : low;
    }

    /** The conversion rule of {@code docs/relayout.md}. */
    private static long convert(ElementType from, ElementType to, long code) {
        if (from == to) {
            return code;
        }
        if (to == ElementType.F32 && from.isFloating() && from.bitWidth() < 32) {
            return Float.floatToRawIntBits(ElementCodec.toFloat(from, code)) & 0xFFFF_FFFFL;   // exact, NaN not quieted
        }
        boolean fromInteger = from.isIntegral() || from.isPred();
        boolean toInteger = to.isIntegral() || to.isPred();
        if (fromInteger && (toInteger || from != ElementType.U64)) {
            return ElementCodec.fromLong(to, ElementCodec.toLong(from, code));
        }
        return ElementCodec.fromDouble(to, ElementCodec.toDouble(from, code));
    }

    /** {@return {@code n} bits (at most 64) starting at bit {@code bit}, little-endian bit order} */
    private static long getBits(MemorySegment seg, long bit, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            long b = bit + i;
            int byteValue = seg.get(ValueLayout.JAVA_BYTE, b >>> 3);
            v |= (long) ((byteValue >>> (b & 7)) & 1) << i;
        }
        return v;
    }

    /** Sets {@code n} bits (at most 64) from bit {@code bit} to the low bits of {@code v}. */
    private static void putBits(MemorySegment seg, long bit, int n, long v) {
        for (int i = 0; i < n; i++) {
            long b = bit + i;
            byte old = seg.get(ValueLayout.JAVA_BYTE, b >>> 3);
            int m = 1 << (b & 7);
            int nv = ((v >>> i) & 1) != 0 ? old | m : old & ~m;
            seg.set(ValueLayout.JAVA_BYTE, b >>> 3, (byte) nv);
        }
    }
}
