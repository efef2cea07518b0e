package dev.tegula.cli;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * The relayout cases of {@code tegula bench}: the same strings as the {@code @Param} list of the
 * JMH benchmark {@code jmh/src/main/java/dev/tegula/jmh/RelayoutBench.java} (a test keeps the two
 * lists equal), each {@code name|source shape|destination layout}, and their scaling to a smaller
 * size for quick runs.
 */
final class BenchCases {
    /** Same strings as {@code RelayoutBench.relayoutCase}; keep them in step (BenchCasesTest checks). */
    static final List<String> SPECS = List.of(
            "f32_8192x8192_T|f32[8192,8192]{1,0}|{0,1}",
            "bf16_8192x8192_T|bf16[8192,8192]{1,0}|{0,1}",
            "f32_3d_210|f32[256,512,512]{2,1,0}|{0,1,2}",
            "f32_3d_102|f32[256,512,512]{2,1,0}|{2,0,1}",
            "f32_3d_021|f32[256,512,512]{2,1,0}|{1,2,0}",
            "f32_4d_3210|f32[64,64,64,64]{3,2,1,0}|{0,1,2,3}",
            "f32_4d_0231|f32[64,64,64,64]{3,2,1,0}|{1,3,2,0}",
            "bf16_to_T8x128|bf16[8192,8192]{1,0}|{1,0:T(8,128)}",
            "bf16_from_T8x128|bf16[8192,8192]{1,0:T(8,128)}|{1,0}",
            "bf16_to_T8x128_2x1|bf16[8192,8192]{1,0}|{1,0:T(8,128)(2,1)}",
            "bf16_from_T8x128_2x1|bf16[8192,8192]{1,0:T(8,128)(2,1)}|{1,0}",
            "s4_pack_E4|s4[16384,8192]{1,0}|{1,0:E(4)}",
            "s4_unpack_E4|s4[16384,8192]{1,0:E(4)}|{1,0}");

    private BenchCases() {
    }

    /**
     * One case: a source and a destination shape of the same dimensions.
     *
     * @param name the case name (as in the JMH report)
     * @param from the source shape
     * @param to   the destination shape
     */
    record Case(String name, ArrayShape from, ArrayShape to) {
        /**
         * {@return the bytes of the case, the measure of both the relayout and the copy: the larger of
         * the two buffers, as in the JMH benchmark (for packing, the one-byte-per-element form)}
         */
        long bytes() {
            return largestBuffer();
        }

        /** {@return the larger of the two buffers} */
        long largestBuffer() {
            return Math.max(from.bufferSize(), to.bufferSize());
        }

        /** {@return {@code from -> to} with the destination's layout only, e.g. {@code f32[8192,8192]{1,0} -> {0,1}}} */
        String description() {
            String t = to.toString();
            return from + " -> " + t.substring(t.indexOf('{') < 0 ? t.length() : t.indexOf('{'));
        }
    }

    /** {@return every case at its full (JMH) size} */
    static List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (String spec : SPECS) {
            cases.add(parse(spec));
        }
        return cases;
    }

    /** {@return the case of a {@code name|from|layout} string} */
    static Case parse(String spec) {
        String[] parts = spec.split("\\|");
        ArrayShape from = (ArrayShape) Shape.parse(parts[1]);
        ArrayShape to = (ArrayShape) Shape.parse(from.toStringWithoutLayout() + parts[2]);
        return new Case(parts[0], from, to);
    }

    /**
     * {@return the case with its largest dimension halved (rounding up) until neither buffer is larger
     * than {@code maxBytes}} The layouts stay; a case already small enough is returned unchanged.
     */
    static Case scaled(Case c, long maxBytes) {
        long[] dims = c.from().dimensions();
        Case k = c;
        while (k.largestBuffer() > maxBytes) {
            int big = 0;
            for (int d = 1; d < dims.length; d++) {
                if (dims[d] > dims[big]) {
                    big = d;
                }
            }
            if (dims[big] <= 1) {
                break;
            }
            dims[big] = (dims[big] + 1) / 2;
            k = new Case(c.name(), ArrayShape.of(c.from().elementType(), dims).withLayout(c.from().layout()),
                    ArrayShape.of(c.to().elementType(), dims).withLayout(c.to().layout()));
        }
        return k;
    }
}
