package dev.tegula.vector.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.Float16;
import dev.tegula.vector.ReferenceRelayout;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The fused widening relayouts ({@link WideningKernels}: bf16, f16, the 8-bit and 4-bit types to
 * f32 and f64, f32 ↔ f64) against the scalar reference, byte for byte: every code of each 8- and
 * 16-bit source type (NaN payloads, signed zeros, subnormals, the fp8 special values among them)
 * through row-major, transposed, {@code T(8,128)}, {@code T(8,128)(2,1)} and {@code E(4)} layouts
 * on either side and through strided views, and random sizes for the remainders. vector/pom.xml
 * runs it at every vector width and on the scalar paths.
 */
class WideningKernelsTest {

    /** The source types with a fused widening kernel into f32 and f64 (f64 itself into f32 only). */
    static final List<ElementType> SOURCES = List.of(ElementType.BF16, ElementType.F16, ElementType.F8E5M2,
            ElementType.F8E4M3, ElementType.F8E4M3FN, ElementType.F8E4M3B11FNUZ, ElementType.F8E3M4,
            ElementType.F8E5M2FNUZ, ElementType.F8E4M3FNUZ, ElementType.F8E8M0FNU, ElementType.F6E3M2FN,
            ElementType.F6E2M3FN, ElementType.F4E2M1FN, ElementType.S8, ElementType.U8, ElementType.S4,
            ElementType.U4, ElementType.F32, ElementType.F64);

    /** Layout pairs (source, destination) of a rank-2 array, every common kind on each side. */
    static final List<String[]> LAYOUTS = List.of(
            new String[] {"{1,0}", "{1,0}"},
            new String[] {"{1,0}", "{0,1}"},
            new String[] {"{0,1}", "{1,0}"},
            new String[] {"{1,0:T(8,128)}", "{1,0}"},
            new String[] {"{1,0}", "{1,0:T(8,128)}"},
            new String[] {"{0,1}", "{1,0:T(8,128)}"},
            new String[] {"{1,0:T(8,128)(2,1)}", "{1,0}"},
            new String[] {"{1,0:T(8,128)(2,1)}", "{0,1}"},
            new String[] {"{1,0:T(8,128)(2,1)}", "{1,0:T(8,128)}"});

    /** {@return the destination types of a source type} */
    static List<ElementType> targets(ElementType from) {
        return from == ElementType.F64 ? List.of(ElementType.F32)
                : from == ElementType.F32 ? List.of(ElementType.F64) : List.of(ElementType.F32, ElementType.F64);
    }

    private static ArrayShape shape(ElementType t, long rows, long cols, String layout) {
        return ArrayShape.parse(t + "[" + rows + "," + cols + "]" + layout);
    }

