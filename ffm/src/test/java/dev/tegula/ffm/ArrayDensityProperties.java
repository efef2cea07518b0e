package dev.tegula.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import dev.tegula.core.testing.Permutations;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link Array#isDense()}, {@link Array#isDenseIn(Layout)} and {@link Array#byteSpan()} of random
 * untiled arrays and their strided views, against their definitions evaluated index by index: an
 * element's slot from the view's public offset and strides, compared with core's
 * {@link ArrayShape#linearIndex(long...)} of the layout asked about.
 */
class ArrayDensityProperties {

    /** A random untiled array (sometimes packed or legacy padded), then up to three random views of it. */
    record Case(ArrayShape base, List<String> ops, Layout asked) {
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.randomValue(ArrayDensityProperties::randomCase);
    }

    private static Case randomCase(Random r) {
        int rank = 1 + r.nextInt(4);
        long[] dims = new long[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = r.nextInt(8) == 0 ? 1 : 1 + r.nextInt(4);
        }
        ElementType type = r.nextInt(4) == 0 ? ElementType.U4 : ElementType.S16;
        Layout l = Layout.of(Permutations.shuffled(r, rank));
        if (type == ElementType.U4) {
            l = l.withElementSizeInBits(4);
        }
        if (r.nextInt(4) == 0) {
            long[] padded = dims.clone();
            for (int d = 0; d < rank; d++) {
                padded[d] += r.nextInt(3) == 0 ? 1 : 0;
            }
            l = l.withPaddedDimensions(PaddingValue.ZERO, padded);
        }
        List<String> ops = new ArrayList<>();
        for (int k = r.nextInt(4); k > 0; k--) {
            ops.add(switch (r.nextInt(4)) {
                case 0 -> "permute";
                case 1 -> "select";
                case 2 -> "slice";
                default -> "step";
            });
        }
        Layout asked = Layout.of(Permutations.shuffled(r, rank));
        return new Case(ArrayShape.of(type, dims).withLayout(l), ops, asked);
    }


    /** Applies the case's view operations (seeded by their position, so the case replays). */
    private static Array view(Array a, List<String> ops) {
        Random r = new Random(ops.size());
        for (String op : ops) {
            int rank = a.shape().rank();
            if (rank == 0) {
                break;
            }
            int d = r.nextInt(rank);
            long n = a.shape().dimension(d);
            a = switch (op) {
                case "permute" -> a.permute(Permutations.shuffled(r, rank));
                case "select" -> rank > 1 && n > 0 ? a.select(d, r.nextInt((int) n)) : a;
                case "slice" -> a.slice(d, n > 0 ? r.nextInt((int) n) : 0, n);
                default -> a.slice(d, 0, n, 1 + r.nextInt(2));
            };
        }
        return a;
    }

    /** The slot of {@code index} from the array's public offset and strides. */
    private static long slotOf(Array a, long[] index) {
        long s = a.slotOffset();
        long[] strides = a.slotStrides();
        for (int d = 0; d < index.length; d++) {
            s += index[d] * strides[d];
        }
        return s;
    }

    private static boolean everySlotIs(Array a, ArrayShape layoutShape) {
        boolean[] same = {true};
        TestArrays.forEachIndex(a.shape().dimensions(), (o, i) -> same[0] &= slotOf(a, i) == layoutShape.linearIndex(i));
        return same[0];
    }

    @Property(tries = 400)
    void anArrayIsDenseExactlyWhenEveryElementIsWhereItsLayoutPutsIt(@ForAll("cases") Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Array a = view(Array.allocate(arena, c.base()), c.ops());
            boolean expected = a.shape().elementCount() == 0 || everySlotIs(a, a.shape());
            Statistics.label("dense").collect(expected);
            assertEquals(expected, a.isDense(), () -> a.shape() + " view(offset=" + a.slotOffset() + ", strides="
                    + java.util.Arrays.toString(a.slotStrides()) + ")");
        }
    }

    @Property(tries = 400)
    void anArrayIsDenseInALayoutExactlyWhenThatLayoutPutsEveryElementThere(@ForAll("cases") Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Array a = view(Array.allocate(arena, c.base()), c.ops());
            if (a.shape().rank() != c.asked().rank()) {
                assertEquals(false, a.isDenseIn(c.asked()));
                return;
            }
            ArrayShape other = a.shape().withLayout(c.asked().withElementSizeInBits(a.shape().layout().elementSizeInBits()));
            boolean expected = a.isDense() && other.slotCount() == a.shape().slotCount()
                    && (a.shape().elementCount() == 0 || everySlotIs(a, other));
            Statistics.label("dense in the layout asked").collect(expected);
            assertEquals(expected, a.isDenseIn(other.layout()), () -> a.shape() + " in " + other.layout());
            // the layout without the array's E(n) stores another slot width, unless the type's own
            assertEquals(expected && a.shape().slotBits() == 8L * a.shape().elementType().byteWidth(),
                    a.isDenseIn(c.asked()), () -> a.shape() + " in " + c.asked());
        }
    }

    @Property(tries = 400)
    void theByteSpanRunsFromTheFirstElementByteToTheLast(@ForAll("cases") Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Array a = view(Array.allocate(arena, c.base()), c.ops());
            long base = a.segment().address();
            long from = a.byteSpan().address() - base;
            long to = from + a.byteSpan().byteSize();
            if (a.isDense()) {
                assertEquals(0, from);
                assertEquals(a.shape().bufferSize(), to);
                return;
            }
            long bits = a.shape().slotBits();
            long[] lo = {Long.MAX_VALUE};
            long[] hi = {Long.MIN_VALUE};
            TestArrays.forEachIndex(a.shape().dimensions(), (o, i) -> {
                long slot = slotOf(a, i);
                lo[0] = Math.min(lo[0], slot * bits / 8);
                hi[0] = Math.max(hi[0], (slot * bits + bits - 1) / 8);
            });
            assertEquals(lo[0], from, a.shape().toString());
            assertEquals(hi[0] + 1, to, a.shape().toString());
        }
    }
}
