package dev.tegula.bench;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import java.util.ArrayList;
import java.util.List;

/**
 * The relayout benchmark cases, the one list that {@code tegula bench} and {@code tegula plan} (cli)
 * and the JMH benchmarks {@code RelayoutBench} and {@code PlanningBench} (jmh) run. Each case is a string {@code name|source shape|destination
 * layout}, a compile-time constant so that JMH's {@code @Param} can name it; {@link #SPECS} lists
 * them in report order. {@link #scaled} shrinks a case for quick runs without changing its layouts.
 *
 * <p>Not API: a part of Tegula's tools (module {@code dev.tegula.bench}), which no library module
 * requires. Immutable and thread-safe.
 */
public final class RelayoutCases {
    public static final String F32_8192X8192_T = "f32_8192x8192_T|f32[8192,8192]{1,0}|{0,1}";
    public static final String BF16_8192X8192_T = "bf16_8192x8192_T|bf16[8192,8192]{1,0}|{0,1}";
    public static final String F32_3D_210 = "f32_3d_210|f32[256,512,512]{2,1,0}|{0,1,2}";
    public static final String F32_3D_102 = "f32_3d_102|f32[256,512,512]{2,1,0}|{2,0,1}";
    public static final String F32_3D_021 = "f32_3d_021|f32[256,512,512]{2,1,0}|{1,2,0}";
    public static final String F32_4D_3210 = "f32_4d_3210|f32[64,64,64,64]{3,2,1,0}|{0,1,2,3}";
    public static final String F32_4D_0231 = "f32_4d_0231|f32[64,64,64,64]{3,2,1,0}|{1,3,2,0}";
    public static final String BF16_TO_T8X128 = "bf16_to_T8x128|bf16[8192,8192]{1,0}|{1,0:T(8,128)}";
    public static final String BF16_FROM_T8X128 = "bf16_from_T8x128|bf16[8192,8192]{1,0:T(8,128)}|{1,0}";
    public static final String BF16_TO_T8X128_2X1 = "bf16_to_T8x128_2x1|bf16[8192,8192]{1,0}|{1,0:T(8,128)(2,1)}";
    public static final String BF16_FROM_T8X128_2X1 =
            "bf16_from_T8x128_2x1|bf16[8192,8192]{1,0:T(8,128)(2,1)}|{1,0}";
    public static final String S4_PACK_E4 = "s4_pack_E4|s4[16384,8192]{1,0}|{1,0:E(4)}";
    public static final String S4_UNPACK_E4 = "s4_unpack_E4|s4[16384,8192]{1,0:E(4)}|{1,0}";
    /** Conversion in the same pass: the destination part starts with its element type. */
    public static final String F32_TO_BF16_T = "f32_to_bf16_T|f32[8192,8192]{1,0}|bf16{0,1}";
    public static final String F32_TO_BF16_T8X128_2X1 = "f32_to_bf16_T8x128_2x1|f32[8192,8192]{1,0}|bf16{1,0:T(8,128)(2,1)}";

    /** Widening conversions fused into the relayout: bf16, f16, fp8 and the integer types to f32 and f64, f32 ↔ f64. */
    public static final String BF16_TO_F32 = "bf16_to_f32|bf16[8192,8192]{1,0}|f32{1,0}";
    public static final String BF16_T8X128_2X1_TO_F32 = "bf16_T8x128_2x1_to_f32|bf16[8192,8192]{1,0:T(8,128)(2,1)}|f32{1,0}";
    public static final String BF16_TO_F32_T = "bf16_to_f32_T|bf16[8192,8192]{1,0}|f32{0,1}";
    public static final String F16_TO_F32 = "f16_to_f32|f16[8192,8192]{1,0}|f32{1,0}";
    public static final String F8E4M3FN_TO_F32 = "f8e4m3fn_to_f32|f8e4m3fn[8192,8192]{1,0}|f32{1,0}";
    public static final String F8E5M2_T8X128_4X1_TO_F32 = "f8e5m2_T8x128_4x1_to_f32|f8e5m2[8192,8192]{1,0:T(8,128)(4,1)}|f32{1,0}";
    public static final String S8_TO_F32 = "s8_to_f32|s8[8192,8192]{1,0}|f32{1,0}";
    public static final String S4_E4_TO_F32 = "s4_E4_to_f32|s4[8192,8192]{1,0:E(4)}|f32{1,0}";
    public static final String F32_TO_F64 = "f32_to_f64|f32[4096,8192]{1,0}|f64{1,0}";
    public static final String F64_TO_F32 = "f64_to_f32|f64[4096,8192]{1,0}|f32{1,0}";
    public static final String BF16_TO_F64_T = "bf16_to_f64_T|bf16[4096,8192]{1,0}|f64{0,1}";

