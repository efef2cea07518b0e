package dev.tegula.cli.commands;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Shape;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShapeReportTest {
    @Test
    void knownMemorySpacesAreNamed() {
        assertTrue(ShapeReport.memorySpace(0).startsWith("S(0): device default"));
        assertTrue(ShapeReport.memorySpace(1).startsWith("S(1): alternate (fast) memory"));
        assertTrue(ShapeReport.memorySpace(5).startsWith("S(5): pinned host"));
        assertTrue(ShapeReport.memorySpace(6).startsWith("S(6): unpinned host"));
        assertTrue(ShapeReport.memorySpace(3).startsWith("S(3): backend-specific"));
    }

    @Test
    void elementTypesGiveWidthsAndKind() {
        assertEquals("bf16: floating point, bfloat16; 16 bits, 2 bytes", ShapeReport.elementType(ElementType.BF16));
        assertTrue(ShapeReport.elementType(ElementType.S4).startsWith("s4: signed integer, sub-byte"));
        assertTrue(ShapeReport.elementType(ElementType.S4).endsWith("4 bits, 1 byte"));
        assertTrue(ShapeReport.elementType(ElementType.C64).contains("pair of f32"));
        assertTrue(ShapeReport.elementType(ElementType.PRED).startsWith("pred: boolean"));
    }

    @Test
    void dimensionsMarkDynamicSizes() {
        assertTrue(ShapeReport.dimensions(ArrayShape.parse("f32[<=4,?,3]")).startsWith("[<=4, ?, 3]  rank 3; 2 dynamic"));
        assertEquals("[]  rank 0 (a scalar)", ShapeReport.dimensions(ArrayShape.parse("f32[]")));
    }

    @Test
    void packingAndPaddingAreExplained() {
        String r = ShapeReport.of(Shape.parse("s4[123,456]{1,0:T(2,128)E(4)}"));
        assertTrue(r.contains("E(4): each element stored in 4 bits, 2 per byte"), r);
        // spec section 11 F: ByteSizeOf 28044, ArraySize 31744
        assertTrue(r.contains("byteSize        28044 B"), r);
        assertTrue(r.contains("bufferSize      31744 B"), r);
        String legacy = ShapeReport.of(Shape.parse("f32[2,3]{1,0:PAD(3,5:zero)}"));
        assertTrue(legacy.contains("each dim padded at its end to [3, 5]"), legacy);
        assertTrue(legacy.contains("bufferSize      60 B"), legacy);
        String tail = ShapeReport.of(Shape.parse("f32[2,3]{1,0:L(16)}"));
        assertTrue(tail.contains("(ignored: the layout is untiled, as in XLA)"), tail);
    }

    @Test
    void addressingNamesTheKind() {
        assertTrue(ShapeReport.addressing(Addressing.of(ArrayShape.parse("f32[3,5]{1,0:T(2,2)}")))
                .startsWith("Addressing.Kind.TILED_2"));
        assertTrue(ShapeReport.addressing(Addressing.of(ArrayShape.parse("f32[3,5]")))
                .startsWith("Addressing.Kind.STRIDED_2"));
        assertTrue(ShapeReport.addressing(Addressing.of(ArrayShape.parse("f32[8]{0:T(2,2)}")))
                .startsWith("Addressing.Kind.GENERAL"));
    }

    @Test
    void nonArraysAreDescribed() {
        assertTrue(ShapeReport.of(Shape.parse("token[]")).contains("holds no data"));
        assertTrue(ShapeReport.of(Shape.parse("opaque[]")).contains("8 B (a pointer)"));
        String b = ShapeReport.of(Shape.parse("b(f32[4]{0})"));
        assertTrue(b.contains("buffer") && b.contains("\n  shape           f32[4]{0}\n"), b);
        assertTrue(ShapeReport.of(Shape.parse("()")).contains("tuple of 0 elements"));
    }
}
