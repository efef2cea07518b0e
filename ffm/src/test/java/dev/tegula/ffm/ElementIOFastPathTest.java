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
 * on the stored code, for random codes of every real element type, unpacked and packed. The writes
 * are checked the same way: every f32 high half with several low halves into the types of at most
 * 8 bits, the integer truncation at its edges, and {@code setDouble} on doubles that sit just off
 * an f32 and a tie of the narrow format (rounding through the nearest f32 would round twice).
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
                if (i == 0 && j < 5) {   // edges: zero, all ones, the sign bit, one, an f16 signaling NaN (kept, not quieted)
                    code = new long[] {0, -1, 1L << (t.bitWidth() - 1), 1, 0x7C01}[(int) j];
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

    /** Every real type, unpacked and (sub-byte) packed, with neighbours that must keep their bits. */
    private static void forEachWritableShape(Arena arena, java.util.function.Consumer<Array> body) {
        for (ElementType t : ElementType.values()) {
            if (!t.isArrayType() || t.isComplex()) {
                continue;
            }
            body.accept(Array.allocate(arena, ArrayShape.of(t, 3)));
            if (t.bitWidth() <= 4) {
                long e = t.bitWidth() <= 1 ? 1 : t.bitWidth() <= 2 ? 2 : 4;
                body.accept(Array.allocate(arena, ArrayShape.of(t, 3).withLayout(Layout.rowMajor(1).withElementSizeInBits(e))));
            }
        }
    }

    /** Writes {@code v} to element 1 with both neighbours all ones, checks the code and the neighbours. */
    private static void checkFloatWrite(Array a, float v) {
        ElementType t = a.shape().elementType();
        long ones = a.shape().slotBits() >= 64 ? -1L : (1L << a.shape().slotBits()) - 1;
        a.setRawBits(new long[] {0}, ones);
        a.setRawBits(new long[] {2}, ones);
        a.setFloat(1, v);
        String at = a.shape() + " setFloat 0x" + Integer.toHexString(Float.floatToRawIntBits(v));
        assertEquals(ElementCodec.fromFloat(t, v), a.getRawBits(1), at);
        assertEquals(ones, a.getRawBits(0), at + ": left neighbour");
        assertEquals(ones, a.getRawBits(2), at + ": right neighbour");
    }

    @Test
    void setFloatAgreesWithTheCodecOnEveryHighHalf() {
        int[] lows = {0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x0100, 0x4000};
        try (Arena arena = Arena.ofConfined()) {
            forEachWritableShape(arena, a -> {
                if (a.shape().elementType().bitWidth() > 8) {
                    return;   // the 16/32/64-bit types: random values below
                }
                for (int hi = 0; hi < 1 << 16; hi++) {
                    for (int low : lows) {
                        checkFloatWrite(a, Float.intBitsToFloat(hi << 16 | low));
                    }
                }
            });
        }
    }

    @Test
    void setFloatTruncatesIntegersAtTheEdges() {
        float[] edges = {0f, -0f, 0.5f, -0.5f, 0.99999994f, -1.5f, 7.9f, 8f, -8f, -9f, 15.5f, 16f, 127.5f, 128f,
            -128f, -129f, 255.9f, 256f, 32767.5f, 32768f, -32769f, 65535f, 65536f, 2147483520f, 0x1p31f,
            -0x1p31f, 0x1p32f, 0x1p62f, 0x1p63f, -0x1p63f, 0x1.fffffep63f, 0x1p64f, -0x1p64f, 0x1p100f,
            Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.NaN, Float.intBitsToFloat(0xFFC00001)};
        Random r = new Random(11);
        try (Arena arena = Arena.ofConfined()) {
            forEachWritableShape(arena, a -> {
                for (float v : edges) {
                    checkFloatWrite(a, v);
                }
                for (int n = 0; n < 2000; n++) {
                    checkFloatWrite(a, Float.intBitsToFloat(r.nextInt()));
                    checkFloatWrite(a, (float) (r.nextGaussian() * Math.scalb(1.0, r.nextInt(70))));
                }
            });
        }
    }

    @Test
    void setDoubleAndSetLongAgreeWithTheCodec() {
        Random r = new Random(12);
        try (Arena arena = Arena.ofConfined()) {
            forEachWritableShape(arena, a -> {
                ElementType t = a.shape().elementType();
                for (int n = 0; n < 3000; n++) {
                    double d = switch (n % 4) {
                        case 0 -> Double.longBitsToDouble(r.nextLong());
                        case 1 -> r.nextGaussian() * Math.scalb(1.0, r.nextInt(140) - 70);
                        // an f32 (often a tie of a narrow format: few fraction bits) nudged by less than
                        // its ulp, so that rounding through the nearest f32 would round twice
                        case 2 -> {
                            float f = Float.intBitsToFloat((r.nextInt() & 0xFFFF_0000) | (r.nextBoolean() ? 0x8000 : 0));
                            yield f + Math.ulp(f) * (r.nextBoolean() ? 1e-9 : -1e-9) * r.nextInt(1, 1000);
                        }
                        default -> (double) r.nextLong() / (1L << r.nextInt(62));
                    };
                    a.setDouble(1, d);
                    assertEquals(ElementCodec.fromDouble(t, d), a.getRawBits(1),
                            a.shape() + " setDouble " + Double.toHexString(d));
                    long v = n % 3 == 0 ? r.nextLong() : r.nextInt(-300, 300);
                    a.setLong(1, v);
                    assertEquals(ElementCodec.fromLong(t, v), a.getRawBits(1), a.shape() + " setLong " + v);
                }
            });
        }
    }

    @Test
    void roundToOddThenRoundingOnceMoreIsOneRounding() {
        // 1 + 2^-8 lies halfway between two bf16 values: a hair above must round up, a hair below
        // down, though both round to the same f32 (1 + 2^-8) when rounded to nearest
        double tie = 1 + 0x1p-8;
        assertEquals(0x3F81, bf16(ElementIO.roundToOddFloat(tie + 0x1p-40)));
        assertEquals(0x3F80, bf16(ElementIO.roundToOddFloat(tie - 0x1p-40)));
        assertEquals(0x3F80, bf16(ElementIO.roundToOddFloat(tie)));   // the exact tie: to even
        assertEquals(Float.MAX_VALUE, ElementIO.roundToOddFloat(1e300));
        assertEquals(-Float.MAX_VALUE, ElementIO.roundToOddFloat(-1e300));
        assertEquals(Float.MIN_VALUE, ElementIO.roundToOddFloat(1e-300));
        assertEquals(0x80000001, Float.floatToRawIntBits(ElementIO.roundToOddFloat(-1e-300)));
    }

    /** The bf16 code an f32 rounds to (nearest, ties to even), as the codec computes it. */
    private static long bf16(float f) {
        return ElementCodec.fromFloat(ElementType.BF16, f);
    }
}
