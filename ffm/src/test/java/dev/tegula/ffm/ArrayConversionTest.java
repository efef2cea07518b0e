package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Element conversions between Java types and element types, padding values, and toString. */
class ArrayConversionTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private Array one(String type) {
        return Array.allocate(arena, shape(type + "[1]"));
    }

    @Test
    void floatsToIntegersTruncateTowardZeroLikeAJavaCast() {
        Array f = one("f32");
        f.setFloat(0, -2.7f);
        assertEquals(-2, f.getInt(0));
        assertEquals(-2L, f.getLong(0));
        f.setFloat(0, Float.NaN);
        assertEquals(0, f.getInt(0));
        assertTrue(f.getBoolean(0));               // NaN != 0
        f.setDouble(0, 1e20);
        assertEquals(Integer.MAX_VALUE, f.getInt(0));
        f.setInt(0, 16777217);                     // rounds to the nearest float
        assertEquals(16777216f, f.getFloat(0));
        Array i = one("s32");
        i.setDouble(0, -3.9);
        assertEquals(-3, i.getInt(0));
        i.setFloat(0, 7.99f);
        assertEquals(7, i.getLong(0));
    }

    @Test
    void unsignedTypesZeroExtendAndU64IsTheRawPattern() {
        Array u8 = one("u8");
        u8.setInt(0, 255);
        assertEquals(255, u8.getInt(0));
        assertEquals(255.0, u8.getDouble(0));
        u8.setInt(0, 256 + 3);                     // wraps
        assertEquals(3, u8.getLong(0));
        Array u32 = one("u32");
        u32.setLong(0, 4294967295L);
        assertEquals(4294967295L, u32.getLong(0));
        assertEquals(-1, u32.getInt(0));           // the low 32 bits
        Array u64 = one("u64");
        u64.setLong(0, -1L);
        assertEquals(-1L, u64.getLong(0));
        assertEquals(0x1p64, u64.getDouble(0));
        assertEquals("u64[1]{0}\n[18446744073709551615]", u64.toString());
        Array s4 = Array.allocate(arena, shape("s4[3]{0:E(4)}"));
        s4.setInt(0, -8);
        s4.setInt(1, 7);
        s4.setInt(2, -1);
        assertEquals(-8, s4.getInt(0));
        assertEquals(7, s4.getInt(1));
        assertEquals(-1, s4.getInt(2));
        assertEquals((byte) 0x78, s4.segment().get(ValueLayout.JAVA_BYTE, 0));   // element 0 in the low bits
        assertEquals((byte) 0x0F, s4.segment().get(ValueLayout.JAVA_BYTE, 1));
    }

    @Test
    void packedWritesTouchOnlyTheirOwnBits() {
        Array u1 = Array.allocate(arena, shape("u1[16]{0:E(1)}"));
        u1.fill(1L);
        u1.setBoolean(3, false);
        u1.setBoolean(12, false);
        assertEquals((byte) 0xF7, u1.segment().get(ValueLayout.JAVA_BYTE, 0));
        assertEquals((byte) 0xEF, u1.segment().get(ValueLayout.JAVA_BYTE, 1));
        Array u2 = Array.allocate(arena, shape("u2[5]{0:E(2)}"));
        u2.setInt(1, 3);
        u2.setInt(4, 2);
        assertEquals((byte) 0x0C, u2.segment().get(ValueLayout.JAVA_BYTE, 0));
        assertEquals((byte) 0x02, u2.segment().get(ValueLayout.JAVA_BYTE, 1));
    }

    @Test
    void floatFormatsConvertAsTheirCodecsDefine() {
        Array bf = one("bf16");
        bf.setFloat(0, 1f + 0x1p-8f);              // a tie: rounds to even
        assertEquals(1f, bf.getFloat(0));
        bf.setFloat(0, 1f + 0x1p-8f + 0x1p-20f);   // above the tie
        assertEquals(1f + 0x1p-7f, bf.getFloat(0));
        Array h = one("f16");
        h.setDouble(0, 65520);                     // overflows to infinity
        assertEquals(Float.POSITIVE_INFINITY, h.getFloat(0));
        Array e4m3fn = one("f8e4m3fn");
        e4m3fn.setFloat(0, 448f);
        assertEquals(448f, e4m3fn.getFloat(0));
        e4m3fn.setFloat(0, 1000f);                 // no infinity: NaN
        assertTrue(Float.isNaN(e4m3fn.getFloat(0)));
        Array e5m2 = one("f8e5m2");
        e5m2.setFloat(0, 1e6f);
        assertEquals(Float.POSITIVE_INFINITY, e5m2.getFloat(0));
        Array fp4 = Array.allocate(arena, shape("f4e2m1fn[2]{0:E(4)}"));
        fp4.setFloat(0, 6f);
        fp4.setFloat(1, -0.5f);
        assertEquals(6f, fp4.getFloat(0));
        assertEquals(-0.5f, fp4.getFloat(1));
        assertEquals((byte) 0x97, fp4.segment().get(ValueLayout.JAVA_BYTE, 0));
        Array e8m0 = one("f8e8m0fnu");
        e8m0.setDouble(0, 0x1p-20);
        assertEquals(0x1p-20, e8m0.getDouble(0));
    }

    @Test
    void predIsANonZeroByte() {
        Array p = one("pred");
        p.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 42);
        assertTrue(p.getBoolean(0));
        assertEquals(1, p.getInt(0));
        p.setDouble(0, 0.0);
        assertFalse(p.getBoolean(0));
        p.setDouble(0, -0.25);
        assertTrue(p.getBoolean(0));
        assertEquals(1, p.segment().get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void complexElementsAreRealImaginaryPairs() {
        Array c = Array.allocate(arena, shape("c64[2]"));
        c.setComplex(new long[] {1}, 1.5, -2);
        assertEquals(1.5, c.getReal(1));
        assertEquals(-2, c.getImaginary(1));
        assertEquals(1.5f, c.getFloat(1));         // the real part
        assertEquals(-2f, c.segment().get(ValueLayout.JAVA_FLOAT, 12));
        c.setDouble(0, 3);                         // a real number: imaginary part 0
        assertEquals(0, c.getImaginary(0));
        assertEquals("c64[2]{0}\n[3.0+0.0j, 1.5-2.0j]", c.toString());
        assertThrows(IllegalArgumentException.class, () -> one("f32").setComplex(new long[] {0}, 1, 1));
    }

    @ParameterizedTest
    @CsvSource({
        "f32, ONE, 1.0", "f32, LOWEST, -Infinity", "f32, HIGHEST, Infinity", "f32, ZERO, 0.0",
        "bf16, LOWEST, -Infinity", "f16, HIGHEST, Infinity", "f64, ONE, 1.0",
        "s8, LOWEST, -128", "s8, HIGHEST, 127", "u8, LOWEST, 0", "u8, HIGHEST, 255", "s32, ONE, 1",
        "f8e4m3fn, LOWEST, -448", "f8e4m3fn, HIGHEST, 448", "f8e5m2, HIGHEST, Infinity",
        "f8e4m3fnuz, LOWEST, -240", "f8e8m0fnu, HIGHEST, 1.7014118346046923E38", "f4e2m1fn, LOWEST, -6",
        "pred, HIGHEST, 1", "pred, LOWEST, 0", "c64, ONE, 1.0"})
    void legacyPaddingHoldsItsValue(String type, PaddingValue value, double expected) {
        ArrayShape s = ArrayShape.of(ElementType.fromName(type), 2, 3)
                .withLayout(Layout.of(0, 1).withPaddedDimensions(value, 3, 5));
        Array a = Array.allocate(arena, s);
        Array padded = Array.wrap(a.segment(), ArrayShape.of(s.elementType(), 3, 5).withLayout(Layout.of(0, 1)));
        double zero = s.elementType().isComplex() ? 0 : ElementCodec.toDouble(s.elementType(), 0);  // e8m0: 2^-127
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 5; j++) {
                double v = padded.getDouble(i, j);
                assertEquals(i < 2 && j < 3 ? zero : expected, v, i + "," + j);
            }
        }
        a.fill(0.5);
        assertEquals(expected, padded.getDouble(2, 4));
    }

    @Test
    void toStringIsLogicalOrderNumPyStyleWithElision() {
        Array a = Array.allocate(arena, shape("f32[2,3]{0,1}"));
        a.copyFrom(new float[] {0, 1, 2, 3, 4, 5});
        assertEquals("f32[2,3]{0,1}\n[[0.0, 1.0, 2.0],\n [3.0, 4.0, 5.0]]", a.toString());
        Array b = Array.allocate(arena, shape("s32[2,2,2]{0,1,2:T(2,2)}"));
        b.copyFrom(new int[] {0, 1, 2, 3, 4, 5, 6, 7});
        assertEquals("s32[2,2,2]{0,1,2:T(2,2)}\n[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]", b.toString());
        Array big = Array.allocate(arena, shape("s32[40,40]{0,1}"));
        int[] v = new int[1600];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        big.copyFrom(v);
        assertEquals("s32[40,40]{0,1}\n[[0, 1, 2, ..., 37, 38, 39],\n [40, 41, 42, ..., 77, 78, 79],\n"
                + " [80, 81, 82, ..., 117, 118, 119],\n ...,\n [1480, 1481, 1482, ..., 1517, 1518, 1519],\n"
                + " [1520, 1521, 1522, ..., 1557, 1558, 1559],\n [1560, 1561, 1562, ..., 1597, 1598, 1599]]",
                big.toString());
        Array p = Array.allocate(arena, shape("pred[3]"));
        p.setBoolean(1, true);
        assertEquals("pred[3]{0}\n[false, true, false]", p.toString());
    }

    @Test
    void javaArraysOfEveryWidthCopyWithConversion() {
        Array s16 = Array.allocate(arena, shape("s16[2,2]{0,1}"));
        s16.copyFrom(new short[] {1, -2, 3, -4});
        assertEquals(-2, s16.getInt(0, 1));
        assertEquals(java.util.Arrays.toString(new short[] {1, -2, 3, -4}), java.util.Arrays.toString(s16.toShortArray()));
        Array u8 = Array.allocate(arena, shape("u8[4]"));
        u8.copyFrom(new byte[] {-1, 0, 1, 2});
        assertEquals(255, u8.getInt(0));
        assertEquals((byte) -1, u8.toByteArray()[0]);
        Array f = Array.allocate(arena, shape("f32[4]"));
        f.copyFrom(new byte[] {-1, 0, 1, 2});
        assertEquals(-1f, f.getFloat(0));
        assertThrows(IllegalArgumentException.class, () -> f.copyFrom(new float[3]));
    }
}