    /** Every case, in report order. */
    public static final List<String> SPECS = List.of(F32_8192X8192_T, BF16_8192X8192_T, F32_3D_210, F32_3D_102,
            F32_3D_021, F32_4D_3210, F32_4D_0231, BF16_TO_T8X128, BF16_FROM_T8X128, BF16_TO_T8X128_2X1,
            BF16_FROM_T8X128_2X1, S4_PACK_E4, S4_UNPACK_E4, F32_TO_BF16_T, F32_TO_BF16_T8X128_2X1, BF16_TO_F32,
            BF16_T8X128_2X1_TO_F32, BF16_TO_F32_T, F16_TO_F32, F8E4M3FN_TO_F32, F8E5M2_T8X128_4X1_TO_F32, S8_TO_F32,
            S4_E4_TO_F32, F32_TO_F64, F64_TO_F32, BF16_TO_F64_T);

    /** f32 transposes of 4 KiB, held in L1. */
    public static final String F32_32X32_T = "f32_32x32_T|f32[32,32]{1,0}|{0,1}";
    /** f32 transposes of 16 KiB, held in L1. */
    public static final String F32_64X64_T = "f32_64x64_T|f32[64,64]{1,0}|{0,1}";
    /** f32 transposes of 256 KiB, held in L2. */
    public static final String F32_256X256_T = "f32_256x256_T|f32[256,256]{1,0}|{0,1}";
    /** f32 transposes of 1 MiB, in L2 where it holds both buffers (2 MiB), else in L3. */
    public static final String F32_512X512_T = "f32_512x512_T|f32[512,512]{1,0}|{0,1}";
    /** f32 transposes of 4 MiB, in L3. */
    public static final String F32_1024X1024_T = "f32_1024x1024_T|f32[1024,1024]{1,0}|{0,1}";

    /**
     * Transposes small enough that both buffers stay in the caches from one run to the next: what a
     * relayout of a small tensor costs, where the kernel and not memory sets the speed. Not in the
     * report ({@link #SPECS}); run by name ({@link #byName}), e.g. {@code -p
     * relayoutCase=f32_64x64_T,f32_256x256_T} to {@code RelayoutBench}.
     */
    public static final List<String> IN_CACHE = List.of(F32_32X32_T, F32_64X64_T, F32_256X256_T, F32_512X512_T,
            F32_1024X1024_T);

    /** Three long rows interleaved (planar to interleaved, channels-first to channels-last), 48 MiB. */
    public static final String F32_3XN_T = "f32_3xN_T|f32[3,4194304]{1,0}|{0,1}";
    /** Four long rows interleaved, 64 MiB. */
    public static final String F32_4XN_T = "f32_4xN_T|f32[4,4194304]{1,0}|{0,1}";
    /** Runs of four split into four long rows (interleaved to planar, channels-last to channels-first), 64 MiB. */
    public static final String F32_NX4_T = "f32_Nx4_T|f32[4194304,4]{1,0}|{0,1}";
    /** Eight long rows interleaved, 64 MiB. */
    public static final String F32_8XN_T = "f32_8xN_T|f32[8,2097152]{1,0}|{0,1}";
    /** Eight long rows of 2-byte elements interleaved, 64 MiB. */
    public static final String BF16_8XN_T = "bf16_8xN_T|bf16[8,4194304]{1,0}|{0,1}";

    /**
     * Transposes with one narrow side: rows shorter than a 64-byte line on one side, side by side,
     * and long rows on the other. Not in the report ({@link #SPECS}); run by name ({@link #byName}).
     */
    public static final List<String> NARROW = List.of(F32_3XN_T, F32_4XN_T, F32_NX4_T, F32_8XN_T, BF16_8XN_T);

