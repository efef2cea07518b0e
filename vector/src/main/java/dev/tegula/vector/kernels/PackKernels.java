package dev.tegula.vector.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packing and unpacking of 4-bit elements between one-per-byte storage and {@code E(4)} (two per
 * byte, element 0 in the low nibble), for arrays whose layouts differ only in {@code E(n)}.
 * Unpacking sign-extends signed types (s4 -1: packed 0xF, unpacked 0xFF) and zero-extends the
 * others, as the element walk does (docs/relayout.md). Stateless and thread-safe.
 */
public final class PackKernels {
    private PackKernels() {
    }

    /** The preferred width (256 or 512 bits): one step reads {@link #STEP} one-per-byte elements as pairs in shorts. */
    private static final VectorSpecies<Short> SW = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BW = ByteVector.SPECIES_PREFERRED;
    /** Bytes of half the preferred width: the packed side of one iteration. */
    private static final VectorSpecies<Byte> BH = VectorSpecies.of(byte.class, VectorShape.forBitSize(BW.vectorBitSize() / 2));
    private static final int STEP = BW.length();
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final boolean VECTOR = Tuning.VECTOR && SW.vectorBitSize() >= 256;

    /**
     * Packs {@code [from, to)} of {@code n} one-per-byte elements into nibbles (from even). At the
     * preferred vector width: a 512-bit load of 64 elements, read as 32 shorts (two elements each),
     * becomes 32 packed bytes in one narrowing (faster than 256-bit steps).
     */
    public static void pack4(MemorySegment src, MemorySegment dst, long n, long from, long to) {
        KernelTrace.ran(Kernel.PACK_4);
        long i = from;
        if (VECTOR) {
            for (; i + STEP <= to; i += STEP) {
                ShortVector s = ByteVector.fromMemorySegment(BW, src, i, LE).reinterpretAsShorts();
                ShortVector packed = s.and((short) 0x000F).or(s.lanewise(VectorOperators.LSHR, 4).and((short) 0x00F0));
                packed.convertShape(VectorOperators.S2B, BH, 0).intoMemorySegment(dst, i >>> 1, LE);
            }
        }
        for (; i < to; i += 2) {
            int lo = src.get(ValueLayout.JAVA_BYTE, i) & 0xF;
            int hi = i + 1 < n ? src.get(ValueLayout.JAVA_BYTE, i + 1) & 0xF : 0;
            dst.set(ValueLayout.JAVA_BYTE, i >>> 1, (byte) (lo | (hi << 4)));
        }
    }

    /** Unpacks {@code [from, to)} of {@code n} nibble-packed elements into one byte each (from even). */
    public static void unpack4(MemorySegment src, MemorySegment dst, long n, long from, long to, boolean signed) {
        KernelTrace.ran(Kernel.UNPACK_4);
        long i = from;
        if (VECTOR) {
            for (; i + STEP <= to; i += STEP) {
                ShortVector x = ByteVector.fromMemorySegment(BH, src, i >>> 1, LE)
                        .convertShape(VectorOperators.B2S, SW, 0).reinterpretAsShorts();
                ShortVector lo = x.and((short) 0xF);
                ShortVector hi = x.lanewise(VectorOperators.ASHR, 4).and((short) 0xF);
                if (signed) {
                    lo = lo.lanewise(VectorOperators.XOR, (short) 8).sub((short) 8).and((short) 0xFF);
                    hi = hi.lanewise(VectorOperators.XOR, (short) 8).sub((short) 8);
                }
                lo.or(hi.lanewise(VectorOperators.LSHL, 8)).reinterpretAsBytes().intoMemorySegment(dst, i, LE);
            }
        }
        for (; i < to; i++) {
            int b = src.get(ValueLayout.JAVA_BYTE, i >>> 1);
            int v = (b >>> ((i & 1) * 4)) & 0xF;
            if (signed) {
                v = (v ^ 8) - 8;
            }
            dst.set(ValueLayout.JAVA_BYTE, i, (byte) v);
        }
    }
}
