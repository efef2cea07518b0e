package dev.tegula.vector.kernels;

import static dev.tegula.vector.kernels.KernelChecks.check;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.vector.RelayoutProperties;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The 256-bit register tiles that take 16-bit elements in int lanes, called directly so that they
 * run at every vector width the build runs (vector/pom.xml: the widest, {@code -XX:UseAVX=2},
 * {@code -XX:MaxVectorSize=16}, scalar; where the JVM has no 256-bit vectors the Vector API runs
 * them in Java): the 16x16 tile of 2-byte elements as 8x8 tiles of pairs
 * ({@link TransposeKernels#tile16Pairs}), the bf16 to f32 tile that widens as its first round
 * ({@link WideningKernels#widenTile}) and the widening transpose built on it
 * ({@link WideningKernels#widenInTiles}), each against an element loop; and bf16 relayouts, whose
 * plans reach the tiles of pairs on 256-bit machines, against the reference relayout (the widening
 * relayouts' properties are in {@link WideningKernelsTest}).
 */
class Tiles256Test {
    private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    @Property(tries = 60)
    void tileOfPairsTransposesSixteenBySixteenShorts(@ForAll @IntRange(min = 0, max = 12) int padS,
                                                     @ForAll @IntRange(min = 0, max = 12) int padD,
                                                     @ForAll @IntRange(min = 0, max = 7) int so,
                                                     @ForAll @IntRange(min = 0, max = 7) int dO) {
        Assume.that(LITTLE);
        int sJ = 16 + padS;
        int tI = 16 + padD;
        check(2, 16, 16, sJ, tI, so, dO, "tile16Pairs", (src, fast) -> TransposeKernels.tile16Pairs(src, so * 2L,
                sJ * 2L, fast, dO * 2L, tI * 2L));
    }

    @Property(tries = 60)
    void widenTileTransposesEightRowsOfSixteenBf16IntoF32(@ForAll @IntRange(min = 0, max = 12) int padS,
                                                          @ForAll @IntRange(min = 0, max = 12) int padD,
                                                          @ForAll @IntRange(min = 0, max = 7) int so,
                                                          @ForAll @IntRange(min = 0, max = 7) int dO) {
        Assume.that(LITTLE);
        widenCheck(16, 8, 16 + padS, 8 + padD, so, dO, (src, dst) -> WideningKernels.widenTile(src, so * 2L,
                (16L + padS) * 2, dst, dO * 4L, (8L + padD) * 4));
    }

    @Property(tries = 200)
    void widenInTilesMatchesAnElementLoopAtAnySize(@ForAll @IntRange(min = 1, max = 90) int nI,
                                                   @ForAll @IntRange(min = 1, max = 90) int nJ,
                                                   @ForAll @IntRange(min = 0, max = 5) int padI,
                                                   @ForAll @IntRange(min = 0, max = 5) int padJ,
                                                   @ForAll @IntRange(min = 0, max = 9) int so,
                                                   @ForAll @IntRange(min = 0, max = 9) int dO) {
        Assume.that(LITTLE);
        Conversion bf16 = Conversion.of(ElementType.BF16, 16, ElementType.F32, 32);
        widenCheck(nI, nJ, nI + padI, nJ + padJ, so, dO, (src, dst) -> WideningKernels.widenInTiles(bf16, src, so, dst,
                dO, nI, nJ + padJ, nJ, nI + padI));
    }

    @Test
    void relayoutsThatReachTheTilesMatchTheReference() {
        // bf16 transposes (in tiles of 16 with 256-bit vectors), rank 2 to 4, remainders on both sides
        for (String c : new String[] {"bf16[100,70]{1,0}|{0,1}", "bf16[33,48,40]{2,1,0}|{1,2,0}",
            "bf16[3,40,37]{2,1,0}|{1,2,0}", "bf16[5,6,35,17]{3,2,1,0}|{2,3,1,0}", "bf16[48,20,3,35]{3,2,1,0}|{0,1,2,3}"}) {
            String[] p = c.split("\\|");
            ArrayShape from = ArrayShape.parse(p[0]);
            RelayoutProperties.check(from, ArrayShape.parse(from.toStringWithoutLayout() + p[1]));
        }
    }

    interface Widen {
        void run(MemorySegment src, MemorySegment dst);
    }

    /** {@code dst[dO + i·tI + j] = bf16(src[so + i + j·sJ]) as f32} against the kernel, the bytes around the destination untouched. */
    private static void widenCheck(int nI, int nJ, int sJ, int tI, int so, int dO, Widen kernel) {
        try (Arena arena = Arena.ofConfined()) {
            long srcElems = so + (long) nJ * sJ + nI;
            long dstElems = dO + (long) nI * tI + nJ;
            MemorySegment src = arena.allocate(srcElems * 2);
            Random r = new Random(nI * 131L + nJ * 7L + sJ + tI * 31L + so + dO * 17L);
            for (long k = 0; k < srcElems; k++) {
                src.setAtIndex(ValueLayout.JAVA_SHORT, k, (short) r.nextInt());
            }
            MemorySegment fast = arena.allocate(dstElems * 4);
            MemorySegment ref = arena.allocate(dstElems * 4);
            fast.fill((byte) 0x5A);
            ref.fill((byte) 0x5A);
            for (long i = 0; i < nI; i++) {
                for (long j = 0; j < nJ; j++) {
                    int code = src.getAtIndex(ValueLayout.JAVA_SHORT, so + i + j * sJ) & 0xFFFF;
                    ref.setAtIndex(ValueLayout.JAVA_INT, dO + i * tI + j, code << 16);
                }
            }
            kernel.run(src, fast);
            assertEquals(-1, ref.mismatch(fast), () -> "nI=" + nI + " nJ=" + nJ + " sJ=" + sJ + " tI=" + tI + " so=" + so
                    + " dO=" + dO);
        }
    }
}
