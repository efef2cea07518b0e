package dev.tegula.vector.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutProperties;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.codec.BFloat16;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The fused f32 → bf16 relayout ({@link ConvertKernels}) against the scalar reference, byte for
 * byte, over random bits (NaNs, infinities, subnormals and rounding ties among them): runs,
 * transposes of every rank, tiled destinations, partial tiles. vector/pom.xml runs it at every
 * vector width.
 */
class ConvertKernelsTest {

    private static ArrayShape shape(String s) {
        return ArrayShape.parse(s);
    }

    private static void check(String from, String toLayout) {
        ArrayShape f = shape(from);
        ArrayShape t = ArrayShape.of(ElementType.BF16, f.dimensions()).withLayout(shape("bf16" + f.toStringWithoutLayout()
                .substring(f.toStringWithoutLayout().indexOf('[')) + toLayout).layout());
        assertTrue(Relayout.plan(f, t).isFast(), () -> f + " -> " + t + ": " + Relayout.plan(f, t).describe());
        RelayoutProperties.check(f, t);
    }

    @Test
    void transposesRunsAndTiles() {
        check("f32[67,1041]{1,0}", "{0,1}");
        check("f32[1041,67]{1,0}", "{0,1}");
        check("f32[64,64]{1,0}", "{0,1}");
        check("f32[300,257]{1,0}", "{1,0}");
        check("f32[300,257]{1,0}", "{1,0:T(8,128)(2,1)}");
        check("f32[300,257]{1,0}", "{0,1:T(8,128)(2,1)}");
        check("f32[40,256]{0,1}", "{1,0:T(8,128)}");
        check("f32[5,40,48]{2,1,0}", "{1,2,0}");
        check("f32[3,50,33]{2,1,0}", "{0,1,2}");
        check("f32[16,17,18,33]{3,2,1,0}", "{1,3,2,0}");
        check("f32[9,17,18,40]{3,2,1,0}", "{0,1,2,3}");
    }

    @Property(tries = 60)
    void transposeOfAnySizeMatchesReference(@ForAll @IntRange(min = 1, max = 90) int rows,
                                            @ForAll @IntRange(min = 1, max = 90) int cols) {
        check("f32[" + rows + "," + cols + "]{1,0}", "{0,1}");
        check("f32[" + rows + "," + cols + "]{1,0}", "{1,0}");
    }

    @Test
    void scalarRoundingMatchesTheCodec() {
        int[] samples = {0, 0x8000_0000, 0x3F80_0000, 0x3F80_8000, 0x3F81_8000, 0x3F80_7FFF, 0x7F7F_FFFF,
            0x7F80_0000, 0xFF80_0000, 0x7F80_0001, 0xFFC0_1234, 0x0000_0001, 0x007F_FFFF, 0x7FFF_FFFF};
        for (int bits : samples) {
            assertEquals(BFloat16.fromFloat(Float.intBitsToFloat(bits)), ConvertKernels.bf16(bits),
                    () -> Integer.toHexString(bits));
        }
        for (int k = 0; k < 1 << 20; k++) {
            int bits = k * 0x9E37_79B9;
            if (Float.isNaN(Float.intBitsToFloat(bits))) {
                continue;   // NaN payloads may not survive intBitsToFloat; the byte-level tests cover them
            }
            assertEquals(BFloat16.fromFloat(Float.intBitsToFloat(bits)), ConvertKernels.bf16(bits));
        }
    }
}
