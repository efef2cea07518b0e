package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text parser refuses what XLA's parser refuses (or crashes on), at every validation level:
 * nesting past the cap ends in a parse error at the first level too many (not a
 * {@link StackOverflowError}), only ASCII digits are digits, and negative sizes, {@code P(...)} on a
 * dense array, negative tile sizes, a non-positive {@code L(n)} and memory spaces beyond 8 bits
 * are errors with their offset.
 */
class ShapeTextRefusalsTest {
    /** Shape.MAX_NESTING_DEPTH, the cap of JSON and .npy headers too. */
    private static final int DEPTH = 64;

    private static void assertRefusedEverywhere(String text, int offset, String fragment) {
        for (Validation level : Validation.values()) {
            ShapeParseException e = assertThrows(ShapeParseException.class, () -> Shape.parse(text, level),
                    () -> level + " must refuse " + text);
            assertEquals(offset, e.offset(), e::getMessage);
            assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' lacks '" + fragment + "'");
        }
    }

    // ---- nesting depth ---------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {65, 100, 2000, 100_000})
    void deepTuplesAreRefusedWithDepthAndOffset(int depth) {
        String text = "(".repeat(depth);
        ShapeParseException e = assertThrows(ShapeParseException.class, () -> Shape.parse(text));
        assertEquals(DEPTH, e.offset(), e::getMessage);
        assertTrue(e.getMessage().contains("nesting deeper than " + DEPTH), e::getMessage);
    }

    @Test
    void theCapIsPublicAndTupleShapeOfKeepsIt() {
        assertEquals(DEPTH, Shape.MAX_NESTING_DEPTH);
        Shape s = ArrayShape.of(ElementType.F32, 2);
        for (int i = 0; i < DEPTH; i++) {
            s = TupleShape.of(s);
        }
        Shape deepest = s;
        assertThrows(IllegalArgumentException.class, () -> TupleShape.of(deepest));
    }

    @Test
    void deepBuffersAndMixedNestingAreRefused() {
        String text = "b(".repeat(1000) + "f32[2]" + ")".repeat(1000);
        assertThrows(ShapeParseException.class, () -> Shape.parse(text, Validation.NONE));
        String mixed = "(b(".repeat(500);
        assertThrows(ShapeParseException.class, () -> Shape.parse(mixed, Validation.NONE));
    }

    @Test
    void nestingUpToTheCapParses() {
        int n = DEPTH;
        String text = "(".repeat(n) + "f32[2]{0}" + ")".repeat(n);
        Shape s = Shape.parse(text);
        assertEquals(text, s.toString());
        assertThrows(ShapeParseException.class,
                () -> Shape.parse("(" + text + ")"), "one level more is refused");
    }

    // ---- only ASCII digits -----------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "f32[３]          | 4",   // fullwidth 3
            "f32[٣,٥]         | 4",   // Arabic-Indic 3, 5
            "f32[2,1]{١,٠}    | 0",   // '{' with no ASCII integer is not a layout: extra content
            "f32[128]{0:T(१२८)} | 13", // Devanagari 128
            "f32[2]{0:L(۲)}   | 11",  // Extended Arabic-Indic 2
            "f32[1２]         | 4",   // ASCII 1 followed by a fullwidth 2
    })
    void nonAsciiDigitsAreNotDigits(String text, int ignoredOffset) {
        for (Validation level : Validation.values()) {
            assertThrows(ShapeParseException.class, () -> Shape.parse(text, level), () -> level + ": " + text);
        }
    }

    // ---- what XLA's parser refuses --------------------------------------------------------------------

    @Test
    void negativeDimensionsAreRefusedAtEveryLevel() {
        assertRefusedEverywhere("s16[-2,1]", 4, "dimension size -2 is negative");
        assertRefusedEverywhere("f32[3,-1]", 6, "dimension size -1 is negative");
        assertRefusedEverywhere("f32[<=-1]", 6, "dimension bound -1 is negative");
        // Long.MIN_VALUE is the stored form of '?', as in XLA
        assertEquals("f32[?]{0}", Shape.parse("f32[<=-9223372036854775808]").toString());
    }

    @Test
    void physicalShapeOnADenseArrayIsRefusedAtEveryLevel() {
        assertRefusedEverywhere("f32[128]{0:P(s32[2])}", 11, "physical shape, but is not for a sparse array");
    }

    @Test
    void tileSizesBelowZeroAndNonPositiveTailPaddingAreRefusedAtEveryLevel() {
        assertRefusedEverywhere("f32[2]{0:T(-1)}", 11, "tile size -1");
        assertRefusedEverywhere("f32[2,2]{1,0:T(2,-2)}", 17, "tile size -2");
        assertRefusedEverywhere("f32[2]{0:L(0)}", 11, "L(0)");
        assertRefusedEverywhere("f32[2]{0:L(-4)}", 11, "L(-4)");
        // '*' (kCombineDimension) is still a tile size; T(0) is XLA's validator's business
        assertDoesNotThrow(() -> Shape.parse("f32[2,2]{1,0:T(*,2)}"));
        assertDoesNotThrow(() -> Shape.parse("f32[2]{0:T(0)}", Validation.NONE));
    }

    @Test
    void memorySpaceMustFitInEightBits() {
        assertRefusedEverywhere("f32[2]{0:S(128)}", 11, "S(128) does not fit");
        assertRefusedEverywhere("f32[2]{0:S(200)}", 11, "-128..127");
        assertRefusedEverywhere("f32[2]{0:S(-129)}", 11, "S(-129)");
        // what XLA prints for 128 reads back at NONE and XLA; STRICT wants a real id, 0..127
        assertEquals("f32[2]{0:S(-128)}", Shape.parse("f32[2]{0:S(-128)}", Validation.XLA).toString());
        assertNull(Validation.XLA.problem(Shape.parse("f32[2]{0:S(-1)}", Validation.NONE)));
        assertThrows(IllegalArgumentException.class, () -> Shape.parse("f32[2]{0:S(-128)}"));
        assertEquals("f32[2]{0:S(127)}", Shape.parse("f32[2]{0:S(127)}").toString());
    }
}