    /**
     * Fills a source of {@code from}'s layout with codes in logical row-major order: element
     * {@code k} is code {@code k mod 2^bits} for types of 16 bits or fewer (so a shape of
     * {@code 2^bits} elements holds each code once), random bits for wider ones.
     */
    private static MemorySegment source(Arena arena, ArrayShape from, Random random) {
        ElementType t = from.elementType();
        ArrayShape rowMajor = ArrayShape.of(t, from.dimensions());
        MemorySegment codes = arena.allocate(Math.max(1, rowMajor.bufferSize()));
        long n = rowMajor.elementCount();
        int bits = t.bitWidth();
        for (long k = 0; k < n; k++) {
            switch (bits) {
                case 4 -> codes.set(ValueLayout.JAVA_BYTE, k, (byte) (k & 0xF));
                case 6, 8 -> codes.set(ValueLayout.JAVA_BYTE, k, (byte) k);
                case 16 -> codes.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * k, (short) k);
                case 32 -> codes.set(ValueLayout.JAVA_INT_UNALIGNED, 4 * k, special32(random));
                default -> codes.set(ValueLayout.JAVA_LONG_UNALIGNED, 8 * k, special64(random));
            }
        }
        MemorySegment src = arena.allocate(Math.max(1, from.bufferSize()));
        ReferenceRelayout.copy(rowMajor, codes, from, src);
        return src;
    }

    /** Random f32 bits, a third of them NaNs (signalling and quiet), zeros, infinities or subnormals. */
    private static int special32(Random r) {
        return switch (r.nextInt(9)) {
            case 0 -> 0x7F80_0001 | r.nextInt(0x40_0000) | (r.nextBoolean() ? 0x8000_0000 : 0);
            case 1 -> r.nextInt(0x80_0000) | (r.nextBoolean() ? 0x8000_0000 : 0);
            case 2 -> r.nextBoolean() ? 0x8000_0000 : 0x7F80_0000;
            default -> r.nextInt();
        };
    }

    /** Random f64 bits, a third of them NaNs, subnormals, values that round to f32 ties, overflows or underflows. */
    private static long special64(Random r) {
        long sign = r.nextBoolean() ? Long.MIN_VALUE : 0;
        return switch (r.nextInt(9)) {
            case 0 -> 0x7FF0_0000_0000_0001L | (r.nextLong() & 0xF_FFFF_FFFF_FFFFL) | sign;
            case 1 -> (r.nextLong() & 0xF_FFFF_FFFF_FFFFL) | sign;
            case 2 -> Double.doubleToRawLongBits(Float.intBitsToFloat(r.nextInt())) | 0x1000_0000L;   // a tie or near it
            case 3 -> ((0x380L + r.nextInt(0x100)) << 52) | (r.nextLong() & 0xF_FFFF_FFFF_FFFFL) | sign;   // near f32's ends
            default -> r.nextLong();
        };
    }

    /** The plan of {@code from -> to} is fused and matches the reference on {@code src}. */
    private static void check(Arena arena, ArrayShape from, ArrayShape to, MemorySegment src) {
        RelayoutPlan plan = Relayout.plan(from, to);
        assertTrue(plan.isFast(), () -> from + " -> " + to + ": " + plan.describe());
        assertFalse(plan.describe().contains("general element walk"), plan::describe);
        MemorySegment fast = arena.allocate(Math.max(1, to.bufferSize()));
        MemorySegment ref = arena.allocate(Math.max(1, to.bufferSize()));
        fast.fill((byte) 0xA5);
        ref.fill((byte) 0x5A);
        plan.execute(src, fast);
        ReferenceRelayout.copy(from, src, to, ref);
        long n = to.bufferSize();
        long at = ref.asSlice(0, n).mismatch(fast.asSlice(0, n));
        assertEquals(-1, at, () -> from + " -> " + to + " via " + plan.describe() + ": first differing byte " + at);
    }

    /** Source layouts of a type: 4-bit types also packed two per byte. */
    private static String sourceLayout(ElementType t, String layout) {
        return t.bitWidth() == 4 && layout.equals("{1,0}") ? "{1,0:E(4)}" : layout;
    }

    @Test
    void everyCodeOfEachSourceTypeConvertsAsTheReferenceBetweenCommonLayouts() {
        Random random = new Random(47);
        try (Arena arena = Arena.ofConfined()) {
            for (ElementType from : SOURCES) {
                for (String[] pair : LAYOUTS) {
                    // 256 x 256 holds each 16-bit code once; 8-bit codes repeat with the row
                    ArrayShape f = shape(from, 256, 256, pair[0]);
                    MemorySegment src = source(arena, f, random);
                    for (ElementType to : targets(from)) {
                        check(arena, f, shape(to, 256, 256, pair[1]), src);
                    }
                }
                if (from.bitWidth() == 4) {
                    ArrayShape packed = shape(from, 64, 256, "{1,0:E(4)}");
                    MemorySegment src = source(arena, packed, random);
                    for (String layout : List.of("{1,0}", "{0,1}", "{1,0:T(8,128)}")) {
                        check(arena, packed, shape(ElementType.F32, 64, 256, layout), src);
                        check(arena, packed, shape(ElementType.F64, 64, 256, layout), src);
                    }
                }
            }
        }
    }

    @Provide
    Arbitrary<ElementType> sources() {
        return Arbitraries.of(SOURCES);
    }

    @Provide
    Arbitrary<String[]> layouts() {
        return Arbitraries.of(LAYOUTS);
    }

    @Property(tries = 150)
    void anySizeConvertsAsTheReference(@ForAll("sources") ElementType from, @ForAll("layouts") String[] pair,
                                       @ForAll @IntRange(min = 1, max = 300) int rows,
                                       @ForAll @IntRange(min = 1, max = 300) int cols, @ForAll boolean wide) {
        Random random = new Random(rows * 1000L + cols);
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape f = shape(from, rows, cols, sourceLayout(from, pair[0]));
            ElementType to = targets(from).get(wide ? targets(from).size() - 1 : 0);
            check(arena, f, shape(to, rows, cols, pair[1]), source(arena, f, random));
        }
    }

    @Property(tries = 60)
    void stridedViewsConvertAsTheReference(@ForAll("sources") ElementType from,
                                           @ForAll @IntRange(min = 1, max = 60) int rows,
                                           @ForAll @IntRange(min = 1, max = 200) int cols,
                                           @ForAll @IntRange(min = 1, max = 3) int step, @ForAll boolean permute) {
        if (from.bitWidth() < 8) {
            return;   // views of packed sub-byte arrays are not addressable slot by slot
        }
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape f = shape(from, rows, cols * step, "{1,0}");
            MemorySegment src = source(arena, f, new Random(rows * 7L + cols));
            Array sliced = Array.wrap(src, f).slice(1, 0, (long) cols * step, step);
            Array view = permute ? sliced.permute(1, 0) : sliced;
            ElementType to = targets(from).get(0);
            ArrayShape t = ArrayShape.of(to, view.shape().dimensions());
            Array dst = Array.allocate(arena, t);
            RelayoutPlan plan = Relayout.plan(view, dst);
            assertTrue(plan.isFast(), plan::describe);
            plan.execute(view, dst);
            MemorySegment ref = arena.allocate(Math.max(1, t.bufferSize()));
            ReferenceRelayout.copyStrided(view.shape(), view.segment(), view.slotOffset(), view.slotStrides(), t, ref);
            long at = ref.mismatch(dst.segment().asSlice(0, ref.byteSize()));
            assertEquals(-1, at, () -> view.shape() + " view -> " + t + " via " + plan.describe() + ": byte " + at);
        }
    }

    @Test
    void f16BitsAreTheCodecsForEveryCode() {
        for (int h = 0; h < 1 << 16; h++) {
            int expected = Float.floatToRawIntBits(Float16.toFloat((short) h));
            assertEquals(expected, WideningKernels.f16Bits(h), Integer.toHexString(h));
        }
    }

    @Test
    void planNamesTheConversion() {
        RelayoutPlan plan = Relayout.plan(ArrayShape.parse("bf16[2048,2048]{1,0:T(8,128)(2,1)}"),
                ArrayShape.parse("f32[2048,2048]{1,0}"));
        assertTrue(plan.describe().startsWith("bf16 -> f32 "), plan::describe);
    }
}
