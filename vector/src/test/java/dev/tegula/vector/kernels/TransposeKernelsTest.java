package dev.tegula.vector.kernels;

import static dev.tegula.vector.kernels.KernelChecks.check;
import static dev.tegula.vector.kernels.KernelChecks.tile;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.Walk;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The blocked transpose ({@link TransposeKernels}) against an element loop, in every walk a plan can
 * ask for (tile edge, block sizes, source or destination strips, staged blocks, band order): extents
 * around the tile edge (8, 16, 32) and the block edge, padded strides and offsets on both sides, the
 * garbage around the destination untouched; each run by the kernel the walk names. vector/pom.xml
 * runs this class at the machine's widest vectors, at {@code -XX:UseAVX=2} and with the scalar
 * kernels, so the 16×16, 8×8 and element paths are all covered.
 */
class TransposeKernelsTest {

    @Property(tries = 600)
    void transposeMatchesElementLoopInEveryWalk(@ForAll @IntRange(min = 1, max = 100) int nI,
                                                @ForAll @IntRange(min = 1, max = 100) int nJ,
                                                @ForAll @IntRange(min = 0, max = 5) int padI,
                                                @ForAll @IntRange(min = 0, max = 5) int padJ,
                                                @ForAll @IntRange(min = 0, max = 9) int so,
                                                @ForAll @IntRange(min = 0, max = 9) int dO,
                                                @ForAll boolean shorts,
                                                @ForAll @IntRange(min = 0, max = 1) int tileChoice,
                                                @ForAll @IntRange(min = 1, max = 3) int blockI32,
                                                @ForAll @IntRange(min = 1, max = 3) int blockJ32,
                                                @ForAll Strips strips,
                                                @ForAll Bands bands) {
        int b = shorts ? 2 : 4;
        int t = tile(tileChoice);
        Walk.Form form = t == 0 ? Walk.Plain.PLAIN : new Walk.Blocked(t, 32L * blockI32, 32L * blockJ32, strips, bands);
        check(b, nI, nJ, nI + padI, nJ + padJ, so, dO, form.toString(),
                (src, fast) -> KernelChecks.transpose(src, so, fast, dO, b, nI, nJ + padJ, nJ, nI + padI, form));
    }

    @Test
    void farDestinationRowsThroughTheStagingBuffer() {
        // destination rows 256 KiB apart (and a little more), staged; remainders on both sides,
        // source rows crossing a staged block (64 source rows)
        long farF32 = Estimate.FAR_ROW_BYTES / 4;
        Walk.Form staged = Tuning.TILE == 0 ? Walk.Plain.PLAIN
                : new Walk.Blocked(Tuning.TILE, 512, 64, Strips.STAGED, Bands.SOURCE);
        check(4, 21, 101, 24, (int) farF32, 3, 1, "staged", (src, fast) -> assertEquals(Kernel.tiles(Tuning.TILE) == null
                ? Kernel.TRANSPOSE_ELEMENTS : Kernel.tiles(Tuning.TILE),
                KernelChecks.transpose(src, 3, fast, 1, 4, 21, farF32, 101, 24, staged)));
        check(2, 37, 70, 40, (int) (2 * farF32) + 8, 0, 5, "staged", (src, fast) -> KernelChecks.transpose(src, 0, fast,
                5, 2, 37, 2 * farF32 + 8, 70, 40, staged));
    }

    @Test
    void relayoutTransposesMatchReference() {
        for (String c : new String[] {"f32[67,1041]{1,0}|{0,1}", "bf16[1100,35]{1,0}|{0,1}",
            "f32[3,50,33]{2,1,0}|{0,1,2}", "f32[5,40,48]{2,1,0}|{1,2,0}", "bf16[4,33,64]{2,1,0}|{1,2,0}",
            "f32[9,17,18,19]{3,2,1,0}|{0,1,2,3}", "f32[16,17,18,33]{3,2,1,0}|{1,3,2,0}",
            "bf16[16,17,18,33]{3,2,1,0}|{0,1,2,3}",
            // 4-D reversals whose transposes go in destination strips (destination strips), remainders on both sides
            "f32[20,3,5,33]{3,2,1,0}|{0,1,2,3}", "bf16[36,2,5,40]{3,2,1,0}|{0,1,2,3}"}) {
            String[] p = c.split("\\|");
            ArrayShape from = ArrayShape.parse(p[0]);
            ArrayShape to = ArrayShape.parse(from.toStringWithoutLayout() + p[1]);
            RelayoutProperties.check(from, to);
        }
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
}
