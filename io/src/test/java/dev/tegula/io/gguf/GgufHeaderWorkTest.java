package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.TensorFormatException;
import dev.tegula.io.gguf.GgufBadInputTest.Bytes;
import dev.tegula.io.internal.WorkCounts;
import dev.tegula.io.internal.WorkCounts.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GGUF headers of 10^5 tensor infos and 10^5 metadata entries (and an array of 10^6 strings) are
 * read field by field once, their overlap check sorts (at most {@code 2 n log2 n} comparisons, where
 * a pairwise check would make {@code n^2 / 2}), and a tensor is found by name without a scan.
 */
class GgufHeaderWorkTest {
    private static final int N = 100_000;

    @TempDir
    Path dir;

    private static long sortBound(long n) {
        return 2 * n * (64 - Long.numberOfLeadingZeros(n));
    }

    /** {@code n} F32 tensors of 8 elements (32 bytes each), listed in a shuffled order of their offsets. */
    private static byte[] tensors(int n, boolean overlap) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Random r = new Random(3);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        Bytes b = Bytes.header(n, 0);
        for (int k = 0; k < n; k++) {
            int i = order[k];
            long slot = overlap && k == n - 1 ? (i + 1L) % n : i;
            b.tensor("t" + i, new long[] {8}, 0, 32L * slot);
        }
        return b.data(32, 32 * n).bytes();
    }

    @Test
    void aHundredThousandShuffledTensorInfosAreReadOnceAndSorted() throws Exception {
        Path p = Files.write(dir.resolve("many.gguf"), tensors(N, false));
        GgufHeader[] h = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> h[0] = Gguf.readHeader(p));
        assertEquals(N, h[0].tensors().size());
        // magic, version, two counts; then per tensor: name length and bytes, n_dims, one ne, type, offset
        assertEquals(4 + 6L * N, c.get(Kind.FIELD_READS), c::toString);
        assertTrue(c.get(Kind.COMPARISONS) >= N - 1 && c.get(Kind.COMPARISONS) <= sortBound(N), c::toString);
        for (int i = 0; i < N; i++) {
            GgufTensorInfo t = h[0].tensor("t" + i);
            assertEquals(32L * i, t.offset());
            assertSame(t, h[0].tensor(t.name()));
        }
        assertEquals(null, h[0].tensor("t" + N));
    }

    @Test
    void anOverlapAmongAHundredThousandTensorInfosIsFoundBySorting() throws Exception {
        Path p = Files.write(dir.resolve("overlap.gguf"), tensors(N, true));
        TensorFormatException[] e = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> e[0] = assertThrows(TensorFormatException.class,
                () -> Gguf.readHeader(p)));
        assertTrue(e[0].getMessage().contains("overlaps tensor"), e[0].getMessage());
        assertTrue(c.get(Kind.COMPARISONS) <= sortBound(N), c::toString);
    }

    @Test
    void aHundredThousandMetadataEntriesAndAnArrayOfAMillionStringsAreReadFieldByFieldOnce() throws Exception {
        int strings = 1_000_000;
        Bytes b = Bytes.header(0, N + 1);
        for (int i = 0; i < N; i++) {
            b.str("k" + i).u32(4).u32(i);   // UINT32
        }
        b.str("tokens").u32(9).u32(8).u64(strings);   // an ARRAY of STRING
        for (int i = 0; i < strings; i++) {
            b.str(i % 2 == 0 ? "" : "a");
        }
        Path p = Files.write(dir.resolve("kv.gguf"), b.bytes());
        GgufHeader[] h = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> h[0] = Gguf.readHeader(p));
        assertEquals(N + 1, h[0].metadata().size());
        assertEquals(N - 1, h[0].metadata().get("k" + (N - 1)).asLong());
        assertEquals(strings, h[0].metadata().get("tokens").length());
        // per entry: key length and bytes, type, value; the array: type, length, and each string's length and bytes
        assertEquals(4 + 4L * N + 5 + 2L * strings, c.get(Kind.FIELD_READS), c::toString);
        assertEquals(0, c.get(Kind.COMPARISONS), c::toString);
    }

    @Test
    void aRepeatedKeyAmongAHundredThousandIsFoundWithoutComparingPairs() throws Exception {
        Bytes b = Bytes.header(0, N);
        for (int i = 0; i < N; i++) {
            b.str(i == N - 1 ? "k0" : "k" + i).u32(4).u32(i);
        }
        Path p = Files.write(dir.resolve("repeated.gguf"), b.bytes());
        TensorFormatException[] e = {null};
        WorkCounts.Counts c = WorkCounts.of(() -> e[0] = assertThrows(TensorFormatException.class,
                () -> Gguf.readHeader(p)));
        assertTrue(e[0].getMessage().contains("metadata 'k0': key repeated"), e[0].getMessage());
        assertEquals(4 + 4L * N, c.get(Kind.FIELD_READS), "read up to the repeat, each field once: " + c);
    }
}
