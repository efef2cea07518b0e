package dev.tegula.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.BiConsumer;

/** Shapes, values and an independent raw-memory reader shared by the ffm tests. */
final class TestArrays {
    private TestArrays() {
    }

    static ArrayShape shape(String text) {
        return ArrayShape.parse(text);
    }

    /** One shape per layout family the contract suite covers. */
    static final List<String> FAMILIES = List.of(
            "f32[3,5]{1,0}",                               // row-major
            "f32[3,5]{0,1}",                               // column-major
            "f32[2,3,4]{0,2,1}",                           // permuted rank 3
            "f32[3,5]{1,0:T(2,2)}",                        // tiled
            "bf16[16,256]{1,0:T(8,128)(2,1)}",             // nested tiles (and a summarised toString)
            "bf16[2,1,16,256]{3,2,0,1:T(8,128)(2,1)}",     // the headline layout, small
            "f32[2,3,2,3]{1,3,0,2:T(2,2)}",                // rank-4 tiled
            "f32[2,3,2,3]{3,2,1,0}",                       // rank 4
            "s4[5,7]{1,0:E(4)}",                           // packed
            "u4[3,5]{0,1:E(4)}",
            "u2[3,5]{1,0:E(2)}",
            "u1[4,9]{1,0:E(1)}",
            "s4[5,260]{1,0:T(2,128)E(4)}",                 // packed and tiled
            "f32[2,3]{0,1:PAD(3,5:zero)}",                 // legacy padded
            "s8[2,3]{1,0:PAD(4,4:one)}",
            "f32[7]{0}",
            "f32[8]{0:T(2,2)}",                            // general addressing, tile longer than the rank
            "f32[]",
            "f32[2,1,2,1,2]{0,1,2,3,4}",                   // rank 5
            "f32[0,5]{1,0}");                              // no elements

    /** Visits every index in row-major order (the array is reused). */
    static void forEachIndex(long[] dims, BiConsumer<Long, long[]> visitor) {
        long n = 1;
        for (long d : dims) {
            n *= d;
        }
        long[] idx = new long[dims.length];
        for (long o = 0; o < n; o++) {
            visitor.accept(o, idx);
            for (int d = dims.length - 1; d >= 0; d--) {
                if (++idx[d] < dims[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /** The stored bits of a slot, read byte by byte (little-endian), without Tegula's code. */
    static long rawAt(MemorySegment segment, long slot, long bits) {
        if (bits < 8) {
            long bit = slot * bits;
            int b = segment.get(JAVA_BYTE, bit / 8) & 0xFF;
            return (b >> (bit % 8)) & ((1 << bits) - 1);
        }
        long bytes = Math.min(8, bits / 8);
        long v = 0;
        for (int k = 0; k < bytes; k++) {
            v |= (segment.get(JAVA_BYTE, slot * (bits / 8) + k) & 0xFFL) << (8 * k);
        }
        return v;
    }

    /** A distinct-looking code for element {@code o} in {@code bits} bits. */
    static long code(long o, long bits) {
        long c = o * 0x9E3779B97F4A7C15L + 0x1234567;
        return bits >= 64 ? c : c & ((1L << bits) - 1);
    }

    /** Values every array of {@code type} represents exactly. */
    static double[] values(ElementType type) {
        return switch (type) {
            case PRED, U1 -> new double[] {0, 1};
            case S1 -> new double[] {0, -1};
            case S2 -> new double[] {-2, -1, 0, 1};
            case U2 -> new double[] {0, 1, 2, 3};
            case S4 -> new double[] {-8, -3, 0, 5, 7};
            case U4 -> new double[] {0, 3, 9, 15};
            case S8 -> new double[] {-128, -5, 0, 100, 127};
            case U8 -> new double[] {0, 7, 200, 255};
            case S16 -> new double[] {-32768, -300, 0, 32767};
            case U16 -> new double[] {0, 65535, 1234};
            case S32 -> new double[] {Integer.MIN_VALUE, -7, 0, Integer.MAX_VALUE};
            case U32 -> new double[] {0, 4294967295.0, 77};
            case S64 -> new double[] {-(double) (1L << 62), -3, 0, 1L << 52};
            case U64 -> new double[] {0, 0x1p63, 12345};
            case F8E8M0FNU -> new double[] {0.25, 0.5, 1, 2, 8};
            default -> new double[] {0, 1, -1.5, 0.5, 2, 3, -4, 6};
        };
    }
}
