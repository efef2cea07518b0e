package dev.tegula.ffm;

import static dev.tegula.ffm.TestArrays.rawAt;
import static dev.tegula.ffm.TestArrays.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.ArrayShape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract over {@link Array#allocate}d arrays, plus what only a fresh buffer shows: padding. */
class AllocatedArrayTest extends ArrayContract {
    @Override
    protected Array create(ArrayShape shape) {
        return Array.allocate(arena, shape);
    }

    @ParameterizedTest
    @MethodSource("families")
    void allocationHasTheBufferSizeAndPaddingHoldsThePaddingValue(String text) {
        ArrayShape s = shape(text);
        Array a = create(s);
        assertEquals(s.bufferSize(), a.segment().byteSize());
        long pad = ElementIO.paddingCode(s.elementType(), s.layout().paddingValue());
        a.fill(1.0);
        a.fill(2L);
        long bits = s.slotBits();
        for (long slot = 0; slot < s.slotCount(); slot++) {
            if (!s.isElementSlot(slot)) {
                assertEquals(pad, rawAt(a.segment(), slot, bits), "padding slot " + slot);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("families")
    void slotOfIsTheLinearIndex(String text) {
        ArrayShape s = shape(text);
        Array a = create(s);
        TestArrays.forEachIndex(s.dimensions(), (o, idx) -> assertEquals(s.linearIndex(idx), a.slot(idx)));
    }
}
