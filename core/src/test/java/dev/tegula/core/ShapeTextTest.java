package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Golden tests of the text form: what parses, and the canonical text it prints as (spec section 3). */
class ShapeTextTest {

    /** text in, canonical text out; the canonical text must then be a fixed point. */
    @ParameterizedTest(name = "{0}  ->  {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "f32[123,456]                                 | f32[123,456]{1,0}",
            "f32[123,456]{0,1}                            | f32[123,456]{0,1}",
            "f32[]                                        | f32[]",
            "f32[]{}                                      | ",          // not a layout: parse fails (see BadInputTest)
            "f32[]{:T(256)}                               | f32[]{:T(256)}",
            "pred[0]                                      | pred[0]{0}",
            "f32[<=4,?,3]                                 | f32[<=4,?,3]{2,1,0}",
            "f32[<=4,?,3]{0,1,2}                          | f32[<=4,?,3]{0,1,2}",
            "token[]                                      | token[]",
            "opaque[]                                     | opaque[]",
            "()                                           | ()",
            "(())                                         | (())",
            "(f32[2], (s8[], token[]), ())                | (f32[2]{0}, (s8[], token[]), ())",
            "b(f32[4]{0})                                 | b(f32[4]{0})",
            "b(f32[4])                                    | b(f32[4]{0})",
            "(b(u8[2,2]), opaque[])                       | (b(u8[2,2]{1,0}), opaque[])",
            "f32[3,5]{1,0:T(2,2)}                         | f32[3,5]{1,0:T(2,2)}",
            "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)} | bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
            "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}     | f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
            "f32[2,3]{1,0:D(D,C+,S~,H+~)T(2,2)}           | f32[2,3]{1,0:T(2,2)}",          // D(...) is dropped
            "f32[2,3]{1,0:D()}                            | f32[2,3]{1,0}",
            "f32[2,3]{1,0:T(2,2)L(1)}                     | f32[2,3]{1,0:T(2,2)}",          // defaults are not printed
            "f32[2,3]{1,0:E(0)S(0)M(0)}                   | f32[2,3]{1,0}",
            "s4[8,128]{1,0:T(8,128)L(1024)E(4)S(1)SC(0:2,5)M(16)} | s4[8,128]{1,0:T(8,128)L(1024)E(4)S(1)SC(0:2,5)M(16)}",
            "f32[8,8]{1,0:SC(0:2,5)(1:4)}                 | f32[8,8]{1,0:SC(0:2,5)(1:4)}",
            "f32[8,8]{1,0:SC(1:)}                         | f32[8,8]{1,0:SC(1:)}",
            "f32[2,3]{0,1:PAD(3,5)}                       | f32[2,3]{0,1:PAD(3,5:zero)}",
            "f32[2,3]{0,1:PAD(2,3:unknown)}               | f32[2,3]{0,1:PAD(2,3:unknown)}",
            "f32[2,3]{0,1:S(5)M(4)PAD(4,4:highest)}       | f32[2,3]{0,1:S(5)M(4)PAD(4,4:highest)}",
            "u32[]{:T(128)}                               | u32[]{:T(128)}",
            "f32[8]{0:T(2,2)}                             | f32[8]{0:T(2,2)}",
    })
    void canonicalText(String in, String out) {
        if (out == null) {
            return;
        }
        Shape s = Shape.parse(in);
        assertEquals(out, s.toString());
        assertEquals(s, Shape.parse(out));
        assertEquals(out, Shape.parse(out).toString());
    }

    @Test
    void tupleIndexCommentsEveryFifthElement() {
        List<Shape> elements = new ArrayList<>();
        StringBuilder in = new StringBuilder("(");
        for (int i = 0; i < 12; i++) {
            elements.add(ArrayShape.of(ElementType.F32, i + 1));
            in.append(i == 0 ? "" : ",").append("f32[").append(i + 1).append(']');
        }
        in.append(')');
        String expected = "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0}, "
                + "f32[7]{0}, f32[8]{0}, f32[9]{0}, f32[10]{0}, /*index=10*/f32[11]{0}, f32[12]{0})";
        TupleShape t = TupleShape.of(elements);
        assertEquals(expected, t.toString());
        assertEquals(t, Shape.parse(in.toString()));
        assertEquals(t, Shape.parse(expected), "the printed comments are skipped on parse");
        assertEquals("(f32[1], f32[2], f32[3], f32[4], f32[5], /*index=5*/f32[6], f32[7], f32[8], f32[9], "
                + "f32[10], /*index=10*/f32[11], f32[12])", t.toStringWithoutLayout());
        assertEquals("(token[], token[], token[], token[], token[], /*index=5*/token[])",
                Shape.parse("(token[],token[],token[],token[],token[],token[])").toString());
    }

    @Test
    void nestedTupleKeepsItsOwnIndexComments() {
        String text = "((f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]), s8[], s8[], s8[], s8[], "
                + "/*index=5*/token[])";
        Shape s = Shape.parse(text);
        assertEquals(text, s.toString());
        TupleShape t = (TupleShape) s;
        assertEquals(6, t.size());
        assertEquals(6, ((TupleShape) t.element(0)).size());
        assertSame(TokenShape.INSTANCE, t.element(5));
    }

    @Test
    void withoutLayoutOmitsEveryBrace() {
        assertEquals("f32[3,5]", Shape.parse("f32[3,5]{1,0:T(2,2)}").toStringWithoutLayout());
        assertEquals("(f32[2], b(s4[8]))", Shape.parse("(f32[2]{0}, b(s4[8]{0:E(4)}))").toStringWithoutLayout());
        assertEquals("f32[]", Shape.parse("f32[]{:T(256)}").toStringWithoutLayout());
    }

    @Test
    void whitespaceAndCommentsBetweenAnyTokens() {
        String messy = " /*lead*/ f32 [ 2 , // line comment\n 3 ] { 1 /*x*/, 0 : T ( 2 , 2 ) ( 2 , 1 ) L ( 4 ) "
                + "E( 32 ) S /*s*/ ( 1 ) SC ( 0 : 1 ) M ( 8 ) } // trailing\n ";
        assertEquals("f32[2,3]{1,0:T(2,2)(2,1)L(4)E(32)S(1)SC(0:1)M(8)}", Shape.parse(messy).toString());
        assertEquals("(f32[2]{0}, token[])", Shape.parse("(\n\tf32[2]\t,\r\n token [ ] /* done */ )").toString());
        assertEquals("b(f32[4]{0})", Shape.parse("b /*c*/ ( f32[4] )").toString());
        assertEquals("f32[<=4]{0}", Shape.parse("f32[ <= 4 ]").toString());
        assertEquals("f32[2]{0:PAD(3:one)}", Shape.parse("f32[2]{0:PAD( 3 : one )}").toString());
        assertEquals("f32[2,2]{1,0:T(*,2)}", Shape.parse("f32[2,2]{1,0:T( * , 2 )}").toString());
    }

    @Test
    void sparseOnlyAttributesParseAndPrintWithValidationNone() {
        String text = "f32[2,3]{1,0:T(2,2)L(4)#(u32)*(u16)E(32)S(1)SC(0:1)M(8)}";
        Shape s = Shape.parse(text, Validation.NONE);
        assertEquals(text, s.toString());
        assertEquals(s, Shape.parse(text, Validation.NONE));
        Layout l = ((ArrayShape) s).layout();
        assertSame(ElementType.U32, l.indexPrimitiveType());
        assertSame(ElementType.U16, l.pointerPrimitiveType());
        assertNull(l.physicalShape(), "P(...) is refused by the parser, as in XLA");
        assertEquals(List.of(Tile.of(2, 2)), l.tiles());
        assertEquals(4, l.tailPaddingAlignment());
        assertEquals(32, l.elementSizeInBits());
        assertEquals(1, l.memorySpace());
        assertEquals(List.of(SplitConfig.of(0, 1)), l.splitConfigs());
        assertEquals(8, l.dynamicShapeMetadataPrefixBytes());
    }

    @Test
    void combineDimensionIsLongMinValue() {
        ArrayShape s = ArrayShape.parse("f32[4,4,4]{2,1,0:T(*,2,2)}");
        Tile t = s.layout().tiles().get(0);
        assertArrayEquals(new long[] {Tile.COMBINE, 2, 2}, t.dimensions());
        assertEquals(Long.MIN_VALUE, Tile.COMBINE);
        assertTrue(t.hasCombinedDimensions());
        assertEquals(4, t.elementCount());
        assertEquals("(*,2,2)", t.toString());
        assertEquals(s, ArrayShape.of(ElementType.F32, 4, 4, 4)
                .withLayout(Layout.rowMajor(3).withTiles(Tile.of(Tile.COMBINE, 2, 2))));
    }

    @Test
    void dynamicDimensions() {
        ArrayShape s = ArrayShape.parse("f32[<=4,?,3]");
        assertTrue(s.isDynamicDimension(0));
        assertEquals(4, s.dimension(0));
        assertTrue(s.isUnboundedDimension(1));
        assertEquals(ArrayShape.UNBOUNDED_SIZE, s.dimension(1));
        assertEquals(Long.MIN_VALUE, ArrayShape.UNBOUNDED_SIZE);
        assertTrue(!s.isDynamicDimension(2) && !s.isStatic() && !s.isStaticOrBounded());
        assertEquals(s, ArrayShape.ofDynamic(ElementType.F32, new long[] {4, ArrayShape.UNBOUNDED_SIZE, 3},
                new boolean[] {true, true, false}));
        assertNotEquals(Shape.parse("f32[<=4]"), Shape.parse("f32[4]"), "dynamic flag is part of equality");
        assertEquals("f32[<=4,?,3]", s.toStringWithoutLayout());
    }

    @Test
    void equalityIncludesMetadataPrefixUnlikeXla() {
        // decision (docs/validation.md): Tegula's equality is that of the printed text, M(n) included
        assertNotEquals(Shape.parse("f32[2]{0:M(8)}"), Shape.parse("f32[2]{0}"));
        assertNotEquals(Shape.parse("f32[2]{0:E(32)}"), Shape.parse("f32[2]{0}"), "E(32) is kept, as XLA's parser does");
        assertNotEquals(Shape.parse("f32[2,3]{1,0:L(16)}"), Shape.parse("f32[2,3]{1,0}"), "ignored L(n) still counts");
        assertNotEquals(Shape.parse("f32[2]{0:PAD(3:zero)}"), Shape.parse("f32[2]{0:PAD(3:one)}"));
        assertEquals(Shape.parse("f32[2,3]{1,0:D(D,D)}"), Shape.parse("f32[2,3]"), "D(...) is dropped");
        ArrayShape a = ArrayShape.parse("f32[2,3]{0,1}");
        ArrayShape b = ArrayShape.parse("f32[2,3]{1,0}");
        assertNotEquals(a, b);
        assertTrue(a.equalsIgnoringLayout(b));
    }

    @Test
    void paddingValueNames() {
        for (PaddingValue v : PaddingValue.values()) {
            ArrayShape s = ArrayShape.parse("f32[2]{0:PAD(4:" + v.textName() + ")}");
            assertSame(v, s.layout().paddingValue());
            assertEquals("f32[2]{0:PAD(4:" + v.textName() + ")}", s.toString());
        }
        assertEquals(List.of("invalid", "zero", "one", "lowest", "highest", "unknown"),
                java.util.Arrays.stream(PaddingValue.values()).map(PaddingValue::textName).toList());
        assertEquals(List.of(0, 1, 2, 3, 4, 5),
                java.util.Arrays.stream(PaddingValue.values()).map(PaddingValue::protoNumber).toList());
        assertNull(PaddingValue.fromTextName("ZERO"));
    }

    @Test
    void scalarPrintingRule() {
        assertEquals("f32[]", ArrayShape.of(ElementType.F32).toString());
        assertEquals("f32[]{:S(1)}", ArrayShape.of(ElementType.F32).withLayout(Layout.of().withMemorySpace(1)).toString());
        assertEquals("s4[]{:E(4)}", Shape.parse("s4[]{:E(4)}").toString());
        assertEquals("{}", Layout.of().toString());
        assertEquals("{1,0:T(8,128)(2,1)}", Layout.rowMajor(2).withTiles(Tile.of(8, 128), Tile.of(2, 1)).toString());
        assertInstanceOf(ArrayShape.class, Shape.parse("f32[]"));
    }
}
