package dev.tegula.io.npy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Files that {@code numpy.save} wrote for {@code ml_dtypes} arrays (void dtypes {@code '<V2'} and
 * {@code '<V1'}; fixtures from {@code src/test/python/make_npy_ml_dtypes_fixtures.py}) read with an
 * explicit element type, and refused in words without one or with a type of another width.
 */
class NpyMlDtypesTest {
    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(NpyMlDtypesTest.class.getResource("/dev/tegula/io/npy/" + name).toURI());
    }

    @Test
    void aBfloat16FileReadsAsBf16WhenTheTypeIsGiven() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Npy.read(fixture("bf16_ml_dtypes.npy"), ElementType.BF16, arena);
            assertEquals("bf16[2,3]{1,0}", a.shape().toString());
            // the values the generator wrote; 1e-40 rounds to the bf16 subnormal 2^-133
            assertArrayEquals(new float[] {0.5f, -1.25f, 3f, Float.POSITIVE_INFINITY, -0f, 0x1p-133f}, a.toFloatArray());
            assertEquals(0x8000, a.getRawBits(1, 1));
        }
    }

    @Test
    void aFloat8FileReadsAsF8e4m3fnWhenTheTypeIsGiven() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Npy.read(fixture("f8e4m3fn_ml_dtypes.npy"), ElementType.F8E4M3FN, arena);
            assertArrayEquals(new float[] {1f, -2.5f, 448f, 0.015625f}, a.toFloatArray());
        }
    }

    @Test
    void withoutATypeTheVoidDtypeIsRefusedNamingTheWayToReadIt() throws Exception {
        Path p = fixture("bf16_ml_dtypes.npy");
        try (Arena arena = Arena.ofConfined()) {
            TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.read(p, arena));
            assertTrue(e.getMessage().startsWith(p + ": descr '<V2' is not a supported dtype"), e.getMessage());
            assertTrue(e.getMessage().contains("read it with Npy.read(path, type, arena)"), e.getMessage());
            assertThrows(TensorFormatException.class, () -> TensorFiles.read(p, null, arena));
        }
    }

    @Test
    void aTypeOfAnotherWidthOrAnotherPlainDtypeIsRefused() throws IOException, URISyntaxException {
        Path p = fixture("bf16_ml_dtypes.npy");
        try (Arena arena = Arena.ofConfined()) {
            TensorFormatException e = assertThrows(TensorFormatException.class,
                    () -> Npy.read(p, ElementType.F32, arena));
            assertEquals(p + ": descr '<V2' has 2-byte elements, but f32 has 4", e.getMessage());
            Path f4 = fixture("f4.npy");
            e = assertThrows(TensorFormatException.class, () -> Npy.read(f4, ElementType.BF16, arena));
            assertTrue(e.getMessage().contains("'<f4' is f32, not the bf16 asked for"), e.getMessage());
            assertEquals("f32", Npy.read(f4, ElementType.F32, arena).shape().elementType().toString());
        }
    }
}
