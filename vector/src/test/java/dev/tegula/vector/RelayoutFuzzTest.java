package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import dev.tegula.core.Tile;
import dev.tegula.core.testing.Permutations;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

/**
 * Fuzz target for the relayout planner and its kernels: a fuzzed pair of small shapes with the
 * same dimensions (rank 0..6, sizes 0..40, every storage width 1/2/4/8/16 bytes and packed
 * sub-byte, permutations, single and nested tiles with {@code *}, {@code L(n)}, {@code E(n)},
 * legacy padded dimensions with every padding value, sometimes a type conversion) and, half the
 * time, a strided or permuted view of the source. Contract: {@link Relayout#plan} accepts every
 * such pair, and the plan's output equals {@link ReferenceRelayout}'s byte for byte over the whole
 * destination buffer (padding slots included; the destinations start as different garbage so an
 * unwritten byte shows).
 *
 * <p>In a normal build this replays
 * {@code src/test/resources/dev/tegula/vector/RelayoutFuzzTestInputs/planMatchesReference/}; see
 * {@code docs/reliability.md} for fuzzing it.
 */
class RelayoutFuzzTest {
    private static final ElementType[] TYPES = {ElementType.PRED, ElementType.S8, ElementType.U8, ElementType.S16,
        ElementType.BF16, ElementType.F16, ElementType.F32, ElementType.S32, ElementType.F64, ElementType.U64,
        ElementType.C64, ElementType.C128, ElementType.F8E4M3FN, ElementType.F8E5M2, ElementType.S4, ElementType.U4,
        ElementType.U2, ElementType.S1, ElementType.F4E2M1FN};
    private static final long MAX_SLOTS = 1 << 14;

    @FuzzTest(maxDuration = "10m")
    void planMatchesReference(FuzzedDataProvider data) {
        ElementType type = data.pickValue(TYPES);
        int rank = data.consumeInt(0, 6);
        long[] dims = new long[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = data.consumeInt(0, 7) == 0 ? data.consumeLong(0, 40) : data.consumeLong(0, 6);
        }
        ArrayShape from;
        try {
            from = ArrayShape.of(type, dims).withLayout(layout(data, dims, type));
        } catch (IllegalArgumentException refused) {
            return;   // e.g. a '*' at the end of a tile or an E(n) the type cannot have
        }
        if (from.slotCount() > MAX_SLOTS) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(Math.max(1, from.bufferSize()), 64);
            Random r = new Random(data.consumeLong());
            for (long i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
            }
            Array view = data.consumeBoolean() ? view(data, from, src) : null;
            long[] toDims = view == null ? dims : view.shape().dimensions();
            ElementType toType = type;
            if (data.consumeInt(0, 4) == 0) {
                ElementType t = data.pickValue(TYPES);
                toType = t.isComplex() == type.isComplex() ? t : type;
            }
            ArrayShape to;
            try {
                to = ArrayShape.of(toType, toDims).withLayout(layout(data, toDims, toType));
            } catch (IllegalArgumentException refused) {
                return;
            }
            if (to.slotCount() > MAX_SLOTS) {
                return;
            }
            MemorySegment fast = arena.allocate(Math.max(1, to.bufferSize()), 64);
            MemorySegment ref = arena.allocate(Math.max(1, to.bufferSize()), 64);
            fast.fill((byte) 0xA5);
            ref.fill((byte) 0x5A);
            String what;
            if (view == null) {
                RelayoutPlan plan = Relayout.plan(from, to);
                what = from + " -> " + to + " via " + plan.describe();
                plan.execute(src, fast);
                ReferenceRelayout.copy(from, src, to, ref);
            } else {
                Array dst;
                try {
                    dst = Array.wrap(fast, to);
                } catch (IllegalArgumentException unsupported) {
                    return;   // an E(n) that Array's element access does not support
                }
                RelayoutPlan plan = Relayout.plan(view, dst);
                what = view.shape() + " view(offset=" + view.slotOffset() + ", strides="
                        + Arrays.toString(view.slotStrides()) + ") of " + from + " -> " + to + " via " + plan.describe();
                plan.execute(view, dst);
                if (view.slotStrides() != null) {
                    ReferenceRelayout.copyStrided(view.shape(), view.segment(), view.slotOffset(),
                            view.slotStrides(), to, ref);
                } else {
                    ReferenceRelayout.copy(view.shape(), view.segment(), to, ref);
                }
            }
            long n = to.bufferSize();
            long mismatch = ref.asSlice(0, n).mismatch(fast.asSlice(0, n));
            assertEquals(-1, mismatch, () -> what + ": first differing byte " + mismatch);
        }
    }

    /** A random view of the source array (permute, slice with a step, select), or null if Array refuses the shape. */
    private static Array view(FuzzedDataProvider data, ArrayShape from, MemorySegment src) {
        Array a;
        try {
            a = Array.wrap(src, from);
        } catch (IllegalArgumentException unsupported) {
            return null;
        }
        int ops = data.consumeInt(1, 3);
        for (int k = 0; k < ops; k++) {
            int rank = a.shape().rank();
            if (rank == 0) {
                break;
            }
            try {
                a = switch (data.consumeInt(0, 2)) {
                    case 0 -> a.permute(Permutations.shuffled(rank, i -> data.consumeInt(0, i)));
                    case 1 -> {
                        int d = data.consumeInt(0, rank - 1);
                        long size = a.shape().dimension(d);
                        long start = data.consumeLong(0, size);
                        long end = data.consumeLong(start, size);
                        yield a.slice(d, start, end, data.consumeLong(1, 3));
                    }
                    default -> {
                        int d = data.consumeInt(0, rank - 1);
                        long size = a.shape().dimension(d);
                        yield size == 0 ? a : a.select(d, data.consumeLong(0, size - 1));
                    }
                };
            } catch (IllegalArgumentException notAligned) {
                // a tiled array refuses views that cut its tiles: keep the view so far
            }
        }
        return a;
    }

    /** A fuzzed layout for these dimensions: any order, then untiled, tiled (one or two tiles, '*'), or legacy padded. */
    static Layout layout(FuzzedDataProvider data, long[] dims, ElementType type) {
        int rank = dims.length;
        Layout l = Layout.of(Permutations.shuffled(rank, i -> data.consumeInt(0, i)));
        switch (data.consumeInt(0, 5)) {
            case 0, 1 -> { }
            case 2, 3, 4 -> {
                Tile[] tiles = new Tile[data.consumeInt(1, 2)];
                for (int i = 0; i < tiles.length; i++) {
                    long[] t = new long[data.consumeInt(1, rank + 2)];
                    for (int k = 0; k < t.length; k++) {
                        t[k] = switch (data.consumeInt(0, 9)) {
                            case 0 -> Tile.COMBINE;
                            case 1 -> 128;
                            default -> data.consumeLong(1, 8);
                        };
                    }
                    tiles[i] = Tile.of(t);
                }
                l = l.withTiles(tiles);
                if (data.consumeInt(0, 3) == 0) {
                    l = l.withTailPaddingAlignment(data.consumeLong(1, 12));
                }
            }
            default -> {
                if (rank > 0) {
                    long[] padded = new long[rank];
                    for (int d = 0; d < rank; d++) {
                        padded[d] = dims[d] + data.consumeLong(0, 3);
                    }
                    l = l.withPaddedDimensions(data.pickValue(PaddingValue.values()), padded);
                }
            }
        }
        if (type.isSubByte() && data.consumeBoolean()) {
            l = l.withElementSizeInBits(data.pickValue(new long[] {1, 2, 4, 8}));
        }
        return l;
    }

}
