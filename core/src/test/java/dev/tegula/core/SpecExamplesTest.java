package dev.tegula.core;

import dev.tegula.core.internal.General;
import dev.tegula.core.internal.Tiled2;
import dev.tegula.core.internal.TiledN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of the spec (section 11, A to H) and the 2017 docs example (section 10).
 * Every expected value is typed from the spec text, not taken from running the code.
 */
class SpecExamplesTest {

    private static ArrayShape array(String text) {
        return ArrayShape.parse(text);
    }

    /** Fills a memory image: slot -> letter of the element stored there, '0' for padding. */
    private static String memory(ArrayShape s, String letters) {
        char[] mem = new char[(int) s.slotCount()];
        java.util.Arrays.fill(mem, '0');
        long cols = s.dimension(1);
        for (long r = 0; r < s.dimension(0); r++) {
            for (long c = 0; c < cols; c++) {
                mem[(int) s.linearIndex(r, c)] = letters.charAt((int) (r * cols + c));
            }
        }
        return new String(mem);
    }

    // ---- the [2 x 3] array "a b c / d e f" --------------------------------------------------------

    @Test
    void twoByThreeColumnMajorIsADBECF() {
        ArrayShape s = array("f32[2,3]{0,1}");
        assertEquals("adbecf", memory(s, "abcdef"));
        assertEquals(6, s.slotCount());
    }

    @Test
    void twoByThreeRowMajorIsABCDEF() {
        ArrayShape s = array("f32[2,3]{1,0}");
        assertEquals("abcdef", memory(s, "abcdef"));
        assertEquals(s, array("f32[2,3]"), "{1,0} is the default layout");
    }

    @Test
    void twoByThreePaddedToThreeByFiveColumnMajor() {
        // spec section 10: padded to [3,5], minor_to_major [0,1] -> a d 0 b e 0 c f 0 0 0 0 0 0 0
        ArrayShape s = array("f32[2,3]{0,1:PAD(3,5:zero)}");
        assertEquals(15, s.slotCount());
        assertEquals("ad0be0cf0000000", memory(s, "abcdef"));
        // the other way round: walk every slot and ask which element it holds
        String letters = "abcdef";
        StringBuilder viaSlots = new StringBuilder();
        for (long slot = 0; slot < 15; slot++) {
            if (s.isElementSlot(slot)) {
                long[] i = s.multiIndex(slot);
                viaSlots.append(letters.charAt((int) (i[0] * 3 + i[1])));
            } else {
                viaSlots.append('0');
            }
        }
        assertEquals("ad0be0cf0000000", viaSlots.toString());
        assertFalse(s.isElementSlot(15));
        assertEquals(6, s.elementCount());
        assertEquals(24, s.byteSize(), "ByteSizeOf ignores padding");
        assertEquals(60, s.bufferSize(), "TF-era allocation: product of padded dims x byte width");
        assertEquals(60, s.xlaArraySize());
        assertEquals(PaddingValue.ZERO, s.layout().paddingValue());
        assertArrayEquals(new long[] {3, 5}, s.layout().paddedDimensions());
    }

    @Test
    void legacyPaddingBuiltThroughTheApiEqualsTheParsedOne() {
        ArrayShape built = ArrayShape.of(ElementType.F32, 2, 3)
                .withLayout(Layout.columnMajor(2).withPaddedDimensions(PaddingValue.ZERO, 3, 5));
        assertEquals(array("f32[2,3]{0,1:PAD(3,5)}"), built);
        assertEquals("f32[2,3]{0,1:PAD(3,5:zero)}", built.toString());
    }

    // ---- A ------------------------------------------------------------------------------------------

