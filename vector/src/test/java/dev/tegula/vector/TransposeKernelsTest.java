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
 * it) against an element loop, in every walk a plan can ask for (tile edge, block sizes, source or
 * destination strips, staged blocks, band order): extents around the tile edge (8, 16, 32) and the
 * block edge, padded strides and offsets on both sides, the garbage around the destination
 * untouched; and the estimate's rules. vector/pom.xml runs this class at the machine's widest
 * vectors, at {@code -XX:UseAVX=2} and with the scalar kernels, so the 16×16, 8×8 and element paths
 * are all covered.
 */
class TransposeKernelsTest {
    private static final LoopNest ANY = new LoopNest(new long[] {1}, new long[] {1}, new long[] {1}, 0, 0);

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
                                                @ForAll Walk.Strips strips,
                                                @ForAll Walk.Bands bands) {
        int b = shorts ? 2 : 4;
        int t = tile(tileChoice);
        long bi = 32L * blockI32;
        long bj = 32L * blockJ32;
        Walk walk = new Walk(ANY, new int[] {0}, 0, t, bi, bj, strips, bands, 0);
        check(b, nI, nJ, nI + padI, nJ + padJ, so, dO, walk.toString(),
                (src, fast) -> Kernels.transpose(src, so, fast, dO, b, nI, nJ + padJ, nJ, nI + padI, walk));
    }

    /**
     * Rows shorter than a tile and side by side on one side, long on the other: source rows
     * interleaved into one destination run (channels-first to channels-last), or one source run
     * split into destination rows (the reverse), with remainders of every length, the rows of the
     * long side padded.
     */
    @Property(tries = 600)
    void narrowRowsSideBySideLikeAnElementLoop(@ForAll @IntRange(min = 1, max = 200) int length,
                                               @ForAll @IntRange(min = 2, max = 33) int n,
                                               @ForAll @IntRange(min = 0, max = 5) int pad,
                                               @ForAll @IntRange(min = 0, max = 9) int so,
                                               @ForAll @IntRange(min = 0, max = 9) int dO,
                                               @ForAll boolean shorts,
                                               @ForAll boolean interleave,
                                               @ForAll @IntRange(min = 0, max = 1) int tileChoice) {
        int b = shorts ? 2 : 4;
        Walk walk = anyTile(tileChoice);
        int nI = interleave ? length : n;
        int nJ = interleave ? n : length;
        int sJ = interleave ? length + pad : n;
        int tI = interleave ? n : length + pad;
        check(b, nI, nJ, sJ, tI, so, dO, walk.toString(),
                (src, fast) -> Kernels.transpose(src, so, fast, dO, b, nI, tI, nJ, sJ, walk));
    }

    @Test
    void interleaveTablesTakeEachRowsLanesOnce() {
        for (int lanes : new int[] {8, 16, 32}) {
            for (int n = 2; n < lanes; n++) {
                NarrowKernels.Table t = NarrowKernels.make(lanes, n);
                NarrowKernels.Table s = t.forShorts();
                for (int k = 0; k < t.interleaveIndex().length; k++) {
                    assertEquals(t.interleaveIndex()[k], s.interleaveShortIndex()[k]);
                    assertEquals(t.deinterleaveIndex()[k], s.deinterleaveShortIndex()[k]);
                }
                for (int o = 0; o < n; o++) {
                    long interleaved = 0;
                    long deinterleaved = 0;
                    for (int x = 0; x < n; x++) {
                        long m = t.interleaveMask()[o * n + x];
                        long d = t.deinterleaveMask()[o * n + x];
                        assertEquals(0, interleaved & m, "lanes filled twice");
                        assertEquals(0, deinterleaved & d, "lanes filled twice");
                        interleaved |= m;
                        deinterleaved |= d;
                        for (int l = 0; l < lanes; l++) {
                            int e = o * lanes + l;   // run element e is source row e % n, element e / n
                            if ((m >>> l & 1) != 0) {
                                assertEquals(e % n, x);
                                assertEquals(e / n, t.interleaveIndex()[(o * n + x) * lanes + l]);
                            }
                            int f = l * n + o;       // lane l of row o is run element l * n + o
                            if ((d >>> l & 1) != 0) {
                                assertEquals(f / lanes, x);
                                assertEquals(f % lanes, t.deinterleaveIndex()[(o * n + x) * lanes + l]);
                            }
                        }
                    }
                    long all = (1L << lanes) - 1;   // lanes are 8 to 32
                    assertEquals(all, interleaved, "lanes " + lanes + " n " + n + " output " + o);
                    assertEquals(all, deinterleaved, "lanes " + lanes + " n " + n + " output " + o);
                }
            }
        }
    }

    @Test
    void threadsShareTheLongLoopOfANarrowTranspose() {
        // f32[8,4096] transposed: 4096 source columns (contiguous in the source) into runs of 8;
        // cutting the 8 between threads would leave each thread a part of every run
        Walk interleave = Candidates.estimate(nest(new long[] {4096, 8}, new long[] {1, 4096}, new long[] {8, 1}), 4);
        assertEquals(4096, interleave.nest().extents()[interleave.split()], interleave.toString());
        // f32[4096,8] transposed: runs of 8 split into 8 rows of 4096 (contiguous in the destination)
        Walk deinterleave = Candidates.estimate(nest(new long[] {8, 4096}, new long[] {1, 8}, new long[] {4096, 1}), 4);
        assertEquals(4096, deinterleave.nest().extents()[deinterleave.split()], deinterleave.toString());
        // rows of 64 bytes and more take tiles, and the threads share the destination rows as before
        Walk square = Candidates.estimate(nest(new long[] {4096, 16}, new long[] {1, 4096}, new long[] {16, 1}), 4);
        assertEquals(square.nest().depth() - 1, square.split(), square.toString());
    }

    /** {@return a tile edge this machine's kernels offer (0 where they offer none), picked by {@code choice}} */
    private static int tile(int choice) {
        int[] tiles = Candidates.tiles();
        return tiles.length == 0 ? 0 : tiles[choice % tiles.length];
    }

    private static Walk anyTile(int tileChoice) {
        return new Walk(ANY, new int[] {0}, 0, tile(tileChoice), 64, 64, Walk.Strips.SOURCE, Walk.Bands.SOURCE, 0);
    }

    @Test
    void farDestinationRowsThroughTheStagingBuffer() {
        // destination rows 256 KiB apart (and a little more), staged; remainders on both sides,
        // source rows crossing a staged block (64 source rows)
        long farF32 = Candidates.FAR_ROW_BYTES / 4;
        Walk staged = new Walk(ANY, new int[] {0}, 0, TransposeKernels.TILE, 512, 64, Walk.Strips.STAGED,
                Walk.Bands.SOURCE, 0);
        check(4, 21, 101, 24, (int) farF32, 3, 1, "staged", (src, fast) -> Kernels.transpose(src, 3, fast, 1, 4, 21,
                farF32, 101, 24, staged));
        check(2, 37, 70, 40, (int) (2 * farF32) + 8, 0, 5, "staged", (src, fast) -> Kernels.transpose(src, 0, fast, 5, 2,
                37, 2 * farF32 + 8, 70, 40, staged));
    }

    @Test
    void estimateStagesFarDestinationRowsAndShrinksBlocksForFarSourceRows() {
        if (TransposeKernels.TILE == 0) {
            return;   // the scalar kernels have no blocks
        }
        // f32[256,512,512] (2,1,0), in destination order: destination rows 1 MiB apart: staged 512 x 64
        Walk far = Candidates.estimate(nest(new long[] {512, 512, 256}, new long[] {1, 512, 262144},
                new long[] {131072, 256, 1}), 4);
        assertEquals(Walk.Strips.STAGED, far.strips(), far.toString());
        assertEquals(Candidates.STAGED_BLOCK_I, far.blockI());
        assertEquals(Candidates.STAGED_BLOCK_J, far.blockJ());
        // f32[8192,8192] (1,0): rows 32 KiB apart: source strips in 512 x 512 blocks
        Walk near = Candidates.estimate(nest(new long[] {8192, 8192}, new long[] {1, 8192}, new long[] {8192, 1}), 4);
        assertEquals(Walk.Strips.SOURCE, near.strips(), near.toString());
        assertEquals(Candidates.NEAR_BLOCK, near.blockI());
        // source rows 256 KiB apart, destination rows near: 128 x 128, not staged
        Walk farSource = Candidates.estimate(nest(new long[] {64, 65536}, new long[] {1, 65536}, new long[] {64, 1}), 4);
        assertEquals(Walk.Strips.SOURCE, farSource.strips(), farSource.toString());
        assertEquals(Candidates.FAR_BLOCK, farSource.blockI());
        // 16x16 tiles where 512-bit vectors allow them
        assertEquals(TransposeKernels.TILE, near.tile());
    }

    @Test
    void everyCandidateOfANestFitsIt() {
        LoopNest base = nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1});
        for (Walk w : Candidates.all(base, 4, 2, 10_000)) {
            assertEquals(w.toString(), Walk.parse(w.toString(), base, 4).toString());
            assertEquals(base.elements(), w.nest().elements());
            assertEquals(3, w.order()[3], "the innermost loop stays innermost: " + w);
        }
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
        assertTrue(Candidates.continuesDestinationRows(nest(new long[] {64, 64, 64, 64}, new long[] {1, 64, 4096, 262144},
                new long[] {262144, 4096, 64, 1}), 0));
        // f32[256,512,512] (2,1,0): loop j continues the rows of both sides: source strips
        assertFalse(Candidates.continuesDestinationRows(nest(new long[] {512, 512, 256}, new long[] {1, 512, 262144},
                new long[] {131072, 256, 1}), 0));
        // (0,2,1): the batch loop continues neither side's rows
        assertFalse(Candidates.continuesDestinationRows(nest(new long[] {256, 512, 512}, new long[] {262144, 1, 512},
                new long[] {262144, 512, 1}), 1));
        // 64^4 (0,2,3,1): loop c continues the source rows
        assertFalse(Candidates.continuesDestinationRows(nest(new long[] {64, 64, 64, 64}, new long[] {262144, 64, 1, 4096},
                new long[] {262144, 4096, 64, 1}), 2));
        // a plain 2-D transpose has no outer loop
        assertFalse(Candidates.continuesDestinationRows(nest(new long[] {8192, 8192}, new long[] {1, 8192},
                new long[] {8192, 1}), 0));
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
