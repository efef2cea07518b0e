package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import java.lang.foreign.MemorySegment;

/**
 * The contract over arrays wrapped around native segments allocated elsewhere, deliberately one
 * byte off any alignment (accesses are unaligned, so that must work).
 */
class WrappedArrayTest extends ArrayContract {
    @Override
    protected Array create(ArrayShape shape) {
        MemorySegment raw = arena.allocate(shape.bufferSize() + 1, 64);
        return Array.wrap(raw.asSlice(1), shape);
    }
}
