package dev.tegula.vector.kernels;

import static dev.tegula.vector.kernels.KernelChecks.check;
import static dev.tegula.vector.kernels.KernelChecks.tile;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.plan.Walk;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The transposes with one narrow side ({@link NarrowKernels}) against an element loop, each run by
 * the kernel a walk names, and their permute tables. vector/pom.xml runs this class at every vector
 * width.
 */
class NarrowKernelsTest {

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
        int t = tile(tileChoice);
        Walk.Form form = t == 0 ? Walk.Plain.PLAIN : new Walk.Blocked(t, 64, 64, Strips.SOURCE, Bands.SOURCE);
        int nI = interleave ? length : n;
        int nJ = interleave ? n : length;
        int sJ = interleave ? length + pad : n;
        int tI = interleave ? n : length + pad;
        check(b, nI, nJ, sJ, tI, so, dO, form.toString(),
                (src, fast) -> KernelChecks.transpose(src, so, fast, dO, b, nI, tI, nJ, sJ, form));
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
}
