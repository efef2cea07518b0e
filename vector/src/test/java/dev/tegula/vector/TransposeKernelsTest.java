package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The blocked transpose ({@link TransposeKernels}, and {@link Kernels#transpose} that dispatches to
 * it) against an element loop: extents around the tile edge (8, 16, 32) and the block edge, padded
 * strides and offsets on both sides, the garbage around the destination untouched. vector/pom.xml
 * runs this class at the machine's widest vectors, at {@code -XX:UseAVX=2} and with the scalar
 * kernels, so the 16×16, 8×8 and element paths are all covered.
 */
class TransposeKernelsTest {

    /**
     * {@code walk} 0: source strips, 1: destination strips (both through {@link Kernels#transpose}),
     * 2: staged blocks of {@code 32 blockI32} by {@code 32 blockJ32} (tiles through the staging
     * buffer, one bulk copy per destination row piece), called directly at these small block sizes.
     */
    @Property(tries = 500)
    void transposeMatchesElementLoop(@ForAll @IntRange(min = 1, max = 100) int nI,
                                     @ForAll @IntRange(min = 1, max = 100) int nJ,
                                     @ForAll @IntRange(min = 0, max = 5) int padI,
                                     @ForAll @IntRange(min = 0, max = 5) int padJ,
                                     @ForAll @IntRange(min = 0, max = 9) int so,
                                     @ForAll @IntRange(min = 0, max = 9) int dO,
                                     @ForAll boolean shorts,
                                     @ForAll @IntRange(min = 0, max = 2) int walk,
                                     @ForAll @IntRange(min = 1, max = 3) int blockI32,
                                     @ForAll @IntRange(min = 1, max = 2) int blockJ32) {
        int b = shorts ? 2 : 4;
        if (walk < 2 || TransposeKernels.TILE == 0 || !TransposeKernels.applies(b, nI, nJ)) {
            check(b, nI, nJ, nI + padI, nJ + padJ, so, dO, walk == 1);
            return;
        }
        check(b, nI, nJ, nI + padI, nJ + padJ, so, dO, "staged " + blockI32 * 32 + "x" + blockJ32 * 32, (src, fast) -> TransposeKernels.direct(
                src, so, fast, dO, b, nI, nJ + padJ, nJ, nI + padI, 32L * blockI32, 32L * blockJ32, false, true));
    }

    @Test
    void stagedOnlyWhereDestinationRowsAreFar() {
        long far = TransposeKernels.FAR_ROW_BYTES;
        assertTrue(TransposeKernels.staged(far, false, 512, 64, 4));
        assertFalse(TransposeKernels.staged(far - 4, false, 512, 64, 4));
        assertFalse(TransposeKernels.staged(far, true, 512, 64, 4));          // destination strips are not staged
        assertFalse(TransposeKernels.staged(far, false, 512, 128, 4));        // 256 KiB: larger than the buffer
        assertTrue(TransposeKernels.staged(far, false, 512, 128, 2));
        assertEquals(TransposeKernels.STAGE_BYTES, (long) TransposeKernels.STAGED_BLOCK_I * TransposeKernels.STAGED_BLOCK_J * 4);
    }

    @Test
    void farDestinationRowsThroughTheStagingBuffer() {
        // destination rows 256 KiB apart (and a little more): the dispatcher stages them; remainders on both sides,
        // source rows crossing a staged block (64 source rows)
        long farF32 = TransposeKernels.FAR_ROW_BYTES / 4;
        check(4, 21, 101, 24, (int) farF32, 3, 1, false);
        check(2, 37, 70, 40, (int) (2 * farF32) + 8, 0, 5, false);
    }

    @Test
    void blockEdgesAndRemainders() {
        // extents that cross the blocks (rows near each other) with remainders of the tile on both sides
        int near = TransposeKernels.NEAR_BLOCK;
        check(4, near + 21, 70, near + 24, 75, 3, 1);
        check(2, 45, near + 37, 50, near + 40, 0, 7);
        check(4, 48, near + 16, 48, near + 16, 0, 0);
        // source rows 256 KiB apart: the far-rows blocks, crossed in both directions
        int far = TransposeKernels.FAR_BLOCK;
        long farRow = TransposeKernels.FAR_ROW_BYTES / 4;
        check(4, far + 21, far + 37, (int) farRow, far + 40, 5, 2);
        assertEquals(far, TransposeKernels.block(0, farRow * 4, 64));
        assertEquals(near, TransposeKernels.block(0, farRow * 4 - 4, 64));
        assertEquals(near, TransposeKernels.block(0, 64, farRow * 4 - 4));
        assertEquals(far, TransposeKernels.block(0, 64, farRow * 4));
        assertEquals(96, TransposeKernels.block(96, farRow * 4, 64));   // the system property wins
    }

    @Test
    void relayoutTransposesMatchReference() {
        for (String c : new String[] {"f32[67,1041]{1,0}|{0,1}", "bf16[1100,35]{1,0}|{0,1}",
            "f32[3,50,33]{2,1,0}|{0,1,2}", "f32[5,40,48]{2,1,0}|{1,2,0}", "bf16[4,33,64]{2,1,0}|{1,2,0}",
            "f32[9,17,18,19]{3,2,1,0}|{0,1,2,3}", "f32[16,17,18,33]{3,2,1,0}|{1,3,2,0}",
            "bf16[16,17,18,33]{3,2,1,0}|{0,1,2,3}",
            // 4-D reversals whose transposes go in destination strips (Kernels.dstStrips), remainders on both sides
            "f32[20,3,5,33]{3,2,1,0}|{0,1,2,3}", "bf16[36,2,5,40]{3,2,1,0}|{0,1,2,3}"}) {
            String[] p = c.split("\\|");
            ArrayShape from = ArrayShape.parse(p[0]);
            ArrayShape to = ArrayShape.parse(from.toStringWithoutLayout() + p[1]);
            RelayoutProperties.check(from, to);
        }
    }

    @Test
    void destinationStripsWhereOnlyTheDestinationRowsContinue() {
        // the nests of RelayoutBench's transposes, in destination order (outermost first)
        // f32[64,64,64,64] (3,2,1,0): loops d, c, b, a; the kernel pairs d (source-contiguous) with a
        assertTrue(Kernels.dstStrips(nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1}), 0));
        // f32[256,512,512] (2,1,0): loop j continues the rows of both sides: source strips
        assertFalse(Kernels.dstStrips(nest(new long[] {512, 512, 256}, new long[] {1, 512, 262144},
                new long[] {131072, 256, 1}), 0));
        // (0,2,1): the batch loop continues neither side's rows
        assertFalse(Kernels.dstStrips(nest(new long[] {256, 512, 512}, new long[] {262144, 1, 512},
                new long[] {262144, 512, 1}), 1));
        // 64^4 (0,2,3,1): loop c continues the source rows
        assertFalse(Kernels.dstStrips(nest(new long[] {64, 64, 64, 64}, new long[] {262144, 64, 1, 4096},
                new long[] {262144, 4096, 64, 1}), 2));
        // a plain 2-D transpose has no outer loop
        assertFalse(Kernels.dstStrips(nest(new long[] {8192, 8192}, new long[] {1, 8192}, new long[] {8192, 1}), 0));
    }

    private static LoopNest nest(long[] n, long[] s, long[] t) {
        return new LoopNest(n, s, t, 0, 0);
    }

    @Test
    void roundIndexesSwapOneBitOfRowAndLane() {
        // after the four rounds, lane c of row r holds what was lane r of row c
        int[][] rows = new int[16][16];
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                rows[r][c] = r * 16 + c;
            }
        }
        for (int d = 1; d < 16; d <<= 1) {
            int[] ia = TransposeKernels.roundIndex(d, true);
            int[] ib = TransposeKernels.roundIndex(d, false);
            int[][] next = new int[16][];
            for (int a = 0; a < 16; a++) {
                if ((a & d) != 0) {
                    continue;
                }
                int[] x = rows[a];
                int[] y = rows[a + d];
                next[a] = new int[16];
                next[a + d] = new int[16];
                for (int c = 0; c < 16; c++) {
                    next[a][c] = ia[c] < 16 ? x[ia[c]] : y[ia[c] - 16];
                    next[a + d][c] = ib[c] < 16 ? x[ib[c]] : y[ib[c] - 16];
                }
            }
            rows = next;
        }
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                assertEquals(c * 16 + r, rows[r][c], "row " + r + " lane " + c);
            }
        }
    }

    /** dst[dO + i·tI + j] = src[so + i + j·sJ]: the kernel against the element loop, over garbage-filled buffers. */
    private static void check(int b, int nI, int nJ, int sJ, int tI, int so, int dO) {
        check(b, nI, nJ, sJ, tI, so, dO, false);
        check(b, nI, nJ, sJ, tI, so, dO, true);
    }

    private static void check(int b, int nI, int nJ, int sJ, int tI, int so, int dO, boolean dstStrips) {
        check(b, nI, nJ, sJ, tI, so, dO, "dstStrips=" + dstStrips, (src, fast) -> Kernels.transpose(src, so, fast, dO, b, nI, tI, nJ, sJ, dstStrips));
    }

    /** A transpose into {@code fast}: the kernel under test. */
    private interface Run {
        void run(MemorySegment src, MemorySegment fast);
    }

    private static void check(int b, int nI, int nJ, int sJ, int tI, int so, int dO, String what, Run kernel) {
        try (Arena arena = Arena.ofConfined()) {
            long srcElems = so + (long) nJ * sJ + nI;
            long dstElems = dO + (long) nI * tI + nJ;
            MemorySegment src = arena.allocate(srcElems * b);
            Random r = new Random(31L * nI + 7L * nJ + sJ + tI * 131L + so + dO * 17L + b);
            for (long k = 0; k < src.byteSize(); k++) {
                src.set(ValueLayout.JAVA_BYTE, k, (byte) r.nextInt());
            }
            MemorySegment fast = arena.allocate(dstElems * b);
            MemorySegment ref = arena.allocate(dstElems * b);
            fast.fill((byte) 0x5A);
            ref.fill((byte) 0x5A);
            for (long i = 0; i < nI; i++) {
                for (long j = 0; j < nJ; j++) {
                    MemorySegment.copy(src, (so + i + j * sJ) * b, ref, (dO + i * tI + j) * b, b);
                }
            }
            kernel.run(src, fast);
            assertEquals(-1, ref.mismatch(fast),
                    () -> what + " b=" + b + " nI=" + nI + " nJ=" + nJ + " sJ=" + sJ + " tI=" + tI + " so=" + so + " dO=" + dO);
        }
    }
}
