package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The contract over views: the array under test is {@code parent.select(0, 1)} of a parent with an
 * extra, physically most major dimension of size 2; where the tiling forbids that (a tile reaches
 * every dimension), a {@code permute} view of a parent stored with its dimensions reversed.
 * Element positions are checked in the parent's memory at the parent's linear index.
 */
class ViewArrayTest extends ArrayContract {
    private record Origin(Array parent, UnaryOperator<long[]> toParent) {
    }

    private final Map<Array, Origin> origins = new IdentityHashMap<>();

    @Override
    protected Array create(ArrayShape shape) {
        Layout l = shape.layout();
        int rank = shape.rank();
        int[] m2m = new int[rank + 1];
        for (int k = 0; k < rank; k++) {
            m2m[k] = l.minorToMajor(k) + 1;
        }
        long[] dims = new long[rank + 1];
        dims[0] = 2;
        System.arraycopy(shape.dimensions(), 0, dims, 1, rank);
        long[] padded = null;
        if (l.hasPaddedDimensions()) {
            padded = new long[rank + 1];
            padded[0] = 2;
            System.arraycopy(l.paddedDimensions(), 0, padded, 1, rank);
        }
        Array parent = Array.allocate(arena, ArrayShape.of(shape.elementType(), dims)
                .withLayout(Views.relabel(l, m2m, padded)));
        try {
            Array view = parent.select(0, 1);
            origins.put(view, new Origin(parent, idx -> {
                long[] p = new long[idx.length + 1];
                p[0] = 1;
                System.arraycopy(idx, 0, p, 1, idx.length);
                return p;
            }));
            return view;
        } catch (IllegalArgumentException notTileAligned) {
            int[] reverse = new int[rank];
            int[] m = new int[rank];
            long[] rdims = new long[rank];
            for (int k = 0; k < rank; k++) {
                reverse[k] = rank - 1 - k;
                m[k] = rank - 1 - l.minorToMajor(k);
                rdims[k] = shape.dimension(rank - 1 - k);
            }
            Array reversed = Array.allocate(arena, ArrayShape.of(shape.elementType(), rdims)
                    .withLayout(Views.relabel(l, m, null)));
            Array view = reversed.permute(reverse);
            origins.put(view, new Origin(reversed, idx -> {
                long[] p = new long[rank];
                for (int k = 0; k < rank; k++) {
                    p[k] = idx[rank - 1 - k];
                }
                return p;
            }));
            return view;
        }
    }

    @Override
    protected MemorySegment rawMemory(Array a) {
        return origins.get(a).parent().segment();
    }

    @Override
    protected long rawSlot(Array a, long[] index) {
        Origin o = origins.get(a);
        return o.parent().shape().linearIndex(o.toParent().apply(index));
    }
}
