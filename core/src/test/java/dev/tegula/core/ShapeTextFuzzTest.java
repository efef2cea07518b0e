package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz target for {@link Shape#parse(String, Validation)}: the input bytes (UTF-8) are parsed at
 * all three {@link Validation} levels. The contract, checked on every input:
 *
 * <ul>
 *   <li>a parse returns a shape or throws {@link ShapeParseException} (offset within the text) or
 *       {@link IllegalArgumentException}; nothing else (no other runtime exception, no
 *       {@link StackOverflowError}, no hang);</li>
 *   <li>the levels agree: text that is not a shape fails at {@code NONE} and {@code XLA} at the same
 *       offset, and at {@code STRICT} there too or earlier (STRICT validates each complete tuple
 *       element as it parses, as XLA does at its own level); a shape
 *       parsed at {@code NONE} parses at {@code XLA}/{@code STRICT} exactly when that level finds no
 *       problem in it, to an equal shape, and fails naming that problem otherwise;</li>
 *   <li>{@code toString()} parses back (at the same level) to an equal shape with the same text;</li>
 *   <li>sizes and index math of every array in the shape keep {@link ArrayShapeChecks}' contract
 *       (no silent overflow: {@code bufferSize >= byteSize >= 0}, exactly the spec's sizes, or a
 *       clean {@link IllegalArgumentException}).</li>
 * </ul>
 *
 * <p>In a normal build this replays {@code src/test/resources/dev/tegula/core/ShapeTextFuzzTestInputs/parse/};
 * see {@code docs/reliability.md} for fuzzing it.
 */
class ShapeTextFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void parse(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Object none = tryParse(text, Validation.NONE);
        Object xla = tryParse(text, Validation.XLA);
        Object strict = tryParse(text, Validation.STRICT);
        if (none instanceof ShapeParseException e) {
            assertTrue(e.offset() >= 0 && e.offset() <= text.length(), e::getMessage);
            assertTrue(e.caretDiagram().startsWith(text));
            // XLA fails at the same place; STRICT may fail earlier, validating a complete tuple element
            ShapeParseException x = assertInstanceOf(ShapeParseException.class, xla, text);
            assertEquals(e.offset(), x.offset(), text);
            IllegalArgumentException st = assertInstanceOf(IllegalArgumentException.class, strict, text);
            if (st instanceof ShapeParseException sp) {
                assertEquals(e.offset(), sp.offset(), text);
            }
            return;
        }
        if (none instanceof IllegalArgumentException e) {
            // NONE validates only tuple elements (at XLA level): the stricter levels fail too
            assertInstanceOf(IllegalArgumentException.class, xla, text);
            assertInstanceOf(IllegalArgumentException.class, strict, text);
            return;
        }
        Shape shape = (Shape) none;
        agrees(shape, Validation.XLA, xla);
        agrees(shape, Validation.STRICT, strict);
        if (strict instanceof Shape) {
            assertInstanceOf(Shape.class, xla, "STRICT accepted what XLA refused: " + text);
        }
        roundTrip(shape, Validation.NONE);
        if (xla instanceof Shape s) {
            roundTrip(s, Validation.XLA);
        }
        if (strict instanceof Shape s) {
            roundTrip(s, Validation.STRICT);
            assertNull(Validation.STRICT.problem(s));
        }
        Shape plain = Shape.parse(shape.toStringWithoutLayout(), Validation.NONE);
        assertEquals(shape.toStringWithoutLayout(), plain.toStringWithoutLayout());
        checkArrays(shape, text.hashCode());
    }

    /** {@return the parsed shape, or the {@link IllegalArgumentException} (parse exceptions included) it threw} */
    private static Object tryParse(String text, Validation level) {
        try {
            return Shape.parse(text, level);
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    private static void agrees(Shape parsedAtNone, Validation level, Object result) {
        String problem = level.problem(parsedAtNone);
        if (problem == null) {
            assertEquals(parsedAtNone, result, () -> level + " refused " + parsedAtNone + ": " + result);
        } else if (result instanceof Shape) {
            fail(level + " accepted " + parsedAtNone + " although it finds: " + problem);
        } else {
            IllegalArgumentException e = (IllegalArgumentException) result;
            assertTrue(!(e instanceof ShapeParseException), () -> "parse error after NONE parsed: " + e);
            // the same problem (the parser adds where a tuple element ends to the "tuple element i" prefix)
            String what = problem.replaceFirst("^(tuple element \\d+: )+", "");
            // text that fails validation as a whole says where (InvalidShapeException): the problem is its own part
            String said = e instanceof InvalidShapeException i ? i.problem() : e.getMessage();
            if (e instanceof InvalidShapeException i) {
                assertTrue(i.offset() >= 0 && i.offset() <= i.text().length(), e::getMessage);
            }
            assertTrue(said.endsWith(what), () -> parsedAtNone + ": " + e.getMessage() + " vs " + problem);
        }
    }

    private static void roundTrip(Shape s, Validation level) {
        String printed = s.toString();
        Shape back;
        try {
            back = Shape.parse(printed, level);
        } catch (IllegalArgumentException e) {
            throw new AssertionError("printed form of a " + level + "-valid shape does not parse back: " + printed, e);
        }
        assertEquals(s, back, printed);
        assertEquals(s.hashCode(), back.hashCode(), printed);
        assertEquals(printed, back.toString());
    }

    private static void checkArrays(Shape s, long seed) {
        switch (s) {
            case ArrayShape a -> ArrayShapeChecks.check(a, seed);
            case BufferShape b -> ArrayShapeChecks.check(b.array(), seed);
            case TupleShape t -> {
                for (int i = 0; i < t.size(); i++) {
                    checkArrays(t.element(i), seed + i);
                }
            }
            case TokenShape tk -> { }
            case OpaqueShape o -> { }
        }
    }
}
