package dev.tegula.io.npy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.WorkCounts;
import dev.tegula.io.internal.WorkCounts.Kind;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code .npy} shape of 10^5 dimensions (a 300 KB header, under the 1 MB cap) is parsed in one
 * pass that reads each character once and is then refused by its count, naming it; a shape at the
 * cap of {@value NpyHeader#MAX_RANK} dimensions reads.
 */
class NpyShapeWorkTest {
    @TempDir
    Path dir;

    private static String header(int rank, String dim) {
        StringBuilder b = new StringBuilder("{'descr': '<f4', 'fortran_order': True, 'shape': (");
        for (int i = 0; i < rank; i++) {
            b.append(dim).append(", ");
        }
        return b.append("), }\n").toString();
    }

    @Test
    void aShapeOfAHundredThousandDimensionsIsParsedOnceAndRefusedByItsCount() throws Exception {
        String text = header(100_000, "1");
        Path p = IoFixtures.write(dir, "wide.npy", IoFixtures.npyWithHeader(2, text, new byte[4]));
        TensorFormatException[] e = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> e[0] = assertThrows(TensorFormatException.class,
                () -> Npy.readHeader(p)));
        assertTrue(e[0].getMessage().contains("shape has 100000 dimensions; at most 64 are supported"),
                e[0].getMessage());
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
        assertEquals(text.length(), c.get(Kind.TEXT_CHARS), c::toString);
    }

    @Test
    void aShapeOfThreeHundredDimensionsOfNineHundredDigitsEachIsOnePassToo() throws Exception {
        // each dimension 999 digits long (the most an integer may have is 1000): refused, after one pass
        String text = header(300, "9".repeat(999));
        Path p = IoFixtures.write(dir, "huge.npy", IoFixtures.npyWithHeader(2, text, new byte[0]));
        WorkCounts.Counts c = WorkCounts.of(() -> assertThrows(TensorFormatException.class, () -> Npy.readHeader(p)));
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
        assertEquals(text.length(), c.get(Kind.TEXT_CHARS), c::toString);
    }

    @Test
    void aShapeAtTheCapOfDimensionsReads() throws Exception {
        String text = header(NpyHeader.MAX_RANK, "1");
        Path p = IoFixtures.write(dir, "cap.npy", IoFixtures.npyWithHeader(2, text, new byte[4]));
        NpyHeader[] h = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> h[0] = Npy.readHeader(p));
        long[] ones = new long[NpyHeader.MAX_RANK];
        Arrays.fill(ones, 1);
        assertArrayEquals(ones, h[0].dimensions());
        assertEquals(1, c.get(Kind.TEXT_PARSES), c::toString);
    }
}
