package dev.tegula.vector.kernels;

import static dev.tegula.vector.kernels.KernelChecks.check;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.plan.Walk;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The transpose element by element ({@link CopyKernels#transpose}) against an element loop, for the
 * element sizes no vector kernel takes (1, 8 and 16 bytes), across its 32×32 blocks.
 */
class CopyKernelsTest {

    @Property(tries = 200)
    void transposeElementByElementLikeAnElementLoop(@ForAll @IntRange(min = 1, max = 80) int nI,
                                                    @ForAll @IntRange(min = 1, max = 80) int nJ,
                                                    @ForAll @IntRange(min = 0, max = 3) int padI,
                                                    @ForAll @IntRange(min = 0, max = 3) int padJ,
                                                    @ForAll @IntRange(min = 0, max = 9) int so,
                                                    @ForAll @IntRange(min = 0, max = 9) int dO,
                                                    @ForAll @IntRange(min = 0, max = 2) int size) {
        int b = new int[] {1, 8, 16}[size];
        check(b, nI, nJ, nI + padI, nJ + padJ, so, dO, "elements", (src, fast) -> assertEquals(Kernel.TRANSPOSE_ELEMENTS,
                KernelChecks.transpose(src, so, fast, dO, b, nI, nJ + padJ, nJ, nI + padI, Walk.Plain.PLAIN)));
    }
}