    private RelayoutCases() {
    }

    /**
     * {@return the spec of the case named {@code name}, from {@link #SPECS}, {@link #IN_CACHE} or
     * {@link #NARROW}, or
     * {@code name} itself where it is a whole spec ({@code name|shape|layout})} JMH splits its
     * parameters at commas, so a spec given there must not hold one: shapes of one dimension only.
     *
     * @throws IllegalArgumentException if no case has that name
     */
    public static String byName(String name) {
        if (name.contains("|")) {
            return name;
        }
        for (List<String> list : List.of(SPECS, IN_CACHE, NARROW)) {
            for (String c : list) {
                if (c.startsWith(name + "|")) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException("relayoutCase: no case named " + name);
    }

    /**
     * One case: a source and a destination shape of the same dimensions.
     *
     * @param name the case name (as in the JMH report)
     * @param from the source shape
     * @param to   the destination shape
     */
    public record Case(String name, ArrayShape from, ArrayShape to) {
        /**
         * {@return the bytes of the case, the measure of both the relayout and the copy: the larger of
         * the two buffers (for packing, the one-byte-per-element form; for a conversion, the wider side)}
         */
        public long bytes() {
            return largestBuffer();
        }

        /** {@return the larger of the two buffers} */
        public long largestBuffer() {
            return Math.max(from.bufferSize(), to.bufferSize());
        }

        /** {@return {@code from -> to} with the destination's layout only, e.g. {@code f32[8192,8192]{1,0} -> {0,1}}} */
        public String description() {
            String t = to.toString();
            String type = from.elementType() == to.elementType() ? "" : t.substring(0, t.indexOf('['));
            return from + " -> " + type + t.substring(t.indexOf('{') < 0 ? t.length() : t.indexOf('{'));
        }
    }

    /** {@return every case at its full (JMH) size} */
    public static List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (String spec : SPECS) {
            cases.add(parse(spec));
        }
        return cases;
    }

    /**
     * {@return the case of a {@code name|from|layout} string} The layout part may start with an
     * element type ({@code bf16{0,1}}): a relayout that converts.
     *
     * @throws IllegalArgumentException if the string has not three parts or a shape does not parse
     */
    public static Case parse(String spec) {
        String[] parts = spec.split("\\|");
        if (parts.length != 3) {
            throw new IllegalArgumentException("spec: expected name|shape|layout, got " + spec);
        }
        ArrayShape from = ArrayShape.parse(parts[1]);
        return new Case(parts[0], from, target(from, parts[2]));
    }

    /**
     * {@return the destination shape that the layout part of a case gives {@code from}: its dimensions,
     * in the layout, of the element type the part names first or else of {@code from}'s}
     *
     * @param from   the source shape
     * @param layout a layout in braces ({@code {0,1}}), or an element type and a layout
     *               ({@code bf16{0,1}}): a relayout that converts
     * @throws IllegalArgumentException if the text has no layout in braces, names no element type before
     *                                  it, or its layout does not parse or does not fit the dimensions
     */
    public static ArrayShape target(ArrayShape from, String layout) {
        int brace = layout.indexOf('{');
        if (brace < 0) {
            throw new IllegalArgumentException("layout: expected {minor_to_major...}, optionally after an element type, got "
                    + layout);
        }
        ArrayShape shape = from;
        if (brace > 0) {
            boolean[] dynamic = new boolean[from.rank()];
            for (int d = 0; d < dynamic.length; d++) {
                dynamic[d] = from.isDynamicDimension(d);
            }
            shape = ArrayShape.ofDynamic(ElementType.fromName(layout.substring(0, brace).strip()), from.dimensions(), dynamic);
        }
        return shape.withLayout(Layout.parse(layout.substring(brace)));
    }

    /**
     * {@return the case with its largest dimension halved (rounding up) until neither buffer is larger
     * than {@code maxBytes}} The layouts stay; a case already small enough is returned unchanged.
     */
    public static Case scaled(Case c, long maxBytes) {
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
