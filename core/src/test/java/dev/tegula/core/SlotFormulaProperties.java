package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The digit-term formula agrees with the general algorithm wherever it exists. */
class SlotFormulaProperties {

    @Property(tries = 300)
    void formulaEqualsLinearIndex(@ForAll("tiledShapes") ArrayShape shape) {
        Optional<SlotFormula> f = SlotFormula.of(shape);
        f.ifPresent(formula -> shape.forEachIndex(idx ->
                assertEquals(shape.linearIndex(idx), formula.slot(idx), () -> shape + " at " + java.util.Arrays.toString(idx))));
    }

    @Test
    void commonLayoutsHaveAFormula() {
        for (String s : new String[] {"f32[3,5]{1,0:T(2,2)}", "bf16[4,8]{1,0:T(2,4)(2,1)}", "f32[3,100]{1,0:T(8,128)}",
                "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,5)}",
                "f32[8]{0:T(2,2)}", "u32[]{:T(128)}", "f32[2,3]{0,1:PAD(3,5:zero)}", "bf16[8,8]{1,0:T(2,4)(2,1,1,1)}"}) {
            assertTrue(SlotFormula.of(ArrayShape.parse(s)).isPresent(), s);
        }
    }

    @Test
    void unevenNestedTileHasNoFormula() {
        // (3,1) cuts the 4-row digit of T(4,4) unevenly: 4 is not a multiple of 3
        assertTrue(SlotFormula.of(ArrayShape.parse("f32[8,8]{1,0:T(4,4)(3,1)}")).isEmpty());
        // spec example E: the merged 11x10 column (11*10 + j) split by 3 mixes both dimensions
        assertTrue(SlotFormula.of(ArrayShape.parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")).isEmpty());
    }

    @Provide
    Arbitrary<ArrayShape> tiledShapes() {
        Arbitrary<long[]> dims = Arbitraries.longs().between(1, 9).array(long[].class).ofMinSize(1).ofMaxSize(4);
        return dims.flatMap(d -> {
            Arbitrary<int[]> perm = Arbitraries.shuffle(java.util.stream.IntStream.range(0, d.length).boxed().toList())
                    .map(l -> l.stream().mapToInt(Integer::intValue).toArray());
            Arbitrary<Tile> t1 = Arbitraries.longs().between(1, 4).array(long[].class).ofMinSize(1).ofMaxSize(3).map(Tile::of);
            Arbitrary<Tile> t2 = Arbitraries.longs().between(1, 4).array(long[].class).ofMinSize(1).ofMaxSize(2).map(Tile::of);
            Arbitrary<Integer> nTiles = Arbitraries.integers().between(0, 2);
            return Combinators.combine(perm, t1, t2, nTiles).as((p, a, b, n) -> {
                Layout l = Layout.of(p);
                l = n == 0 ? l : n == 1 ? l.withTiles(a) : l.withTiles(a, b);
                return ArrayShape.of(ElementType.F32, d).withLayout(l);
            });
        });
    }
}
