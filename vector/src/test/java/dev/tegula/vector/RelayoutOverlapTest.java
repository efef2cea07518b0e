package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A relayout whose destination shares memory with its source (the same array, a view of the
 * source's buffer, a second segment over the same bytes) is refused with an
 * {@link IllegalArgumentException} before anything is written; views of one buffer whose elements
 * are disjoint (two halves, interleaved columns, even where their spans overlap) relayout correctly.
 */
class RelayoutOverlapTest {
    private static final ArrayShape MATRIX = ArrayShape.parse("f32[64,48]{1,0}");

    /** A row-major 64 x 48 matrix whose element (i, j) is {@code 1000 i + j}. */
    private static Array matrix(Arena arena) {
        Array a = Array.allocate(arena, MATRIX);
        for (long i = 0; i < 64; i++) {
            for (long j = 0; j < 48; j++) {
                a.setFloat(i, j, 1000 * i + j);
            }
        }
        return a;
    }

    private static byte[] bytes(Array a) {
        return a.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Checks that {@code call} is refused as an overlap and leaves {@code memory} as it was. */
    private static void refused(Executable call, Array memory) {
        byte[] before = bytes(memory);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains("overlaps the source"), e.getMessage());
        assertTrue(Arrays.equals(before, bytes(memory)), "a refused relayout wrote memory");
    }

    @Test
    void anArrayIntoItselfIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            refused(() -> Relayout.copy(a, a), a);
            refused(() -> Relayout.plan(a, a).execute(a, a), a);
            RelayoutPlan plan = Relayout.plan(MATRIX, MATRIX.withLayout(dev.tegula.core.Layout.columnMajor(2)));
            refused(() -> plan.execute(a.segment(), a.segment()), a);
            // another segment object over the same bytes, a shifted slice
            refused(() -> plan.execute(a.segment(), a.segment().asSlice(0)), a);
            MemorySegment larger = arena.allocate(MATRIX.bufferSize() + 64);
            Array shifted = Array.wrap(larger, MATRIX);
            refused(() -> plan.execute(larger, larger.asSlice(4)), shifted);
        }
    }

    @Test
    void aTransposedViewOfTheSourceIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            Array square = a.slice(1, 0, 48).slice(0, 0, 48);
            refused(() -> Relayout.copy(square, square.permute(1, 0)), a);
            refused(() -> Relayout.copy(square.permute(1, 0), square), a);
        }
    }

    @Test
    void shiftedRowsOfOneBufferAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            refused(() -> Relayout.copy(a.slice(0, 0, 32), a.slice(0, 1, 33)), a);
            refused(() -> Relayout.copy(a.slice(0, 31, 63), a.slice(0, 0, 32)), a);
            // columns 0, 2, ... 22 into columns 2, 4, ... 24: 11 of 12 columns are shared
            refused(() -> Relayout.copy(a.slice(1, 0, 24, 2), a.slice(1, 2, 26, 2)), a);
            // a whole dense array into a strided view of itself
            refused(() -> Relayout.copy(a.slice(0, 0, 32), a.slice(0, 0, 64, 2)), a);
        }
    }

    @Test
    void aMeasuringPlannerRefusesOverlappingArraysBeforeTimingOnThem() {
        // measuring times candidates on the arrays themselves, writing the destination
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            refused(() -> Relayout.plans().plan(a.slice(0, 0, 32), a.slice(0, 1, 33), Planning.MEASURE, 1, null), a);
        }
    }

    @Test
    void heapSegmentsOfOneJavaArrayAreRefused() {
        float[] values = new float[64 * 48];
        Array a = Array.wrap(MemorySegment.ofArray(values), MATRIX);
        Array b = Array.wrap(MemorySegment.ofArray(values), MATRIX.withLayout(dev.tegula.core.Layout.columnMajor(2)));
        refused(() -> Relayout.copy(a, b), a);
        Array other = Array.wrap(MemorySegment.ofArray(new float[64 * 48]), b.shape());
        Relayout.copy(a, other);
    }

    @Test
    void topHalfIntoBottomHalfIsCorrect() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            Relayout.copy(a.slice(0, 0, 32), a.slice(0, 32, 64));
            for (long i = 0; i < 64; i++) {
                for (long j = 0; j < 48; j++) {
                    assertEquals(1000 * (i % 32) + j, a.getFloat(i, j), "(" + i + ", " + j + ")");
                }
            }
        }
    }

    @Test
    void leftHalfIntoRightHalfIsCorrect() {
        // the two views' byte spans overlap (each row holds both), their elements do not
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            Relayout.copy(a.slice(1, 0, 24), a.slice(1, 24, 48));
            for (long i = 0; i < 64; i++) {
                for (long j = 0; j < 48; j++) {
                    assertEquals(1000 * i + j % 24, a.getFloat(i, j), "(" + i + ", " + j + ")");
                }
            }
        }
    }

    @Test
    void evenColumnsIntoOddColumnsIsCorrect() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            Relayout.copy(a.slice(1, 0, 48, 2), a.slice(1, 1, 48, 2));
            for (long i = 0; i < 64; i++) {
                for (long j = 0; j < 48; j++) {
                    assertEquals(1000 * i + j / 2 * 2, a.getFloat(i, j), "(" + i + ", " + j + ")");
                }
            }
        }
    }

    @Test
    void aTransposeIntoAnotherBlockOfTheSameBufferIsCorrect() {
        try (Arena arena = Arena.ofConfined()) {
            Array a = matrix(arena);
            Array block = a.slice(0, 0, 16).slice(1, 0, 16);
            Array target = a.slice(0, 16, 32).slice(1, 16, 32).permute(1, 0);
            Relayout.copy(block, target);
            for (long i = 0; i < 16; i++) {
                for (long j = 0; j < 16; j++) {
                    assertEquals(1000 * i + j, a.getFloat(16 + j, 16 + i), "(" + i + ", " + j + ")");
                    assertEquals(1000 * i + j, a.getFloat(i, j), "source (" + i + ", " + j + ")");
                }
            }
        }
    }
}
