package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Layout#parse(String)} reads a layout on its own and {@link ArrayShape#parse(String)} reads
 * text that must be an array shape: what each accepts, and how each refuses (offsets and fields).
 */
class LayoutTextTest {

    @Test
    void aLayoutInBracesParsesToTheLayoutTheFactoriesBuild() {
        assertEquals(Layout.of(1, 0).withTiles(Tile.of(8, 128), Tile.of(2, 1)), Layout.parse("{1,0:T(8,128)(2,1)}"));
        assertEquals(Layout.columnMajor(3).withMemorySpace(1).withElementSizeInBits(4),
                Layout.parse(" { 0, 1, 2 : E(4) S(1) } "));
        assertEquals(Layout.of(1, 0).withPaddedDimensions(PaddingValue.ONE, 3, 5), Layout.parse("{1,0:PAD(3,5:one)}"));
        assertEquals(Layout.of(4, 3, 2, 1, 0).withTiles(Tile.of(Tile.COMBINE, Tile.COMBINE, 2, Tile.COMBINE, 3)),
                Layout.parse("{4,3,2,1,0:T(*,*,2,*,3)}"));
    }

    @Test
    void theRankIsTheNumberOfMinorToMajorEntries() {
        assertEquals(Layout.rowMajor(0), Layout.parse("{}"));
        assertEquals(0, Layout.parse("{:T(128)}").rank());
        assertEquals(4, Layout.parse("{3,2,0,1:T(8,128)(2,1)S(1)}").rank());
    }

    @Test
    void aParsedLayoutGivesAShapeItsLayoutWithoutPrintingTheShape() {
        ArrayShape plain = ArrayShape.of(ElementType.BF16, 8, 1, 1280, 16384);
        ArrayShape tpu = plain.withLayout(Layout.parse("{3,2,0,1:T(8,128)(2,1)S(1)}"));
        assertEquals(ArrayShape.parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"), tpu);
        assertEquals(63178841, tpu.linearIndex(3, 0, 17, 300), "spec example D");
    }

    @Test
    void thePrintedLayoutParsesBack() {
        for (String text : new String[] {"{1,0:T(2,2)}", "{0,1:T(2,4)(2,1)L(16)E(4)S(5)SC(0:1,2)M(8)}", "{}",
                "{:T(128)}", "{0,1:PAD(3,5:zero)}", "{2,0,1}"}) {
            Layout l = Layout.parse(text);
            assertEquals(text, l.toString());
            assertEquals(l, Layout.parse(l.toString()));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1,0:T(2,2)}|0|expected '{'",
        "{1,0:T(2,2)|11|expects layout to end with '}'",
        "{1,0} x|6|Extra content after layout",
        "f32[2,3]{1,0}|0|expected '{'",
        "{1,0:T(2,-2)}|9|tile size -2 is negative",
        "{1,0:L(0)}|7|tail padding alignment must be positive",
        "{1,0:P(f32[2])}|5|physical shape"})
    void textThatIsNotALayoutIsRefusedAtItsOffset(String text, int offset, String fragment) {
        ShapeParseException e = assertThrows(ShapeParseException.class, () -> Layout.parse(text));
        assertEquals(offset, e.offset(), e::getMessage);
        assertTrue(e.getMessage().contains(fragment), e::getMessage);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{1,1}|duplicate values",
        "{0,2}|out-of-bounds value 2",
        "{1,0:T(2,0)}|tile dimension 0",
        "{1,0:T(2,*)}|ends with '*'",
        "{1,0:E(-1)}|element_size_in_bits field is negative: -1",
        "{1,0:S(-1)}|memory_space field is -1",
        "{1,0:M(-3)}|dynamic_shape_metadata_prefix_bytes field is negative: -3",
        "{1,0:#(u32)}|index_primitive_type",
        "{1,0:PAD(3)}|1 padded dimensions, but minor_to_major has 2 entries",
        "{1,0:PAD(3,-5)}|padded_dimensions[1] is negative: -5",
        "{1,0:T(2,2)PAD(3,5)}|both padded_dimensions"})
    void layoutsThatFailAShapeFreeCheckAreRefusedNamingTheField(String text, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Layout.parse(text));
        assertTrue(!(e instanceof ShapeParseException), e::getMessage);
        assertTrue(e.getMessage().contains(fragment), e::getMessage);
    }

    @Test
    void checksThatNeedTheShapeHappenWhenTheLayoutIsAttached() {
        Layout packed = Layout.parse("{1,0:E(4)}");
        assertEquals(4, ArrayShape.of(ElementType.S4, 2, 3).withLayout(packed).slotBits());
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.of(ElementType.F32, 2, 3).withLayout(packed));
        assertTrue(wide.getMessage().contains("element_size_in_bits field is 4"), wide::getMessage);
        Layout split = Layout.parse("{1,0:SC(0:5)}");
        assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(ElementType.F32, 4, 3).withLayout(split));
        assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(ElementType.F32, 4).withLayout(Layout.parse("{1,0}")));
    }

    @Test
    void arrayShapeParseReturnsTheArrayShapeParses() {
        ArrayShape s = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
        assertEquals(Shape.parse("f32[3,5]{1,0:T(2,2)}"), s);
        assertEquals(17, s.linearIndex(2, 3), "spec example A");
        assertEquals(Layout.rowMajor(2), ArrayShape.parse("f32[3,5]").layout());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "(f32[2], s32[])|0|found a tuple",
        "'  b(f32[2])'|2|found a buffer",
        "token[]|0|found a token",
        "opaque[]|0|found an opaque shape"})
    void arrayShapeParseRefusesOtherShapesAtTheirFirstCharacter(String text, int offset, String fragment) {
        ShapeParseException e = assertThrows(ShapeParseException.class, () -> ArrayShape.parse(text));
        assertEquals(offset, e.offset(), e::getMessage);
        assertTrue(e.getMessage().contains("expected an array shape") && e.getMessage().contains(fragment), e::getMessage);
    }

    @Test
    void arrayShapeParseValidatesAtTheLevelAsked() {
        IllegalArgumentException strict = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.parse("f32[2,3]{1,1}"));
        assertTrue(strict.getMessage().contains("duplicate values"), strict::getMessage);
        ArrayShape loose = ArrayShape.parse("f32[2,3]{1,1}", Validation.NONE);
        assertEquals("f32[2,3]{1,1}", loose.toString());
        ShapeParseException text = assertThrows(ShapeParseException.class, () -> ArrayShape.parse("f32[2,"));
        assertEquals(6, text.offset(), text::getMessage);
    }

    @Test
    void theSlotFormulaIsBuiltOncePerShape() {
        ArrayShape s = ArrayShape.parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
        SlotFormula first = SlotFormula.of(s).orElseThrow();
        assertSame(first, SlotFormula.of(s).orElseThrow(), "the same formula object, not a second one");
        ArrayShape uneven = ArrayShape.parse("f32[8,8]{1,0:T(4,4)(3,1)}");
        assertTrue(SlotFormula.of(uneven).isEmpty());
        assertSame(SlotFormula.of(uneven), SlotFormula.of(uneven), "the empty answer is kept too");
    }
}
