package dev.tegula.vector.kernels;

import static dev.tegula.vector.kernels.KernelChecks.check;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.plan.Walk;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The transposes of 2-byte elements with a side of extent 2 ({@link ZipKernels}: the bf16
 * {@code (2,1)} sub-tile) against an element loop: two rows interleaved into one run and back, of
 * every length around the vector's 16 elements, the long rows padded; each run by the kernel a walk
 * names ({@link Kernel#ZIP_2}, {@link Kernel#UNZIP_2} with vectors, element by element without).
 */
class ZipKernelsTest {

    @Property(tries = 300)
    void twoRowsZipAndUnzipLikeAnElementLoop(@ForAll @IntRange(min = 1, max = 100) int length,
                                             @ForAll @IntRange(min = 0, max = 5) int pad,
                                             @ForAll @IntRange(min = 0, max = 9) int so,
                                             @ForAll @IntRange(min = 0, max = 9) int dO,
                                             @ForAll boolean zip) {
        int nI = zip ? length : 2;
        int nJ = zip ? 2 : length;
        int sJ = zip ? length + pad : 2;
        int tI = zip ? 2 : length + pad;
        // a 2x2 transpose is both a zip and an unzip: the kernel table's first, ZIP_2, takes it
        boolean zipTakes = nJ == 2 && tI == 2;
        Kernel expected = !Tuning.VECTOR ? Kernel.TRANSPOSE_ELEMENTS : zipTakes ? Kernel.ZIP_2 : Kernel.UNZIP_2;
        check(2, nI, nJ, sJ, tI, so, dO, zip ? "zip" : "unzip", (src, fast) -> assertEquals(expected,
                KernelChecks.transpose(src, so, fast, dO, 2, nI, tI, nJ, sJ, Walk.Plain.PLAIN)));
    }
}
