package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Malformed text (a {@link ShapeParseException} at a character offset, whatever the validation
 * level), invalid shapes and layouts (an {@link IllegalArgumentException} naming the field, with
 * the level that first rejects them), bad indices and bad factory arguments.
 */
class BadInputTest {

    private static void assertMessage(Throwable e, String fragment) {
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains(fragment), () -> "message '" + e.getMessage() + "' lacks '" + fragment + "'");
    }

    // ---- text that is not a shape ------------------------------------------------------------------

    @ParameterizedTest(name = "[{0}] at {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "f32[2,3                  | 7  | expected ']' to close the dimensions, found end of text",
            "F32[2]                   | 0  | expected a primitive type name",
            "f32[2x3]                 | 4  | found '2x3'",
            "f32[1.5]                 | 4  | found '1.5'",
            "f32[]{}                  | 5  | Extra content after shape",
            "f32[2]{0                 | 8  | expects layout to end with '}'",
            "f32[2]{0:T(2)L(2)T(2)}   | 17 | expects layout to end with '}'",
            "f32[2]{0:E(4)T(2)}       | 13 | out of order",
            "f32[2]{0:S(1)S(1)}       | 13 | repeated or out of order",
            "f32[2]{0:Q(1)}           | 9  | expects layout to end with '}', found 'Q'",
            "f32[2]{0:T(2)x}          | 13 | expects layout to end with '}'",
            "f32[2]{0:D(X)}           | 11 | expected a DimLevelType abbreviation",
            "f32[2]{0:PAD(3:bogus)}   | 15 | expected a padding value",
            "f32[2]{0:PAD()}          | 13 | expected an integer (padded dimension size)",
            "f32[2]{0:#(f99)}         | 11 | expected a primitive type in #(...)",
            "f32[2]{0:#(tuple)}       | 11 | expected a primitive type in #(...)",
            "f32[2]{0:T(2,)}          | 13 | expected an integer (tile size)",
            "f32[2]{0:SC(0)}          | 13 | expected ':' after the split dimension",
            "f32[2]{0:L(x)}           | 11 | expected an integer in L(...)",
            "token[2]                 | 6  | token shapes have no dimensions",
            "opaque[1]                | 7  | opaque shapes have no dimensions",
            "token[]{}                | 7  | Extra content after shape",
            "token[]{0}               | 7  | Extra content after shape",
            "token                    | 5  | expected '['",
            "tuple[2]                 | 0  | expected a primitive type name",
            "buffer[2]                | 0  | expected a primitive type name",
            "b(token[])               | 2  | a buffer holds exactly one array shape",
            "b((f32[2]))              | 2  | a buffer holds exactly one array shape",
            "b(f32[2]                 | 8  | expected ')' to close the buffer",
            "(f32[2],                 | 8  | expected a shape",
            "(f32[2] f32[3])          | 8  | expected ')' to close the tuple",
            "f32[2]{0,1}              | 6  | layout minor_to_major field contains 2 elements, but shape has 1 dimensions: {0,1}",
            "f32[2,3]{0}              | 8  | layout minor_to_major field contains 1 elements, but shape has 2 dimensions: {0}",
            "f32[]{0}                 | 5  | layout minor_to_major field contains 1 elements, but shape has 0 dimensions: {0}",
            "f32[99999999999999999999] | 4 | out of the int64 range",
            "f32[2]{99999999999}      | 7  | minor_to_major entry 99999999999 is out of range",
            "f32[2]/* never closed    | 6  | unterminated comment",
            "f32[2]{0} x              | 10 | Extra content after shape",
            "f32[2]{0}}               | 9  | Extra content after shape",
            "f32[2] f32[2]            | 7  | Extra content after shape",
            "f32[<2]                  | 4  | expected an integer (dimension size)",
            "f32[<=?]                 | 6  | expected an integer (dimension bound)",
            "                         | 0  | expected a shape",
            "[2]                      | 0  | expected a shape",
            // what XLA's parser refuses or crashes on is refused at every level
            "f32[-2]                  | 4  | dimension size -2 is negative",
            "f32[3,-1]                | 6  | dimension size -1 is negative",
            "f32[<=-1]                | 6  | dimension bound -1 is negative",
            "f32[2]{0:T(-2)}          | 11 | tile size -2 is negative",
            "f32[2]{0:L(0)}           | 11 | L(0): the tail padding alignment must be positive",
            "f32[2]{0:L(-4)}          | 11 | L(-4)",
            "f32[2]{0:P(f32[2])}      | 9  | Layout has physical shape, but is not for a sparse array",
            "f32[2]{0:S(200)}         | 11 | S(200) does not fit in XLA's 8-bit memory space",
            "f32[2]{0:S(128)}         | 11 | S(128) does not fit",
    })
    void malformedText(String text, int offset, String fragment) {
        String t = text == null ? "" : text;
        for (Validation level : Validation.values()) {
            ShapeParseException e = assertThrows(ShapeParseException.class, () -> Shape.parse(t, level), t);
            assertEquals(offset, e.offset(), () -> e.getMessage());
            assertMessage(e, fragment);
            assertEquals(t, e.text());
            assertMessage(e, "at offset " + offset);
            assertTrue(e.caretDiagram().endsWith("\n" + " ".repeat(offset) + "^"));
        }
    }

    @Test
    void parseExceptionIsAnIllegalArgumentException() {
        assertInstanceOf(IllegalArgumentException.class, assertThrows(ShapeParseException.class,
                () -> Shape.parse("f32[")));
        assertThrows(NullPointerException.class, () -> Shape.parse(null));
    }

    // ---- shapes that parse but are invalid ----------------------------------------------------------

    /**
     * {@code rejectedFrom}: the weakest level that rejects the shape. NONE accepts everything here
     * (what XLA's parser accepts); XLA rejects what XLA's validator rejects; STRICT also rejects
     * what XLA would crash on or leave undefined.
     */
    @ParameterizedTest(name = "[{0}] rejected from {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "f32[2,3]{1,1}                        | XLA    | layout minor_to_major field has duplicate values: {1,1}; shape: f32[2,3]",
            "f32[2,3]{1,2}                        | XLA    | layout minor_to_major field has out-of-bounds value 2",
            "f32[2,3]{-1,0}                       | XLA    | out-of-bounds value -1",
            "f32[4611686018427387904,4]           | XLA    | Dimensions overflow",
            "f32[4611686018427387904]             | XLA    | size may overflow int64_t.",
            "c128[1152921504606846976]            | XLA    | size may overflow int64_t.",
            "f32[2]{0:T(0)}                       | XLA    | layout has invalid tiles: tile dimension 0 at index 0 of tile T(0) must be positive or * (combine dimensions); shape: f32[2]{0:T(0)}",
            "f32[8,2]{1,0:T(*,0)}                 | XLA    | tile dimension 0 at index 1 of tile T(*,0) must be positive or *",
            "f32[2]{0:T()}                        | XLA    | layout has invalid tiles",
            "f32[2]{0:T(2)()}                     | XLA    | layout has invalid tiles",
            "f32[2]{0:E(-1)}                      | XLA    | layout element_size_in_bits field is negative",
            "f32[2]{0:#(u32)}                     | XLA    | layout has a index_primitive_type (u32), but is not a sparse array",
            "f32[2]{0:*(u32)}                     | XLA    | layout has a pointer_primitive_type (u32), but is not a sparse array",
            "f32[8,4]{1,0:SC(2:1)}                | XLA    | physical dimension 2 is out of range for rank 2",
            "f32[8,4]{1,0:SC(-1:1)}               | XLA    | physical dimension -1 is out of range",
            "f32[8,4]{1,0:SC(0:2)(0:4)}           | XLA    | physical dimension 0 is split twice",
            "f32[8,4]{1,0:SC(0:5,3)}              | XLA    | split index 3 of physical dimension 0 must be increasing",
            "f32[8,4]{1,0:SC(0:2,2)}              | XLA    | split index 2 of physical dimension 0 must be increasing",
            "f32[8,4]{1,0:SC(0:0)}                | XLA    | split index 0 of physical dimension 0",
            "f32[8,4]{1,0:SC(0:8)}                | XLA    | must be increasing and within (0, 8)",
            "f32[8,4]{0,1:SC(0:5)}                | XLA    | within (0, 4)",
            "f32[2,3]{1,0:PAD(1,3)}               | XLA    | for dimension 0, dimension padding (1) is smaller than the dimension size (2)",
            "f32[2,3]{1,0:PAD(3)}                 | XLA    | layout has 1 padded dimensions, but shape is rank 2",
            "f32[2,2]{1,0:T(2,*)}                 | STRICT | tile (2,*) ends with '*'",
            "f32[2,2]{1,0:T(2,2)(*)}              | STRICT | ends with '*'",
            "s4[4]{0:E(3)}                        | STRICT | element_size_in_bits field is 3, but s4 can only be stored in 1, 2 or 4 bits (at least 4) or 8 bits",
            "s4[4]{0:E(2)}                        | STRICT | element_size_in_bits field is 2",
            "f32[4]{0:E(16)}                      | STRICT | f32 can only be stored in 32 bits",
            "f32[4]{0:E(4)}                       | STRICT | f32 can only be stored in 32 bits",
            "f32[2]{0:S(-1)}                      | STRICT | memory_space field is -1",
            "f32[2]{0:S(-128)}                    | STRICT | memory_space field is -128, outside 0..127",
            "f32[2]{0:M(-1)}                      | STRICT | dynamic_shape_metadata_prefix_bytes field is negative",
            "f32[2,3]{1,0:T(2,2)PAD(2,4)}         | STRICT | layout has both padded_dimensions (the 2017 layout) and tiles",
            "s8[9223372036854775807]{0:T(2)}      | STRICT | the padded buffer of s8[9223372036854775807]{0:T(2)} overflows int64",
            "f32[2]{0:PAD(4611686018427387904)}   | STRICT | the padded buffer of",
    })
    void invalidShapes(String text, Validation rejectedFrom, String fragment) {
        Shape none = assertDoesNotThrow(() -> Shape.parse(text, Validation.NONE), "NONE accepts " + text);
        assertNull(Validation.NONE.problem(none));
        for (Validation level : new Validation[] {Validation.XLA, Validation.STRICT}) {
            if (level.compareTo(rejectedFrom) >= 0) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> Shape.parse(text, level), level + " rejects " + text);
                assertTrue(!(e instanceof ShapeParseException), "a validation failure, not a syntax error");
                assertMessage(e, fragment);
                assertNotNull(level.problem(none));
                assertThrows(IllegalArgumentException.class, () -> level.check(none));
            } else {
                assertDoesNotThrow(() -> Shape.parse(text, level), level + " accepts " + text);
                assertNull(level.problem(none));
            }
        }
        // Shape.parse(String) is STRICT
        assertThrows(IllegalArgumentException.class, () -> Shape.parse(text));
        // an invalid array has no index math or sizes: they throw instead of computing garbage
        if (none instanceof ArrayShape a) {
            assertThrows(IllegalArgumentException.class, a::elementCount);
            assertThrows(IllegalArgumentException.class, a::bufferSize);
            assertThrows(IllegalArgumentException.class, () -> Addressing.of(a));
            assertThrows(IllegalArgumentException.class, () -> a.withLayout(a.layout()));
        }
    }

    @Test
    void firstProblemWinsInXlaOrder() {
        // minor_to_major before tiles before element size (spec section 6 order)
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> Shape.parse("f32[2,3]{1,1:T(0)E(-1)}", Validation.XLA)), "duplicate values");
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> Shape.parse("f32[2,3]{1,0:T(0)E(-1)}", Validation.XLA)), "tile dimension 0");
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> Shape.parse("f32[2,3]{1,0:T(0)#(u32)}", Validation.XLA)), "index_primitive_type");
        // shape-level problems come before layout problems
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> Shape.parse("f32[4611686018427387904,4]{1,1}", Validation.XLA)), "Dimensions overflow");
    }

    @Test
    void duplicateMinorToMajorParsesWithNoneThenIndexMathThrows() {
        ArrayShape s = ArrayShape.parse("f32[2,3]{1,1}", Validation.NONE);
        assertEquals("f32[2,3]{1,1}", s.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.linearIndex(0, 0));
        assertMessage(e, "duplicate values");
        assertThrows(IllegalArgumentException.class, () -> s.multiIndex(0));
        assertThrows(IllegalArgumentException.class, s::slotCount);
        assertThrows(IllegalArgumentException.class, s::byteSize);
        assertThrows(IllegalArgumentException.class, () -> s.forEachIndex(i -> { }));
    }

    @Test
    void tupleElementsAreValidatedEvenWithNone() {
        // XLA builds tuples with MakeValidatedTupleShape: (f32[2,3]{1,1}) does not parse
        for (Validation level : Validation.values()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Shape.parse("(f32[2], f32[2,3]{1,1})", level));
            assertMessage(e, "tuple element 1");
            assertMessage(e, "duplicate values");
        }
        // but STRICT-only problems inside a tuple pass at NONE and XLA
        assertDoesNotThrow(() -> Shape.parse("(f32[2]{0:S(-1)})", Validation.XLA));
        assertThrows(IllegalArgumentException.class, () -> Shape.parse("(f32[2]{0:S(-1)})"));
        // buffers only check that they hold an array
        assertDoesNotThrow(() -> Shape.parse("b(f32[2,3]{1,1})", Validation.NONE));
        assertThrows(IllegalArgumentException.class, () -> Shape.parse("b(f32[2,3]{1,1})", Validation.XLA));
    }

    @Test
    void unboundedDimensionsHaveNoIndexMath() {
        ArrayShape s = ArrayShape.parse("f32[?,3]");
        assertMessage(assertThrows(IllegalArgumentException.class, s::elementCount), "unbounded dynamic size '?'");
        assertThrows(IllegalArgumentException.class, () -> s.linearIndex(0, 0));
        assertThrows(IllegalArgumentException.class, () -> Addressing.of(s));
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.ofDynamic(ElementType.F32, new long[] {ArrayShape.UNBOUNDED_SIZE}, new boolean[1])),
                "is_dynamic=false");
    }

    // ---- indices --------------------------------------------------------------------------------------

    @Test
    void outOfBoundsIndexNamesIndexAndShape() {
        ArrayShape s = ArrayShape.of(ElementType.F32, 2, 3);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> s.linearIndex(2, 0));
        assertMessage(e, "[2, 0]");
        assertMessage(e, "f32[2,3]");
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> s.linearIndex(0, -1)), "[0, -1]");
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> s.linearIndex(0)), "rank 2");
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> s.linearIndex(0, 0, 0)), "3 coordinates");
        String rank = "index [0, 0, 0] has 3 coordinates, but f32[2,3] has rank 2";   // one wording, every path
        assertEquals(rank, assertThrows(IndexOutOfBoundsException.class, () -> s.linearIndex(0, 0, 0)).getMessage());
        assertEquals(rank, assertThrows(IndexOutOfBoundsException.class,
                () -> Addressing.of(s).slot(new long[] {0, 0, 0})).getMessage());
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> s.multiIndex(6)), "slot 6");
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> s.multiIndex(-1)), "slot -1");
        ArrayShape tiled = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
        assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> tiled.multiIndex(9)), "padding");
        assertThrows(IndexOutOfBoundsException.class, () -> tiled.linearIndex(3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> tiled.linearIndex(0, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> ArrayShape.of(ElementType.F32, 0).linearIndex(0));
    }

    @Test
    void outOfBoundsThroughEveryAddressing() {
        String[] shapes = {"f32[3]", "f32[3,4]", "f32[3,4,5]", "f32[2,3,4,5]", "f32[2,2,2,2,2]", "f32[]",
                "f32[4,8]{1,0:T(2,4)}", "f32[2,4,8]{2,1,0:T(2,4)(2,1)}", "f32[8]{0:T(2,2)}"};
        for (String text : shapes) {
            ArrayShape s = ArrayShape.parse(text);
            Addressing a = Addressing.of(s);
            long[] dims = s.dimensions();
            Executable[] bad = switch (s.rank()) {
                case 1 -> new Executable[] {() -> a.slot(dims[0]), () -> a.slot(-1L), () -> a.byteOffset(dims[0])};
                case 2 -> new Executable[] {() -> a.slot(dims[0], 0), () -> a.slot(0, dims[1]), () -> a.slot(-1, 0)};
                case 3 -> new Executable[] {() -> a.slot(0, 0, dims[2]), () -> a.slot(0, -1, 0)};
                case 4 -> new Executable[] {() -> a.slot(0, 0, 0, dims[3]), () -> a.slot(dims[0], 0, 0, 0)};
                default -> new Executable[] {() -> a.slot(new long[s.rank() + 1])};
            };
            for (Executable x : bad) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, x, text);
                assertMessage(e, s.toStringWithoutLayout());
            }
            if (s.rank() != 2) {
                assertThrows(IndexOutOfBoundsException.class, () -> a.slot(0, 0), "wrong rank overload on " + text);
            }
            if (s.rank() != 1) {
                assertThrows(IndexOutOfBoundsException.class, () -> a.slot(0L), "wrong rank overload on " + text);
            }
            assertThrows(IndexOutOfBoundsException.class, () -> a.slot(Long.MIN_VALUE, 0, 0, 0, 0, 0, 0));
        }
    }

    // ---- public factories and withers --------------------------------------------------------------------

    @Test
    void factoriesRejectBadValues() {
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(ElementType.F32, -1)),
                "Negative dimension at index 0: -1.");
        assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(ElementType.TUPLE, 2));
        assertThrows(IllegalArgumentException.class, () -> ArrayShape.of(ElementType.TOKEN));
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.of(ElementType.F32, Long.MAX_VALUE, 2)), "Dimensions overflow");
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.of(ElementType.F64, Long.MAX_VALUE / 4)), "size may overflow");
        assertThrows(IllegalArgumentException.class,
                () -> ArrayShape.ofDynamic(ElementType.F32, new long[] {2}, new boolean[2]));
        assertThrows(NullPointerException.class, () -> ArrayShape.of(null, 2));

        ArrayShape s = ArrayShape.of(ElementType.F32, 2, 3);
        assertMessage(assertThrows(IllegalArgumentException.class, () -> s.withLayout(Layout.of(0))),
                "contains 1 elements, but shape has 2 dimensions");
        assertThrows(IllegalArgumentException.class,
                () -> s.withLayout(Layout.rowMajor(2).withTiles(Tile.of(2, Tile.COMBINE))));
        assertThrows(IllegalArgumentException.class,
                () -> s.withLayout(Layout.rowMajor(2).withSplitConfigs(SplitConfig.of(0, 2))));
        assertThrows(IllegalArgumentException.class,
                () -> s.withLayout(Layout.rowMajor(2).withPaddedDimensions(PaddingValue.ZERO, 1, 3)));
        assertThrows(IllegalArgumentException.class,
                () -> s.withLayout(Layout.rowMajor(2).withIndexPrimitiveType(ElementType.U32)));
        assertThrows(IllegalArgumentException.class,
                () -> s.withLayout(Layout.rowMajor(2).withElementSizeInBits(4)));
        assertThrows(NullPointerException.class, () -> s.withLayout(null));

        assertMessage(assertThrows(IllegalArgumentException.class, () -> Layout.of(0, 0)), "duplicate");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Layout.of(1)), "out-of-bounds value 1");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Layout.of(-1, 0)), "out-of-bounds value -1");
        assertThrows(IllegalArgumentException.class, () -> Layout.rowMajor(-1));
        assertThrows(IllegalArgumentException.class, () -> Layout.columnMajor(-1));

        assertMessage(assertThrows(IllegalArgumentException.class, Tile::of), "layout has invalid tiles");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Tile.of(0)), "tile dimension 0");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Tile.of(8, -2)), "tile dimension -2");
        assertDoesNotThrow(() -> Tile.of(Tile.COMBINE, 2));

        Layout l = Layout.rowMajor(2);
        assertMessage(assertThrows(IllegalArgumentException.class, () -> l.withTailPaddingAlignment(0)),
                "tailPaddingAlignment");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> l.withElementSizeInBits(-1)),
                "elementSizeInBits");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> l.withMemorySpace(128)), "memorySpace");
        assertThrows(IllegalArgumentException.class, () -> l.withMemorySpace(-1));
        assertMessage(assertThrows(IllegalArgumentException.class, () -> l.withDynamicShapeMetadataPrefixBytes(-1)),
                "dynamicShapeMetadataPrefixBytes");
        assertMessage(assertThrows(IllegalArgumentException.class,
                () -> l.withPaddedDimensions(PaddingValue.ZERO, 3, -1)), "paddedDimensions[1]");
        assertThrows(NullPointerException.class, () -> l.withTiles((Tile) null));
        assertThrows(NullPointerException.class, () -> l.withPaddedDimensions(null, 3, 3));
    }

    @Test
    void withersReturnNewLayoutsAndLeaveTheOriginal() {
        Layout l = Layout.rowMajor(2);
        Layout t = l.withTiles(Tile.of(8, 128)).withMemorySpace(1).withTailPaddingAlignment(4);
        assertEquals("{1,0}", l.toString());
        assertEquals("{1,0:T(8,128)L(4)S(1)}", t.toString());
        assertEquals("{1,0:L(4)S(1)}", t.withTiles().toString());
        assertEquals("{1,0}", l.withPaddedDimensions(PaddingValue.ONE, 3, 3).withPaddedDimensions(PaddingValue.ONE)
                .toString(), "no sizes removes the legacy padding");
        int[] m = l.minorToMajor();
        m[0] = 7;
        assertEquals("{1,0}", l.toString(), "getters return copies");
        long[] dims = ArrayShape.of(ElementType.F32, 2, 3).dimensions();
        dims[0] = 99;
        long[] td = {2, 2};
        Tile tile = Tile.of(td);
        td[0] = 5;
        assertEquals("(2,2)", tile.toString(), "factories copy their arrays");
    }
}
