package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small examples quoted in docs/*.md, so the docs cannot drift from the code. */
class DocExamplesTest {

    private static List<String> visit(java.util.function.Consumer<java.util.function.Consumer<long[]>> walk) {
        List<String> out = new ArrayList<>();
        walk.accept(i -> out.add(Arrays.toString(i)));
        return out;
    }

    @Test
    void iterationOrdersOfShapesAndLayoutsMd() {
        ArrayShape s = ArrayShape.parse("f32[2,3]{0,1}");
        assertEquals(List.of("[0, 0]", "[0, 1]", "[0, 2]", "[1, 0]", "[1, 1]", "[1, 2]"), visit(s::forEachIndex));
        List<String> columnFirst = List.of("[0, 0]", "[1, 0]", "[0, 1]", "[1, 1]", "[0, 2]", "[1, 2]");
        assertEquals(columnFirst, visit(s::forEachIndexInLayoutOrder));
        assertEquals(columnFirst, visit(s::forEachIndexInMemoryOrder));
        ArrayShape tiled = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
        assertEquals(List.of("[0, 0]", "[0, 1]", "[1, 0]", "[1, 1]", "[0, 2]"),
                visit(tiled::forEachIndexInMemoryOrder).subList(0, 5));
    }

    @Test
    void parseErrorExample() {
        ShapeParseException e = assertThrows(ShapeParseException.class, () -> Shape.parse("f32[2x3]"));
        assertEquals(4, e.offset());
        assertEquals("at offset 4: expected an integer (dimension size), found '2x3' in 'f32[2x3]'", e.getMessage());
        assertEquals("f32[2x3]\n    ^", e.caretDiagram());
    }

    @Test
    void layoutBuilderExample() {
        ArrayShape s = ArrayShape.of(ElementType.BF16, 8, 128)
                .withLayout(Layout.rowMajor(2).withTiles(Tile.of(8, 128), Tile.of(2, 1)).withMemorySpace(1));
        assertEquals("bf16[8,128]{1,0:T(8,128)(2,1)S(1)}", s.toString());
        assertEquals("f32[2,3]{1,0}", Shape.parse(" f32 [ 2 , /* c */ 3 ] { 1 , 0 }").toString());
        assertEquals("f32[2,3]{1,0}", Shape.parse("f32[2,3]{1,0:L(1)E(0)}").toString());
    }

    @Test
    void outOfBoundsMessage() {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> ArrayShape.of(ElementType.F32, 2, 3).linearIndex(2, 0));
        assertEquals("index [2, 0] is out of bounds for f32[2,3]", e.getMessage());
    }

    @Test
    void validationMdDecisions() {
        // extreme integers are the stored forms of '*' and '?', as in XLA
        assertEquals("f32[2,2]{1,0:T(2,*)}", Shape.parse("f32[2,2]{1,0:T(2,-9223372036854775808)}", Validation.XLA)
                .toString());
        assertEquals("f32[?]{0}", Shape.parse("f32[<=-9223372036854775808]").toString());
        // element type check
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.of(ElementType.TUPLE, 2));
        assertEquals("Invalid element type: tuple cannot be an array element type.", e.getMessage());
        // E(n) choices
        Shape.parse("f32[2]{0:E(32)}");
        Shape.parse("s4[2]{0:E(8)}");
        Shape.parse("pred[2]{0:E(1)}");
        Shape.parse("u1[2]{0:E(1)}");
        Shape.parse("u2[2]{0:E(4)}");
        assertThrows(IllegalArgumentException.class, () -> Shape.parse("u2[2]{0:E(1)}"));
        assertEquals("f32[2]{0:E(12)}", Shape.parse("f32[2]{0:E(12)}", Validation.XLA).toString());
        // S(n): -128..127 (XLA's 8 bits) kept as read below STRICT; outside it refused at every level
        assertEquals("f32[2]{0:S(-128)}", Shape.parse("f32[2]{0:S(-128)}", Validation.XLA).toString());
        assertThrows(ShapeParseException.class, () -> Shape.parse("f32[2]{0:S(128)}", Validation.NONE));
        // tuples validate their elements at the XLA level, even at NONE
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class,
                () -> Shape.parse("(f32[2,3]{1,1})", Validation.NONE));
        assertEquals(true, t.getMessage().startsWith("tuple element 0"), t.getMessage());
    }
}
