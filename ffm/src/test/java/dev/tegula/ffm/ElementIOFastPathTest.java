package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.Arena;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The accessors' inline paths per element kind (f32, f64, bf16, f16, the 256-entry tables of the
 * narrow types, the 16/32/64-bit integers) agree with their plain reference twin, {@link ElementCodec}
 * on the stored code, for random codes of every real element type, unpacked and packed.
 */
class ElementIOFastPathTest {

    @Test
    void readsAgreeWithTheCodecForEveryRealType() {
        Random r = new Random(3);
        try (Arena arena = Arena.ofConfined()) {
            for (ElementType t : ElementType.values()) {
                if (!t.isArrayType() || t.isComplex()) {
                    continue;
                }
                check(arena, ArrayShape.of(t, 5, 7), r);
                if (t.bitWidth() <= 4) {
                    long e = t.bitWidth() <= 1 ? 1 : t.bitWidth() <= 2 ? 2 : 4;
                    check(arena, ArrayShape.of(t, 5, 7).withLayout(Layout.rowMajor(2).withElementSizeInBits(e)), r);
                }
            }
        }
    }

    private static void check(Arena arena, ArrayShape shape, Random r) {
        Array a = Array.allocate(arena, shape);
        ElementType t = shape.elementType();
        long bits = shape.slotBits();
        for (long i = 0; i < 5; i++) {
            for (long j = 0; j < 7; j++) {
                long code = r.nextLong();
                if (i == 0 && j < 4) {   // edges: zero, all ones, the sign bit, one
                    code = new long[] {0, -1, 1L << (t.bitWidth() - 1), 1}[(int) j];
                }
                code = bits >= 64 ? code : code & ((1L << bits) - 1);
                a.setRawBits(new long[] {i, j}, code);
                long raw = a.getRawBits(i, j);
                String at = shape + " code 0x" + Long.toHexString(raw);
                assertEquals(Float.floatToRawIntBits(ElementCodec.toFloat(t, raw)),
                        Float.floatToRawIntBits(a.getFloat(i, j)), at);
                assertEquals(Double.doubleToRawLongBits(ElementCodec.toDouble(t, raw)),
                        Double.doubleToRawLongBits(a.getDouble(i, j)), at);
                float v = (float) (r.nextGaussian() * 100);
                a.setFloat(i, j, v);
                assertEquals(ElementCodec.fromFloat(t, v), a.getRawBits(i, j), shape + " setFloat " + v);
            }
        }
    }
}
