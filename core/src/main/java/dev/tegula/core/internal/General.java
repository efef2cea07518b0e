package dev.tegula.core.internal;

import dev.tegula.core.Addressing;
import dev.tegula.core.ArrayShape;

/**
 * Any valid layout: XLA's general nested-tiling algorithm (combined dimensions, long tiles, ...).
 *
 * <p>Not API: exported only to Tegula's own modules; obtain one from {@link Addressing#of}.
 */
public final class General extends Addressing {
    public General(ArrayShape shape) {
        super(shape);
    }

    @Override
    public long slot(long... index) {
        return generalSlot(index);
    }
}
