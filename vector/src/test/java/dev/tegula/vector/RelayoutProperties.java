package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import dev.tegula.core.Tile;
import dev.tegula.core.testing.Permutations;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The relayout engine against the scalar reference kernel: byte for byte, padding included, over
 * random shapes, layouts (permutations, single/nested/long tiles, '*' merges, tail padding, legacy
 * padding, E(n) packing) and element types. The destination starts as garbage so unwritten bytes show.
 *
 * <p>vector/pom.xml runs these properties three times: at the machine's widest vectors (AVX-512
 * here), with {@code -XX:UseAVX=2} (256-bit) and with {@code -Dtegula.relayout.scalar=true} (the
 * scalar kernels), so tails and remainders of every width are covered ({@link RelayoutWidthTest}
 * checks that each run got the width it asked for).
 */
public class RelayoutProperties {
    private static final ElementType[] TYPES = {ElementType.PRED, ElementType.S8, ElementType.U8, ElementType.S16,
        ElementType.BF16, ElementType.F16, ElementType.F32, ElementType.S32, ElementType.F64, ElementType.U64,
        ElementType.C64, ElementType.C128, ElementType.F8E4M3FN, ElementType.S4, ElementType.U4, ElementType.U2,
        ElementType.S1, ElementType.F4E2M1FN};

    @Property(tries = 400)
    void sameTypeMatchesReference(@ForAll("pairs") Tuple.Tuple2<ArrayShape, ArrayShape> pair) {
        check(pair.get1(), pair.get2());
    }

    @Property(tries = 150)
    void conversionMatchesReference(@ForAll("pairs") Tuple.Tuple2<ArrayShape, ArrayShape> pair,
                                    @ForAll("realTypes") ElementType target) {
        ArrayShape from = pair.get1();
        if (from.elementType().isComplex()) {
            return;
        }
        ArrayShape to = ArrayShape.of(target, pair.get2().dimensions()).withLayout(
                pair.get2().layout().withElementSizeInBits(0).withPaddedDimensions(PaddingValue.ZERO));
        check(from, to);
    }

    /**
     * Broader shapes, few tries: ranks 0..6, sizes 0, 1 and up to 100 per dimension (at most
     * {@link #BROAD_MAX_SLOTS} slots), every storage width (1, 2, 4, 8, 16 bytes and packed
     * sub-byte), nested tiles with {@code *}, {@code (8,128)}-sized and uneven tiles, {@code L(n)},
     * {@code E(n)} and legacy padding with every padding value. Run at every vector width (see
     * vector/pom.xml), so kernels meet remainders of every length.
     */
    @Property(tries = 40)
    void broadShapesMatchReference(@ForAll("broadPairs") Tuple.Tuple2<ArrayShape, ArrayShape> pair) {
        check(pair.get1(), pair.get2());
    }

    @Test
    void benchmarkFamiliesUseFastKernels() {
        String[][] cases = {
            {"f32[64,48]{1,0}", "f32[64,48]{0,1}"},
            {"bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)}"},
            {"bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}"},
            {"bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0}"},
            {"f32[8,16,32]{2,1,0}", "f32[8,16,32]{0,1,2}"},
            {"f32[8,8,8,8]{3,2,1,0}", "f32[8,8,8,8]{1,0,3,2}"},
        };
        for (String[] c : cases) {
            ArrayShape a = ArrayShape.parse(c[0]);
            ArrayShape b = ArrayShape.parse(c[1]);
            assertTrue(Relayout.plan(a, b).isFast(), c[0] + " -> " + c[1]);
            check(a, b);
        }
    }

