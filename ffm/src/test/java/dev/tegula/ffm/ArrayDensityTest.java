package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** {@link Array#isDense()}, {@link Array#isDenseIn(Layout)} and {@link Array#byteSpan()} on arrays and views. */
class ArrayDensityTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private Array allocate(String text) {
        return Array.allocate(arena, shape(text));
    }

    @ParameterizedTest
    @FieldSource("dev.tegula.ffm.TestArrays#FAMILIES")
    void allocatedAndWrappedArraysAreDenseInTheirOwnLayout(String text) {
        Array a = allocate(text);
        assertTrue(a.isDense(), text);
        assertTrue(a.isDenseIn(a.shape().layout()), text);
        Array w = Array.wrap(a.segment(), a.shape());
        assertTrue(w.isDense() && w.isDenseIn(a.shape().layout()), text);
        assertEquals(a.shape().bufferSize(), a.byteSpan().byteSize(), text);
        assertEquals(a.segment().address(), a.byteSpan().address(), text);
    }

    @Test
    void stridedViewsAreDenseOnlyFromSlotZeroInTheirLayoutsOrder() {
        Array a = allocate("f32[4,6]{1,0}");
        assertTrue(a.permute(1, 0).isDense(), "a transposed view is the column-major buffer");
        assertTrue(a.permute(1, 0).isDenseIn(Layout.columnMajor(2)));
        assertFalse(a.permute(1, 0).isDenseIn(Layout.rowMajor(2)));
        assertTrue(a.select(0, 0).isDense(), "row 0 is the row-major buffer of a [6]");
        assertFalse(a.select(0, 1).isDense(), "row 1 starts at slot 6");
        assertFalse(a.slice(1, 0, 3).isDense(), "half of each row: a gap after every row");
        assertFalse(a.slice(0, 0, 4, 2).isDense(), "every other row");
        assertTrue(a.slice(0, 0, 2).isDense(), "the first two rows");
        assertTrue(a.slice(0, 1, 1).isDense(), "no elements");
    }

    @Test
    void tiledViewsAreDenseOverTheirSliceOfTheSegment() {
        Array a = allocate("bf16[2,1,16,256]{3,2,0,1:T(8,128)(2,1)}");
        Array v = a.select(0, 1);
        assertTrue(v.isDense());
        assertTrue(v.isDenseIn(Layout.parse("{2,1,0:T(8,128)(2,1)}")));
        assertEquals(v.shape().bufferSize(), v.byteSpan().byteSize());
        assertEquals(a.segment().address() + a.shape().bufferSize() / 2, v.byteSpan().address());
    }

    @Test
    void layoutsThatMoveNoElementCountAsTheSame() {
        Array a = allocate("f32[3,1,5]{2,1,0}");
        assertTrue(a.isDenseIn(Layout.parse("{2,1,0:S(1)M(8)}")), "memory space and metadata prefix");
        assertTrue(a.isDenseIn(Layout.parse("{2,1,0:E(32)}")), "E(n) of the type's own width");
        assertTrue(a.isDenseIn(Layout.parse("{1,2,0}")), "the size-1 dimension anywhere");
        assertTrue(a.isDenseIn(Layout.parse("{2,0,1}")));
        assertTrue(a.isDenseIn(Layout.parse("{2,1,0:L(64)}")), "L(n) without tiles changes nothing");
        assertFalse(a.isDenseIn(Layout.parse("{0,1,2}")), "column-major moves elements");
        assertFalse(a.isDenseIn(Layout.parse("{2,1,0:T(1,5)}")), "tiled and untiled layouts differ");
        assertFalse(a.isDenseIn(Layout.parse("{1,0}")), "a layout of another rank does not fit");
        Array tiled = allocate("f32[4,8]{1,0:T(2,4)}");
        assertTrue(tiled.isDenseIn(Layout.parse("{1,0:T(2,4)S(2)}")));
        assertFalse(tiled.isDenseIn(Layout.parse("{1,0:T(2,4)L(64)}")), "a longer buffer");
        assertFalse(tiled.isDenseIn(Layout.parse("{1,0:T(4,2)}")));
    }

    @Test
    void theSlotWidthAndThePaddingMustAgree() {
        Array packed = allocate("s4[4,6]{1,0:E(4)}");
        assertFalse(packed.isDenseIn(Layout.rowMajor(2)), "one element per byte is another buffer");
        assertTrue(packed.isDenseIn(Layout.parse("{1,0:E(4)}")));
        Array padded = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3)
                .withLayout(Layout.of(0, 1).withPaddedDimensions(PaddingValue.ONE, 3, 5)));
        assertTrue(padded.isDenseIn(Layout.of(0, 1).withPaddedDimensions(PaddingValue.ONE, 3, 5)));
        assertFalse(padded.isDenseIn(Layout.of(0, 1).withPaddedDimensions(PaddingValue.ZERO, 3, 5)),
                "the padding slots hold ones");
        assertFalse(padded.isDenseIn(Layout.columnMajor(2)), "strides of the padded sizes");
        Array unpadded = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3)
                .withLayout(Layout.of(0, 1).withPaddedDimensions(PaddingValue.ONE, 2, 3)));
        assertTrue(unpadded.isDenseIn(Layout.columnMajor(2)), "padded to its own sizes: no padding slot");
    }

    @Test
    void wrapStridedIsDenseWhenItsStridesAreThoseOfItsLayout() {
        MemorySegment seg = arena.allocate(4L * 24);
        ArrayShape s = ArrayShape.of(ElementType.F32, 4, 6);
        assertTrue(Array.wrapStrided(seg, s, 0, new long[] {6, 1}, null).isDenseIn(Layout.rowMajor(2)));
        assertTrue(Array.wrapStrided(seg, s, 0, new long[] {1, 4}, null).isDenseIn(Layout.columnMajor(2)));
        assertFalse(Array.wrapStrided(seg, ArrayShape.of(ElementType.F32, 4, 3), 0, new long[] {6, 2}, null).isDense());
        assertFalse(Array.wrapStrided(seg, ArrayShape.of(ElementType.F32, 3, 6), 6, new long[] {6, 1}, null).isDense());
    }

    @Test
    void theByteSpanOfAViewRunsFromItsFirstToItsLastElement() {
        Array a = allocate("f32[4,6]{1,0}");
        MemorySegment rows = a.slice(0, 1, 3).byteSpan();
        assertEquals(a.segment().address() + 4 * 6, rows.address());
        assertEquals(4 * 12, rows.byteSize());
        MemorySegment column = a.select(1, 2).byteSpan();
        assertEquals(a.segment().address() + 4 * 2, column.address());
        assertEquals(4 * (3 * 6 + 1), column.byteSize(), "from (0,2) to (3,2), both included");
        Array packed = allocate("u4[3,5]{1,0:E(4)}");
        MemorySegment odd = packed.slice(1, 1, 4).byteSpan();
        assertEquals(packed.segment().address(), odd.address(), "slot 1 is in byte 0");
        assertEquals(7, odd.byteSize(), "slot 13, the last element, is in byte 6");
        assertEquals(0, a.slice(0, 2, 2).byteSpan().byteSize());
    }

    @Test
    void aNullLayoutIsRefused() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> allocate("f32[2]").isDenseIn(null));
        assertEquals("layout", e.getMessage());
    }
}
