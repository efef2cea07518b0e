package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Shape and layout text that parses but fails validation is reported like text that does not
 * parse: an {@link InvalidShapeException} with the character offset of the offending entry, tile
 * size or attribute, and the same words whichever way the layout came in ({@link ArrayShape#parse},
 * {@link Layout#parse} then {@link ArrayShape#withLayout}).
 */
class ShapeMessageOffsetsTest {
    @Test
    void aLayoutOfTheWrongRankIsWordedAlikeThroughEveryEntryPoint() {
        String words = "layout minor_to_major field contains 3 elements, but shape has 2 dimensions: {1,0,2}";
        ShapeParseException parsed = assertThrows(ShapeParseException.class, () -> ArrayShape.parse("f32[2,3]{1,0,2}"));
        assertEquals(words, parsed.expected());
        assertEquals(8, parsed.offset());
        IllegalArgumentException attached = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.parse("f32[2,3]").withLayout(Layout.parse("{1,0,2}")));
        assertTrue(attached.getMessage().startsWith(words), attached.getMessage());
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.of(ElementType.F32, 2, 3).withLayout(Layout.of(1, 0, 2)));
        assertTrue(built.getMessage().startsWith(words), built.getMessage());
    }

    @ParameterizedTest(name = "[{0}] at {1}")
    @CsvSource(delimiter = '|', value = {
            // the second of two equal entries, an entry out of range
            "f32[2,3]{0,0}                | 11 | layout minor_to_major field has duplicate values: {0,0}",
            "f32[2,3]{ 1 , 1 }            | 14 | duplicate values",
            "f32[2,3]{1,5}                | 11 | out-of-bounds value 5",
            "f32[2,3]{-1,0}               | 9  | out-of-bounds value -1",
            // the tile size below 1, the empty tile
            "f32[2,3]{1,0:T(0,128)}       | 15 | tile dimension 0 at index 0 of tile T(0,128)",
            "f32[2,3]{1,0:T(8,0)}         | 17 | tile dimension 0 at index 1 of tile T(8,0)",
            "f32[2,3]{1,0:T(2,2)(0)}      | 20 | tile dimension 0 at index 0 of tile T(0)",
            "f32[2]{0:T()}                | 10 | tile has no dimensions",
            // the attribute the problem names
            "s4[4]{0:E(3)}                | 8  | element_size_in_bits field is 3",
            "f32[2]{0:S(-1)}              | 9  | memory_space field is -1",
            "f32[2]{0:M(-1)}              | 9  | dynamic_shape_metadata_prefix_bytes field is negative",
            "f32[8,4]{1,0:SC(2:1)}        | 13 | physical dimension 2 is out of range",
            "f32[2,3]{1,0:PAD(1,3)}       | 13 | dimension padding (1) is smaller",
            // a problem of the sizes: the start of the shape
            "'  f32[4611686018427387904,4]' | 2 | Dimensions overflow",
    })
    void aShapeThatFailsValidationNamesTheOffsetOfItsFault(String text, int offset, String fragment) {
        InvalidShapeException e = assertThrows(InvalidShapeException.class, () -> ArrayShape.parse(text));
        assertEquals(offset, e.offset(), e::getMessage);
        assertEquals(text, e.text());
        assertTrue(e.problem().contains(fragment), e::getMessage);
        assertTrue(e.getMessage().startsWith("at offset " + offset + ": "), e::getMessage);
        assertTrue(e.caretDiagram().endsWith("\n" + " ".repeat(offset) + "^"));
    }

    @ParameterizedTest(name = "[{0}] at {1}")
    @CsvSource(delimiter = '|', value = {
            "{0,0}              | 3 | duplicate values: {0,0}",
            "{1,0:T(0,128)}     | 7 | tile dimension 0 at index 0",
            "{1,-1}             | 3 | out-of-bounds value -1",
            "{0:E(-1)}          | 3 | element_size_in_bits field is negative",
    })
    void aLayoutThatFailsValidationNamesTheOffsetOfItsFault(String text, int offset, String fragment) {
        InvalidShapeException e = assertThrows(InvalidShapeException.class, () -> Layout.parse(text));
        assertEquals(offset, e.offset(), e::getMessage);
        assertTrue(e.problem().contains(fragment), e::getMessage);
    }

    @Test
    void theSameProblemReadsTheSameFromTextAndFromCode() {
        InvalidShapeException fromText = assertThrows(InvalidShapeException.class, () -> ArrayShape.parse("f32[2,3]{1,1}"));
        IllegalArgumentException fromCode = assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.unchecked(ElementType.F32, new long[] {2, 3}, new boolean[2], Layout.unchecked(new int[] {1, 1}))
                        .bufferSize());
        assertEquals(fromCode.getMessage(), fromText.problem());
    }
}
