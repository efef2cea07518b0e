package dev.tegula.core;

import dev.tegula.core.testing.Permutations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;

/**
 * Builds small random valid array shapes and layouts for the property tests: every array element
 * type, ranks 0 to 6, sizes including 0 and 1, bounded-dynamic dims, random minor-to-major orders,
 * single and nested tiles (tiles longer than the rank, {@code *} runs not at the end, {@code (c,1)}
 * second tiles), {@code L(n)}, {@code E(n)} packing, memory spaces, split configs, {@code M(n)} and
 * the 2017 padded dimensions. Shapes whose buffer has more than {@link #MAX_SLOTS} slots are drawn again.
 */
final class RandomShapes {
    static final long MAX_SLOTS = 3000;
    static final ElementType[] ARRAY_TYPES =
            Arrays.stream(ElementType.values()).filter(ElementType::isArrayType).toArray(ElementType[]::new);

    private RandomShapes() {
    }

    /** {@code @ForAll(supplier = RandomShapes.ArrayShapes.class)}: random array shapes, {@link #array}. */
    static final class ArrayShapes implements ArbitrarySupplier<ArrayShape> {
        @Override
        public Arbitrary<ArrayShape> get() {
            return Arbitraries.randomValue(RandomShapes::array);
        }
    }

    /** {@code @ForAll(supplier = RandomShapes.AnyShapes.class)}: random shapes of every kind, {@link #any}. */
    static final class AnyShapes implements ArbitrarySupplier<Shape> {
        @Override
        public Arbitrary<Shape> get() {
            return Arbitraries.randomValue(r -> any(r, 0));
        }
    }

    static ArrayShape array(Random r) {
        while (true) {
            ArrayShape s = attempt(r);
            if (s.slotCount() <= MAX_SLOTS) {
                return s;
            }
        }
    }

    private static ArrayShape attempt(Random r) {
        ElementType type = ARRAY_TYPES[r.nextInt(ARRAY_TYPES.length)];
        int rank = r.nextInt(7);
        int maxDim = rank <= 2 ? 9 : rank <= 4 ? 4 : 3;
        long[] dims = new long[rank];
        boolean[] dynamic = new boolean[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(maxDim);
            dynamic[d] = r.nextInt(10) == 0;
        }
        int[] m2m = Permutations.shuffled(r, rank);
        Layout l = Layout.of(m2m);
        switch (r.nextInt(10)) {
            case 0, 1 -> { }    // untiled
            case 2, 3 -> {      // the Tiled2 / TiledN family: (a,b) or (a,b)(c,1)
                if (rank >= 2) {
                    Tile first = Tile.of(1 + r.nextInt(4), 1 + r.nextInt(5));
                    l = r.nextBoolean() ? l.withTiles(first) : l.withTiles(first, Tile.of(1 + r.nextInt(4), 1));
                }
            }
            case 4, 5, 6 -> {   // general tiles
                int count = 1 + r.nextInt(3);
                Tile[] tiles = new Tile[count];
                for (int i = 0; i < count; i++) {
                    tiles[i] = randomTile(r, rank + 2);
                }
                l = l.withTiles(tiles);
            }
            case 7, 8 -> {      // the 2017 layout
                if (rank > 0) {
                    long[] padded = new long[rank];
                    for (int d = 0; d < rank; d++) {
                        padded[d] = dims[d] + (r.nextInt(3) == 0 ? 0 : r.nextInt(3));
                    }
                    l = l.withPaddedDimensions(PaddingValue.values()[r.nextInt(PaddingValue.values().length)], padded);
                }
            }
            default -> l = l.withTailPaddingAlignment(1 + r.nextInt(16));   // L without tiles: ignored
        }
        if (l.isTiled() && r.nextInt(3) == 0) {
            l = l.withTailPaddingAlignment(1 + r.nextInt(20));
        }
        if (type.bitWidth() < 8 && r.nextInt(3) != 0) {
            List<Long> sizes = new ArrayList<>();
            for (long e : new long[] {1, 2, 4}) {
                if (e >= type.bitWidth()) {
                    sizes.add(e);
                }
            }
            sizes.add(8L);
            l = l.withElementSizeInBits(sizes.get(r.nextInt(sizes.size())));
        } else if (r.nextInt(10) == 0) {
            l = l.withElementSizeInBits(8L * type.byteWidth());   // E equal to the type's storage: kept, same bytes
        }
        if (r.nextInt(6) == 0) {
            l = l.withMemorySpace(r.nextInt(128));
        }
        if (r.nextInt(8) == 0) {
            l = l.withDynamicShapeMetadataPrefixBytes(r.nextInt(64));
        }
        if (rank > 0 && r.nextInt(6) == 0) {
            int p = r.nextInt(rank);
            long size = dims[l.major(p)];
            List<Long> idx = new ArrayList<>();
            for (long i = 1; i < size; i++) {
                if (r.nextBoolean()) {
                    idx.add(i);
                }
            }
            l = l.withSplitConfigs(SplitConfig.of(p, idx.stream().mapToLong(Long::longValue).toArray()));
        }
        return ArrayShape.ofDynamic(type, dims, dynamic).withLayout(l);
    }

    /** A tile of 1..maxLen sizes in 1..4, with '*' anywhere but last. */
    static Tile randomTile(Random r, int maxLen) {
        int k = 1 + r.nextInt(Math.max(1, maxLen));
        long[] t = new long[k];
        for (int i = 0; i < k; i++) {
            t[i] = i < k - 1 && r.nextInt(4) == 0 ? Tile.COMBINE : 1 + r.nextInt(4);
        }
        return Tile.of(t);
    }


    /** A random shape of any kind: arrays, tuples (nested, empty, long enough for index comments), buffers, token, opaque. */
    static Shape any(Random r, int depth) {
        int k = r.nextInt(10);
        if (depth < 2 && k == 0) {
            int n = r.nextInt(r.nextBoolean() ? 3 : 13);
            List<Shape> elements = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                elements.add(any(r, depth + 1));
            }
            return TupleShape.of(elements);
        }
        return switch (k) {
            case 1 -> BufferShape.of(array(r));
            case 2 -> r.nextBoolean() ? TokenShape.INSTANCE : OpaqueShape.INSTANCE;
            default -> array(r);
        };
    }
}
