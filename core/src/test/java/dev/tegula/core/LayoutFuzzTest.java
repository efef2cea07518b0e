package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tegula.core.testing.Permutations;

/**
 * Fuzz target for the layout validator, reached only through the public factories and withers
 * ({@link ArrayShape#ofDynamic}, {@link Layout#of}, {@link Layout#rowMajor}, {@link Tile#of},
 * {@code Layout.with...}, {@link ArrayShape#withLayout}) from fuzzed fields: element type, rank
 * 0..7, sizes (0, 1, negative, huge, unbounded), orders that may not be permutations, tiles with
 * {@code *}, zero and huge sizes, {@code L(n)}, {@code E(n)}, {@code S(n)}, {@code M(n)}, split
 * configs, sparse-only fields and legacy padded dimensions.
 *
 * <p>Contract: building throws nothing but {@link IllegalArgumentException}; a shape that is built
 * is STRICT-valid, prints to text that parses back to it, and keeps {@link ArrayShapeChecks}' size and
 * index contract (every {@link Addressing} agrees with {@code linearIndex} on sampled indices,
 * {@code linearIndex < slotCount}, sizes exact). In a normal build this replays
 * {@code src/test/resources/dev/tegula/core/LayoutFuzzTestInputs/build/}.
 */
class LayoutFuzzTest {
    private static final ElementType[] TYPES = ElementType.values();
    private static final PaddingValue[] PADDING = PaddingValue.values();

    @FuzzTest(maxDuration = "10m")
    void build(FuzzedDataProvider data) {
        ArrayShape shape;
        try {
            shape = attempt(data);
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertNull(Validation.STRICT.problem(shape), shape::toString);
        assertEquals(shape, Shape.parse(shape.toString()), shape::toString);
        assertEquals(shape, shape.withLayout(shape.layout()));
        ArrayShapeChecks.check(shape, data.consumeLong());
    }

    private static ArrayShape attempt(FuzzedDataProvider data) {
        ElementType type = data.pickValue(TYPES);
        int rank = data.consumeInt(0, 7);
        long[] dims = new long[rank];
        boolean[] dynamic = new boolean[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = size(data);
            dynamic[d] = dims[d] == ArrayShape.UNBOUNDED_SIZE || data.consumeInt(0, 7) == 0;
        }
        ArrayShape shape = ArrayShape.ofDynamic(type, dims, dynamic);
        Layout l = switch (data.consumeInt(0, 3)) {
            case 0 -> Layout.rowMajor(rank);
            case 1 -> Layout.columnMajor(rank);
            case 2 -> Layout.of(Permutations.shuffled(rank, i -> data.consumeInt(0, i)));
            default -> {   // raw entries: maybe not a permutation, maybe the wrong length
                int[] m = new int[data.consumeInt(0, rank + 1)];
                for (int i = 0; i < m.length; i++) {
                    m[i] = data.consumeInt(-1, rank);
                }
                yield Layout.of(m);
            }
        };
        int attributes = data.consumeInt(0, 6);
        for (int k = 0; k < attributes; k++) {
            l = switch (data.consumeInt(0, 10)) {
                case 0, 1 -> l.withTiles(tiles(data, rank));
                case 2 -> l.withTailPaddingAlignment(data.consumeBoolean() ? data.consumeLong(-1, 64) : data.consumeLong());
                case 3 -> l.withElementSizeInBits(data.consumeBoolean()
                        ? data.pickValue(new long[] {0, 1, 2, 4, 8, 16, 32, 64, 128}) : data.consumeLong(-1, 200));
                case 4 -> l.withMemorySpace(data.consumeLong(-1, 130));
                case 5 -> l.withDynamicShapeMetadataPrefixBytes(data.consumeLong(-1, 1 << 20));
                case 6 -> l.withPaddedDimensions(data.pickValue(PADDING), padded(data, dims));
                case 7 -> l.withSplitConfigs(splits(data, rank));
                case 8 -> l.withIndexPrimitiveType(data.consumeBoolean() ? null : data.pickValue(TYPES));
                case 9 -> l.withPointerPrimitiveType(data.consumeBoolean() ? null : data.pickValue(TYPES));
                default -> l.withPhysicalShape(data.consumeBoolean() ? null : ArrayShape.of(ElementType.S32, 2));
            };
        }
        return shape.withLayout(l);
    }

    /** A dimension size: mostly small, sometimes 0, negative, a large power of two, any long or unbounded. */
    private static long size(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 15)) {
            case 0 -> data.consumeLong();
            case 1 -> ArrayShape.UNBOUNDED_SIZE;
            case 2 -> -1;
            case 3 -> 1L << data.consumeInt(16, 62);
            case 4 -> 0;
            default -> data.consumeLong(1, 12);
        };
    }


    private static Tile[] tiles(FuzzedDataProvider data, int rank) {
        Tile[] tiles = new Tile[data.consumeInt(0, 3)];
        for (int i = 0; i < tiles.length; i++) {
            long[] t = new long[data.consumeInt(0, rank + 2)];
            for (int k = 0; k < t.length; k++) {
                t[k] = switch (data.consumeInt(0, 11)) {
                    case 0 -> Tile.COMBINE;
                    case 1 -> data.consumeLong(-2, 0);
                    case 2 -> 1L << data.consumeInt(8, 62);
                    case 3 -> data.consumeLong();
                    case 4 -> 128;
                    default -> data.consumeLong(1, 9);
                };
            }
            tiles[i] = Tile.of(t);
        }
        return tiles;
    }

    private static long[] padded(FuzzedDataProvider data, long[] dims) {
        int n = data.consumeInt(0, 7) == 0 ? data.consumeInt(0, dims.length + 1) : dims.length;
        long[] p = new long[n];
        for (int d = 0; d < n; d++) {
            long base = d < dims.length && dims[d] >= 0 ? dims[d] : 1;
            p[d] = data.consumeInt(0, 9) == 0 ? data.consumeLong() : base + data.consumeLong(-1, 3);
        }
        return p;
    }

    private static SplitConfig[] splits(FuzzedDataProvider data, int rank) {
        SplitConfig[] s = new SplitConfig[data.consumeInt(0, 2)];
        for (int i = 0; i < s.length; i++) {
            long[] idx = new long[data.consumeInt(0, 3)];
            long at = 0;
            for (int k = 0; k < idx.length; k++) {
                at += data.consumeLong(-1, 4);
                idx[k] = at;
            }
            s[i] = SplitConfig.of(data.consumeInt(-1, rank), idx);
        }
        return s;
    }
}
