package dev.tegula.io.npy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.IoFixtures;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** .npy against fixtures built byte-exactly from the format spec (see make_npy_fixtures.py). */
class NpyTest {
    @TempDir
    Path dir;

    private Array read(Arena arena, String fixture) throws IOException {
        return Npy.read(IoFixtures.write(dir, fixture, IoFixtures.npy(fixture)), arena);
    }

    private static void assertLongs(Array a, long... expected) {
        assertArrayEquals(expected, a.toLongArray(), a.toString());
    }

    @Test
    void everyIntegerAndBoolDtypeReadsItsValues() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            assertArrayEquals(new boolean[] {true, false, true, true}, read(arena, "bool.npy").toBooleanArray());
            assertLongs(read(arena, "i1.npy"), 1, -2, 127);
            assertLongs(read(arena, "i2.npy"), 1, -2, 32767);
            assertLongs(read(arena, "i4.npy"), 1, -2, Integer.MAX_VALUE);
            assertLongs(read(arena, "i8.npy"), 1, -2, Long.MAX_VALUE);
            assertLongs(read(arena, "u1.npy"), 1, 200, 255);
            assertLongs(read(arena, "u2.npy"), 1, 200, 65535);
            assertLongs(read(arena, "u4.npy"), 1, 200, 4294967295L);
            assertLongs(read(arena, "u8.npy"), 1, 200, -1L);
            assertEquals(ElementType.U64, read(arena, "u8.npy").shape().elementType());
            assertEquals(ElementType.PRED, read(arena, "bool.npy").shape().elementType());
        }
    }

    @Test
    void floatAndComplexDtypesReadTheirValues() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            assertArrayEquals(new double[] {1.5, -2.0, 65504.0}, read(arena, "f2.npy").toDoubleArray());
            Array f4 = read(arena, "f4.npy");
            assertEquals("f32[2,3]{1,0}", f4.shape().toString());
            assertEquals(5.5f, f4.getFloat(1, 2));
            Array f8 = read(arena, "f8.npy");
            assertEquals(-5.25, f8.getDouble(1, 2));
            Array c8 = read(arena, "c8.npy");
            assertEquals(ElementType.C64, c8.shape().elementType());
            assertEquals(-3.0, c8.getReal(1));
            assertEquals(0.5, c8.getImaginary(1));
            Array c16 = read(arena, "c16.npy");
            assertEquals(2.0, c16.getImaginary(0));
            assertEquals(0.25, c16.getImaginary(1));
        }
    }

    @Test
    void littleEndianDataIsMappedZeroCopyAndReadOnly() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = read(arena, "f4.npy");
            assertTrue(a.segment().isMapped(), "the array is a view of the file mapping");
            assertTrue(a.isReadOnly());
            assertEquals(24, a.segment().byteSize());
            assertThrows(UnsupportedOperationException.class, () -> a.setFloat(0, 0, 1f));
        }
    }

    @Test
    void fortranOrderIsColumnMajorWithoutACopy() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = read(arena, "f8_fortran.npy");
            assertEquals(Layout.columnMajor(2), a.shape().layout());
            assertTrue(a.segment().isMapped());
            assertArrayEquals(new double[] {0, 1, 2, 3, 4, 5}, a.toDoubleArray());
            assertEquals(1.0, a.getDouble(0, 1));
            assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6}, read(arena, "i4_fortran.npy").toLongArray());
        }
    }

    @Test
    void bigEndianIsConvertedIntoAFreshWritableArray() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array i4 = read(arena, "i4_big.npy");
            assertLongs(i4, 1, -2, 0x01020304);
            assertFalse(i4.segment().isMapped());
            assertFalse(i4.isReadOnly());
            assertArrayEquals(new double[] {1.0, -2.5, 3.25, 1e300}, read(arena, "f8_big.npy").toDoubleArray());
            Array c8 = read(arena, "c8_big.npy");
            assertEquals(2.0, c8.getImaginary(0));
            assertEquals(-3.0, c8.getReal(1));
            assertArrayEquals(new double[] {1.5, -0.25}, read(arena, "f2_big.npy").toDoubleArray());
        }
    }

    @Test
    void scalarsEmptyArraysAndOtherVersions() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array s = read(arena, "scalar.npy");
            assertEquals(0, s.shape().rank());
            assertEquals(3.5, s.getDouble());
            assertEquals("f32[0]{0}", read(arena, "empty.npy").shape().toString());
            assertEquals("s64[2,0]{1,0}", read(arena, "empty_2d.npy").shape().toString());
            assertArrayEquals(new float[] {1, 2, 3, 4}, read(arena, "v2.npy").toFloatArray());
            assertLongs(read(arena, "v3.npy"), 7, 8, 9);
            assertLongs(read(arena, "py2_long.npy"), 1, 2, 3, 4, 5, 6);
            assertEquals(2, Npy.readHeader(IoFixtures.write(dir, "v2.npy", IoFixtures.npy("v2.npy"))).major());
        }
    }

    /** The writer reproduces the spec-built fixtures byte for byte (numpy.save's header included). */
    @ParameterizedTest
    @ValueSource(strings = {"bool.npy", "i1.npy", "i2.npy", "i4.npy", "i8.npy", "u1.npy", "u2.npy", "u4.npy", "u8.npy",
            "f2.npy", "f4.npy", "f8.npy", "c8.npy", "c16.npy", "f8_fortran.npy", "i4_fortran.npy", "scalar.npy",
            "empty.npy", "empty_2d.npy", "v2.npy", "v3.npy"})
    void writingWhatWasReadGivesTheSameBytes(String fixture) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = read(arena, fixture);
            Path out = dir.resolve("out-" + fixture);
            int major = fixture.equals("v2.npy") ? 2 : fixture.equals("v3.npy") ? 3 : 0;
            Npy.write(a, out, major);
            assertArrayEquals(IoFixtures.npy(fixture), Files.readAllBytes(out));
        }
    }

    @Test
    void otherLayoutsAreWrittenRowMajorAndReadBackEqual() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (String text : new String[] {"f32[5,7]{1,0:T(2,4)}", "s16[2,3,4]{0,2,1}", "f64[4,6]{0,1}"}) {
                Array a = Array.allocate(arena, ArrayShape.parse(text));
                a.copyFrom(java.util.stream.IntStream.range(0, (int) a.shape().elementCount()).asDoubleStream().toArray());
                Path p = dir.resolve("w.npy");
                Npy.write(a, p);
                Array b = Npy.read(p, arena);
                assertTrue(a.contentEquals(b), text);
                assertEquals(0, Npy.readHeader(p).dataOffset() % Npy.ALIGNMENT);
            }
            Array strided = Array.allocate(arena, ArrayShape.of(ElementType.S32, 6, 4)).slice(0, 1, 6, 2);
            strided.fill(9L);
            Npy.write(strided, dir.resolve("s.npy"));
            assertTrue(strided.contentEquals(Npy.read(dir.resolve("s.npy"), arena)));
        }
    }

    @Test
    void dataAlwaysStartsAtAMultipleOf64() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (long[] dims : new long[][] {{}, {1}, {123456789}, {3, 4, 5, 6, 7, 8, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8}}) {
                Array a = Array.allocate(arena, ArrayShape.of(ElementType.U8, dims.length > 0 && dims[0] > 1000 ? new long[0] : dims));
                Path p = dir.resolve("a.npy");
                Npy.write(a, p);
                NpyHeader h = Npy.readHeader(p);
                assertEquals(0, h.dataOffset() % 64, Arrays.toString(dims));
                assertEquals(1, h.major());
            }
        }
    }

    @Test
    void typesWithoutAnNpyDtypeAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 2));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Npy.write(a, dir.resolve("x.npy")));
            assertTrue(e.getMessage().contains("bf16"), e.getMessage());
            assertFalse(Npy.supports(ElementType.F8E4M3FN));
            assertTrue(Npy.supports(ElementType.C128));
        }
    }

    /** The header alone is the spec-built fixture's first bytes, for C and Fortran order and version 2.0. */
    @ParameterizedTest
    @ValueSource(strings = {"f4.npy", "i8.npy", "f8_fortran.npy", "i4_fortran.npy", "scalar.npy", "empty_2d.npy"})
    void headerOfAShapeIsTheBytesBeforeItsData(String fixture) throws IOException {
        NpyHeader h = Npy.readHeader(IoFixtures.write(dir, fixture, IoFixtures.npy(fixture)));
        byte[] header = Npy.header(h.shape());
        assertArrayEquals(Arrays.copyOf(IoFixtures.npy(fixture), Math.toIntExact(h.dataOffset())), header, fixture);
    }

    @Test
    void headerRefusesLayoutsAndTypesAnNpyFileCannotHold() {
        for (String text : new String[] {"f32[8,128]{1,0:T(8,128)}", "s16[2,3,4]{0,2,1}", "s4[8]{0:E(4)}", "f32[4]{0:S(1)}"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Npy.header(ArrayShape.parse(text)), text);
            assertTrue(e.getMessage().startsWith("layout: "), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Npy.header(ArrayShape.of(ElementType.BF16, 2)));
        assertTrue(e.getMessage().contains("bf16 has no .npy dtype"), e.getMessage());
    }
}