    @Test
    void exampleA_f32_3x5_tiled_2x2() {
        ArrayShape s = array("f32[3,5]{1,0:T(2,2)}");
        assertEquals(17, s.linearIndex(2, 3));
        long[][] map = {{0, 1, 4, 5, 8}, {2, 3, 6, 7, 10}, {12, 13, 16, 17, 20}};
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 5; c++) {
                assertEquals(map[r][c], s.linearIndex(r, c), "(" + r + "," + c + ")");
                assertArrayEquals(new long[] {r, c}, s.multiIndex(map[r][c]));
            }
        }
        assertEquals(24, s.slotCount(), "P = (2,3,2,2)");
        java.util.Set<Long> padding = java.util.Set.of(9L, 11L, 14L, 15L, 18L, 19L, 21L, 22L, 23L);
        for (long slot = 0; slot < 24; slot++) {
            assertEquals(!padding.contains(slot), s.isElementSlot(slot), "slot " + slot);
        }
        assertEquals(15, s.elementCount());
        assertEquals(60, s.byteSize());
        assertEquals(96, s.xlaArraySize(), "4 * roundUp(3,2) * roundUp(5,2)");
        assertEquals(96, s.bufferSize());
        // ArrayDataSize: up to and including the last element, LinearIndex(2,4) = 20 -> 21 elements = 84 B
        assertEquals(20, s.linearIndex(2, 4));
    }

    // ---- B ------------------------------------------------------------------------------------------

    @Test
    void exampleB_bf16_4x8_tiled_2x4_then_2x1() {
        ArrayShape s = array("bf16[4,8]{1,0:T(2,4)(2,1)}");
        long[][] rows = {
                {0, 2, 4, 6, 8, 10, 12, 14},
                {1, 3, 5, 7, 9, 11, 13, 15},
                {16, 18, 20, 22, 24, 26, 28, 30},
                {17, 19, 21, 23, 25, 27, 29, 31}};
        Addressing a = Addressing.of(s);
        assertInstanceOf(Tiled2.class, a);
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 8; c++) {
                long formula = 16L * (r / 2) + 8L * (c / 4) + 2L * (c % 4) + (r % 2);
                assertEquals(formula, rows[r][c]);
                assertEquals(rows[r][c], s.linearIndex(r, c), "(" + r + "," + c + ")");
                assertEquals(rows[r][c], a.slot(r, c));
                assertEquals(2 * rows[r][c], a.byteOffset(r, c));
            }
        }
        assertEquals(32, s.slotCount(), "P = (2,2,1,4,2,1)");
        assertEquals(64, s.bufferSize());
        assertEquals(64, s.byteSize());
        assertEquals(64, s.xlaArraySize());
    }

    // ---- C ------------------------------------------------------------------------------------------

    @Test
    void exampleC_secondTileReachesCrossTileDims() {
        ArrayShape s = array("bf16[8,8]{1,0:T(2,4)(2,1,1,1)}");
        assertEquals(51, s.linearIndex(6, 5));
        assertArrayEquals(new long[] {6, 5}, s.multiIndex(51));
        assertEquals(64, s.slotCount(), "P = (2,2,2,4,2,1,1,1): no padding");
        for (long slot = 0; slot < 64; slot++) {
            assertTrue(s.isElementSlot(slot));
        }
        assertInstanceOf(General.class, Addressing.of(s));
        assertEquals(51, Addressing.of(s).slot(6, 5));
    }

    // ---- D ------------------------------------------------------------------------------------------

    private static long headline(long e0, long e2, long e3) {
        return 20971520L * e0 + 131072L * (e2 / 8) + 1024L * (e3 / 128) + 256L * ((e2 % 8) / 2)
                + 2L * (e3 % 128) + (e2 % 2);
    }

    @Test
    void exampleD_headlineShape() {
        ArrayShape s = array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
        assertEquals(63178841, s.linearIndex(3, 0, 17, 300));
        assertEquals(1, s.linearIndex(0, 0, 1, 0));
        assertEquals(2, s.linearIndex(0, 0, 0, 1));
        Addressing a = Addressing.of(s);
        assertInstanceOf(TiledN.class, a);
        assertEquals(63178841, a.slot(3, 0, 17, 300));
        assertEquals(2L * 63178841, a.byteOffset(3, 0, 17, 300));
        assertArrayEquals(new long[] {3, 0, 17, 300}, s.multiIndex(63178841));
        Random r = new Random(11);
        for (int n = 0; n < 2000; n++) {
            long e0 = r.nextInt(8);
            long e2 = r.nextInt(1280);
            long e3 = r.nextInt(16384);
            assertEquals(headline(e0, e2, e3), s.linearIndex(e0, 0, e2, e3));
            assertEquals(headline(e0, e2, e3), a.slot(e0, 0, e2, e3));
        }
        assertEquals(167772160L, s.elementCount());
        assertEquals(167772160L, s.slotCount(), "no padding");
        assertEquals(335544320L, s.byteSize());
        assertEquals(335544320L, s.xlaArraySize());
        assertEquals(335544320L, s.bufferSize());
        assertEquals(1, s.layout().memorySpace());
        assertArrayEquals(new int[] {3, 2, 0, 1}, s.layout().minorToMajor());
        assertEquals(1, s.layout().major(0), "physical order major->minor is dims 1,0,2,3");
        assertEquals(0, s.layout().major(1));
    }

    // ---- E ------------------------------------------------------------------------------------------

    @Test
    void exampleE_combinedDimensions() {
        ArrayShape s = array("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
        assertEquals(9484, s.linearIndex(1, 3, 5, 7, 9));
        assertArrayEquals(new long[] {1, 3, 5, 7, 9}, s.multiIndex(9484));
        assertEquals(12432, s.slotCount(), "112 * 111");
        assertEquals(49728, s.bufferSize());
        assertEquals(2 * 7 * 8 * 11 * 10, s.elementCount());
        assertEquals(4L * 2 * 7 * 8 * 11 * 10, s.byteSize());
        assertInstanceOf(General.class, Addressing.of(s));
        assertEquals(9484, Addressing.of(s).slot(1, 3, 5, 7, 9));
    }

    // ---- F ------------------------------------------------------------------------------------------

    @Test
    void exampleF_subBytePacking() {
        ArrayShape s = array("s4[123,456]{1,0:T(2,128)E(4)}");
        assertEquals(56088, s.elementCount());
        assertEquals(28044, s.byteSize());
        assertEquals(63488, s.slotCount(), "512 * 124");
        assertEquals(31744, s.xlaArraySize());
        assertEquals(31744, s.bufferSize());
        ArrayShape unpacked = array("s4[123,456]");
        assertEquals(56088, unpacked.byteSize(), "one byte per element without E(4)");
        assertEquals(56088, unpacked.bufferSize());
        assertEquals(56088, unpacked.xlaArraySize());
    }

    @Test
    void subBytePackingPutsElementZeroInTheLowBits() {
        // spec section 8: s4 values 0,1 -> byte 0x10, element 0 in the low nibble
        Addressing a = Addressing.of(array("s4[4]{0:E(4)}"));
        assertTrue(a.isPacked());
        assertEquals(0, a.byteOffset(0));
        assertEquals(0, a.bitShift(a.slot(0)));
        assertEquals(0, a.byteOffset(1));
        assertEquals(4, a.bitShift(a.slot(1)));
        assertEquals(1, a.byteOffset(2));
        assertEquals(0, a.bitShift(a.slot(2)));
        assertEquals(2, a.bufferSize());
        Addressing u1 = Addressing.of(array("u1[10]{0:E(1)}"));
        assertEquals(1, u1.byteOffset(9));
        assertEquals(1, u1.bitShift(9));
        assertEquals(2, u1.bufferSize());
    }

    // ---- G ------------------------------------------------------------------------------------------

    @Test
    void exampleG_tileLongerThanRankAndTiledScalar() {
        ArrayShape s = array("f32[8]{0:T(2,2)}");
        assertEquals(9, s.linearIndex(5), "P (1,8) -> (1,4,2,2)");
        assertEquals(16, s.slotCount());
        assertEquals(64, s.bufferSize());
        ArrayShape scalar = array("u32[]{:T(128)}");
        assertEquals(128, scalar.slotCount());
        assertEquals(512, scalar.xlaArraySize());
        assertEquals(512, scalar.bufferSize());
        assertEquals(4, scalar.byteSize());
        assertEquals(0, scalar.linearIndex());
        assertEquals(1, scalar.elementCount());
        assertTrue(scalar.isElementSlot(0));
        assertFalse(scalar.isElementSlot(1));
    }

    // ---- H ------------------------------------------------------------------------------------------

    @Test
    void exampleH_tailPadding() {
        ArrayShape tiled = array("f32[2,3]{1,0:T(2,2)L(16)}");
        assertEquals(16, tiled.slotCount(), "2*4 = 8 -> roundUp(8,16)");
        assertEquals(64, tiled.bufferSize());
        assertEquals(64, tiled.xlaArraySize());
        ArrayShape untiled = array("f32[2,3]{1,0:L(16)}");
        assertEquals(24, untiled.xlaArraySize(), "L ignored without tiles");
        assertEquals(24, untiled.bufferSize());
        assertEquals(6, untiled.slotCount());
        assertEquals(16, untiled.layout().tailPaddingAlignment(), "ignored, but kept and printed");
        assertEquals("f32[2,3]{1,0:L(16)}", untiled.toString());
    }

    // ---- sections 2, 5, 8: other stated facts --------------------------------------------------------

    @Test
    void defaultLayoutIsRowMajor() {
        ArrayShape s = ArrayShape.of(ElementType.F32, 4, 5, 6);
        assertArrayEquals(new int[] {2, 1, 0}, s.layout().minorToMajor());
        assertEquals(Layout.rowMajor(3), s.layout());
        assertArrayEquals(new int[] {0, 1, 2}, Layout.columnMajor(3).minorToMajor());
        assertEquals("f32[4,5,6]{2,1,0}", s.toString());
    }

    @Test
    void elementCounts() {
        assertEquals(1, array("f32[]").elementCount(), "scalar: 1 element");
        assertEquals(0, array("f32[3,0,4]").elementCount());
        assertEquals(0, array("f32[3,0,4]").byteSize());
        assertEquals(0, array("f32[3,0,4]{2,1,0:T(2,2)}").slotCount(), "a zero dim leaves no tile");
        assertEquals(15, array("f32[<=3,5]").elementCount(), "bounded dims count with their bound");
        assertEquals(60, array("f32[<=3,5]").byteSize());
    }

    @Test
    void parserKeepsElementSizeEqualToTheTypeWidth() {
        ArrayShape s = array("f32[2]{0:E(32)}");
        assertEquals(32, s.layout().elementSizeInBits());
        assertEquals("f32[2]{0:E(32)}", s.toString());
        assertEquals(8, s.byteSize());
        assertEquals(8, s.bufferSize());
    }

    @Test
    void nonArrayByteSizes() {
        assertEquals(0, Shape.parse("token[]").byteSize());
        assertEquals(8, Shape.parse("opaque[]").byteSize());
        assertEquals(24, Shape.parse("(f32[100], token[], s8[3])").byteSize(), "tuple: pointer per element");
        assertEquals(0, Shape.parse("()").byteSize());
        assertEquals(400, Shape.parse("b(f32[100])").byteSize());
    }

    // ---- Tegula decisions where the spec leaves room (docs/validation.md) -------------------------------

    @Test
    void longTileWithStarPrependsFirstThenMerges() {
        // T(*,2,3) on rank 1: prepend (1,1), then '*' merges the first 1 into the second: (1,6) -> (1,2,2,3)
        ArrayShape s = array("f32[6]{0:T(*,2,3)}");
        assertEquals(8, s.linearIndex(5), "I (0,0,5) -> (0,5) -> (0,1,0,2)");
        assertEquals(12, s.slotCount());
        // on rank 2 the prepended 1 merges into the major dim: (1,4,6) -> (4,6) -> (2,2,2,3)
        ArrayShape r2 = array("f32[4,6]{1,0:T(*,2,3)}");
        assertEquals(23, r2.linearIndex(3, 5));
        assertEquals(10, r2.linearIndex(1, 4), "(1,4) -> (0,1,1,1) over (2,2,2,3): ((0*2+1)*2+1)*3+1");
        assertEquals(24, r2.slotCount());
    }

    @Test
    void xlaArraySizeUsesTheFirstTileAndTheLargestSplit() {
        // later tiles are assumed to add no padding: (3,4)(2,1) pads each 3x4 tile to 4x4 in Tegula's buffer
        ArrayShape s = array("bf16[4,8]{1,0:T(3,4)(2,1)}");
        assertEquals(2 * 8 * 6, s.xlaArraySize(), "roundUp(8,4) * roundUp(4,3) elements, 2 bytes each");
        assertEquals(2 * 2 * 2 * 16, s.bufferSize(), "2x2 tiles of ceil(3/2)*2 x 4 = 16 slots");
        // split dims count with their largest part: dim 0 (physical 0) split at 3 -> parts 3 and 5
        ArrayShape split = array("f32[8,4]{1,0:T(2,2)SC(0:3)}");
        assertEquals(4 * 4 * 6, split.xlaArraySize(), "roundUp(4,2) * roundUp(5,2) elements");
        assertEquals(4 * 8 * 4, split.bufferSize(), "splits do not change Tegula's single buffer");
        assertEquals(4 * 8 * 4, array("f32[8,4]{1,0:SC(0:3)}").xlaArraySize(), "untiled: ByteSizeOf");
    }

    // ---- the first tile's extent along each dimension (ArrayShape.tileExtent) ------------------------

    private static long[] tileExtents(String text) {
        ArrayShape s = array(text);
        long[] out = new long[s.rank()];
        for (int d = 0; d < out.length; d++) {
            out[d] = s.tileExtent(d);
        }
        return out;
    }

    @Test
    void tileExtentsOfTheWorkedExamples() {
        // A: T(2,2) on the row-major (3,5)
        assertArrayEquals(new long[] {2, 2}, tileExtents("f32[3,5]{1,0:T(2,2)}"));
        // B and C: the second tile works inside the first, so only (2,4) counts
        assertArrayEquals(new long[] {2, 4}, tileExtents("bf16[4,8]{1,0:T(2,4)(2,1)}"));
        assertArrayEquals(new long[] {2, 4}, tileExtents("bf16[8,8]{1,0:T(2,4)(2,1,1,1)}"));
        // D: physical order dims 1,0,2,3; T(8,128) covers dims 2 and 3 only
        assertArrayEquals(new long[] {1, 1, 8, 128}, tileExtents("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"));
        // E: (2,7,8) merge into 112 tiled by 2, (11,10) into 110 tiled by 3: the sizes go to the most minor dims
        assertArrayEquals(new long[] {1, 1, 2, 1, 3}, tileExtents("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"));
        // F: E(4) packing does not change the tile
        assertArrayEquals(new long[] {2, 128}, tileExtents("s4[123,456]{1,0:T(2,128)E(4)}"));
        // G: a tile longer than the rank: its last size is the only dimension's
        assertArrayEquals(new long[] {2}, tileExtents("f32[8]{0:T(2,2)}"));
        // H: tail padding does not change the tile; without tiles every extent is 1
        assertArrayEquals(new long[] {2, 2}, tileExtents("f32[2,3]{1,0:T(2,2)L(16)}"));
        assertArrayEquals(new long[] {1, 1}, tileExtents("f32[2,3]{1,0:L(16)}"));
        // section 10: the 2017 layout has no tiles
        assertArrayEquals(new long[] {1, 1}, tileExtents("f32[2,3]{0,1:PAD(3,5:zero)}"));
    }

    @Test
    void tileExtentsAreNotClippedToTheDimensions() {
        // example A's shape in the TPU tile: one tile spans 8 rows and 128 columns of a 3x5 array
        assertArrayEquals(new long[] {8, 128}, tileExtents("f32[3,5]{1,0:T(8,128)}"));
        // column-major: the tile's sizes go to dims 1 (major) and 0 (minor)
        assertArrayEquals(new long[] {4, 2}, tileExtents("f32[8,6]{0,1:T(2,4)}"));
    }

    @Test
    void aCombinedTileSharesItsSizeFromTheMostMinorDimension() {
        // (4,2) merged: 8 indices, a tile of 3 holds (0,0) (0,1) (1,0): two rows, two columns
        assertArrayEquals(new long[] {2, 2}, tileExtents("f32[4,2]{1,0:T(*,3)}"));
        // a tile of 3 within rows of 6: one row
        assertArrayEquals(new long[] {1, 3}, tileExtents("f32[4,6]{1,0:T(*,3)}"));
        // 12 merged indices from rows of 2: six rows (the most major dim is not clipped), two columns
        assertArrayEquals(new long[] {6, 2}, tileExtents("f32[4,2]{1,0:T(*,12)}"));
        // three dims (2,3,2) merged, a tile of 7: q = 0..6 reaches (1,0,0)
        assertArrayEquals(new long[] {2, 3, 2}, tileExtents("f32[2,3,2]{2,1,0:T(*,*,7)}"));
        // a long tile with '*': the prepended 1 merges into dim 0, which keeps the tile's size
        assertArrayEquals(new long[] {2}, tileExtents("f32[8]{0:T(*,2)}"));
    }
}