    @Test
    void channelsFirstAndChannelsLastMatchReference() {
        String[][] cases = {
            {"f32[3,1000]{1,0}", "f32[3,1000]{0,1}"},
            {"f32[1000,3]{1,0}", "f32[1000,3]{0,1}"},
            {"bf16[5,333]{1,0}", "bf16[5,333]{0,1}"},
            {"bf16[333,5]{1,0}", "bf16[333,5]{0,1}"},
            {"s32[2,40,20,3]{3,2,1,0}", "s32[2,40,20,3]{1,0,3,2}"},   // NHWC -> NCHW
            {"s32[2,3,40,20]{3,2,1,0}", "s32[2,3,40,20]{1,3,2,0}"},   // NCHW -> NHWC
            {"f16[4,7,9]{2,1,0}", "f16[4,7,9]{1,2,0}"},
            {"f32[15,64]{1,0}", "f32[15,64]{0,1}"},
            {"u16[31,70]{1,0}", "u16[31,70]{0,1}"},
        };
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            for (String[] c : cases) {
                ArrayShape a = ArrayShape.parse(c[0]);
                ArrayShape b = ArrayShape.parse(c[1]);
                check(a, b);
                checkPlan(a, b, Relayout.plan(a, b, Planning.ESTIMATE, 3), pool, 3);
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void partialTilesAndPaddingValues() {
        String[][] cases = {
            {"f32[3,5]{1,0}", "f32[3,5]{1,0:T(2,2)}"},
            {"f32[3,5]{1,0:T(2,2)}", "f32[3,5]{0,1}"},
            {"bf16[13,300]{0,1}", "bf16[13,300]{1,0:T(8,128)(2,1)}"},
            {"f32[2,3]{1,0}", "f32[2,3]{0,1:PAD(3,5:highest)}"},
            {"s8[2,3]{1,0}", "s8[2,3]{0,1:PAD(4,4:lowest)}"},
            {"f32[2,3]{1,0}", "f32[2,3]{1,0:T(2,2)L(16)}"},
            {"f32[2,7,8,11,10]{4,3,2,1,0}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"},
            {"s4[9,37]{1,0}", "s4[9,37]{1,0:T(2,128)E(4)}"},
            {"s4[9,37]{0,1:E(4)}", "s4[9,37]{1,0}"},
            {"u8[]", "u8[]{:T(128)}"},
            {"f32[0,5]{1,0}", "f32[0,5]{0,1}"},
        };
        for (String[] c : cases) {
            check(ArrayShape.parse(c[0]), ArrayShape.parse(c[1]));
        }
    }

    @Test
    void packingKernelsMatchReference() {
        for (String t : new String[] {"s4", "u4", "f4e2m1fn", "s2"}) {
            for (String dims : new String[] {"[1000]", "[7,129]", "[3,64]", "[1]"}) {
                ArrayShape packed = ArrayShape.parse(t + dims + (dims.contains(",") ? "{1,0:E(4)}" : "{0:E(4)}"));
                ArrayShape bytes = ArrayShape.parse(t + dims);
                if (t.equals("s2") || t.equals("f4e2m1fn")) {
                    check(bytes, packed);
                    check(packed, bytes);
                    continue;
                }
                assertTrue(Relayout.plan(bytes, packed).isFast(), packed.toString());
                assertTrue(Relayout.plan(packed, bytes).isFast(), packed.toString());
                check(bytes, packed);
                check(packed, bytes);
            }
        }
    }

    public static void check(ArrayShape from, ArrayShape to) {
        checkPlan(from, to, Relayout.plan(from, to));
    }

    /** {@code plan} (from {@code from} to {@code to}) against the reference, over garbage-filled buffers. */
    public static void checkPlan(ArrayShape from, ArrayShape to, RelayoutPlan plan) {
        checkPlan(from, to, plan, null, 1);
    }

    /**
     * {@code plan} against the reference, cut between {@code threads} tasks of {@code executor}
     * whatever the size (null: on this thread).
     */
    public static void checkPlan(ArrayShape from, ArrayShape to, RelayoutPlan plan, java.util.concurrent.ExecutorService executor,
                          int threads) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(Math.max(1, from.bufferSize()));
            Random r = new Random(from.hashCode() * 31L + to.hashCode());
            for (long i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
            }
            MemorySegment fast = arena.allocate(Math.max(1, to.bufferSize()));
            MemorySegment ref = arena.allocate(Math.max(1, to.bufferSize()));
            fast.fill((byte) 0xA5);
            ref.fill((byte) 0x5A);
            plan.execute(src, fast, executor, threads, 0);
            ReferenceRelayout.copy(from, src, to, ref);
            long n = to.bufferSize();
            assertArrayEquals(ref.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), fast.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE),
                    () -> from + " -> " + to + " on " + threads + " thread(s) via " + plan.describe());
        }
    }

    @Provide
    Arbitrary<ElementType> realTypes() {
        return Arbitraries.of(ElementType.F32, ElementType.BF16, ElementType.F16, ElementType.S32, ElementType.U8,
                ElementType.F8E5M2, ElementType.S4, ElementType.PRED, ElementType.F64);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<ArrayShape, ArrayShape>> pairs() {
        Arbitrary<long[]> dims = Arbitraries.longs().between(1, 12).array(long[].class).ofMinSize(0).ofMaxSize(4);
        Arbitrary<ElementType> types = Arbitraries.of(TYPES);
        return Combinators.combine(dims, types, Arbitraries.longs().between(0, Long.MAX_VALUE))
                .as((d, t, seed) -> {
                    Random r = new Random(seed);
                    return Tuple.of(randomShape(t, d, r), randomShape(t, d, r));
                });
    }

    static final long BROAD_MAX_SLOTS = 1 << 15;
    private static final ElementType[] BROAD_TYPES = {ElementType.PRED, ElementType.U8, ElementType.S8,
        ElementType.F8E5M2, ElementType.BF16, ElementType.S16, ElementType.F32, ElementType.U32, ElementType.F64,
        ElementType.S64, ElementType.C64, ElementType.C128, ElementType.S4, ElementType.U2, ElementType.U1};

    @Provide
    Arbitrary<Tuple.Tuple2<ArrayShape, ArrayShape>> broadPairs() {
        return Arbitraries.randomValue(r -> {
            ElementType t = BROAD_TYPES[r.nextInt(BROAD_TYPES.length)];
            long[] dims = broadDims(r);
            while (true) {
                ArrayShape a = broadShape(t, dims, r);
                ArrayShape b = broadShape(t, dims, r);
                if (a.slotCount() <= BROAD_MAX_SLOTS && b.slotCount() <= BROAD_MAX_SLOTS) {
                    return Tuple.of(a, b);
                }
            }
        });
    }

    /** Rank 0..6; each size 0 (rarely), 1, or up to 100, halved until the array has at most 8192 elements. */
    static long[] broadDims(Random r) {
        long[] dims = new long[r.nextInt(7)];
        for (int d = 0; d < dims.length; d++) {
            int k = r.nextInt(20);
            dims[d] = k == 0 ? 0 : k < 4 ? 1 : 2 + r.nextInt(99);
        }
        while (true) {
            long n = 1;
            int largest = 0;
            for (int d = 0; d < dims.length; d++) {
                n *= dims[d];
                if (dims[d] > dims[largest]) {
                    largest = d;
                }
            }
            if (n <= 8192) {
                return dims;
            }
            dims[largest] = (dims[largest] + 1) / 2;
        }
    }

    /** A layout for {@code dims}: any order; untiled, one to three tiles ('*' anywhere but last), or legacy padding. */
    public static ArrayShape broadShape(ElementType t, long[] dims, Random r) {
        int rank = dims.length;
        Layout l = Layout.of(Permutations.shuffled(r, rank));
        switch (r.nextInt(5)) {
            case 0 -> { }
            case 1, 2, 3 -> {
                Tile[] tiles = new Tile[1 + r.nextInt(3)];
                for (int i = 0; i < tiles.length; i++) {
                    long[] tile = new long[1 + r.nextInt(Math.min(4, rank + 2))];
                    for (int k = 0; k < tile.length; k++) {
                        int c = r.nextInt(12);
                        tile[k] = k < tile.length - 1 && c == 0 ? Tile.COMBINE
                                : c == 1 ? 128 : c == 2 ? 3 + r.nextInt(3) : 1L << r.nextInt(4);
                    }
                    tiles[i] = Tile.of(tile);
                }
                l = l.withTiles(tiles);
                if (r.nextInt(3) == 0) {
                    l = l.withTailPaddingAlignment(1 + r.nextInt(16));
                }
            }
            default -> {
                if (rank > 0) {
                    long[] p = dims.clone();
                    for (int i = 0; i < rank; i++) {
                        p[i] += r.nextInt(4);
                    }
                    l = l.withPaddedDimensions(PaddingValue.values()[r.nextInt(PaddingValue.values().length)], p);
                }
            }
        }
        if (t.isSubByte() && r.nextBoolean()) {
            long[] widths = t.bitWidth() == 1 ? new long[] {1, 2, 4, 8} : t.bitWidth() == 2 ? new long[] {2, 4, 8}
                    : new long[] {4, 8};
            l = l.withElementSizeInBits(widths[r.nextInt(widths.length)]);
        }
        return ArrayShape.of(t, dims).withLayout(l);
    }

    public static ArrayShape randomShape(ElementType t, long[] dims, Random r) {
        int rank = dims.length;
        Layout l = Layout.of(Permutations.shuffled(r, rank));
        int kind = r.nextInt(6);
        if (kind == 1 || kind == 2) {
            int k = 1 + r.nextInt(Math.max(1, Math.min(3, rank + 1)));
            long[] t1 = new long[k];
            for (int i = 0; i < k; i++) {
                t1[i] = 1L << r.nextInt(4);
            }
            if (kind == 2 && k >= 2) {
                long[] t2 = new long[2];
                t2[0] = Math.max(1, t1[k - 2] >> r.nextInt(2));
                t2[1] = 1;
                l = l.withTiles(Tile.of(t1), Tile.of(t2));
            } else {
                l = l.withTiles(Tile.of(t1));
            }
            if (r.nextInt(3) == 0) {
                l = l.withTailPaddingAlignment(1 + r.nextInt(9));
            }
        } else if (kind == 3 && rank > 0) {
            long[] p = dims.clone();
            for (int i = 0; i < rank; i++) {
                p[i] += r.nextInt(3);
            }
            l = l.withPaddedDimensions(PaddingValue.values()[r.nextInt(PaddingValue.values().length)], p);
        } else if (kind == 4 && rank >= 2) {
            long[] t1 = new long[rank];
            for (int i = 0; i < rank; i++) {
                t1[i] = i < rank - 1 && r.nextBoolean() ? Tile.COMBINE : 1 + r.nextInt(4);
            }
            l = l.withTiles(Tile.of(t1));
        }
        if (t.isSubByte() && r.nextBoolean()) {
            long[] widths = t.bitWidth() == 1 ? new long[] {1, 2, 4} : t.bitWidth() == 2 ? new long[] {2, 4} : new long[] {4};
            l = l.withElementSizeInBits(widths[r.nextInt(widths.length)]);
        }
        return ArrayShape.of(t, dims).withLayout(l);
    }
}
