package dev.tegula.core;

import java.util.Arrays;

/**
 * A split of one physical dimension at the given indices, written {@code (d:i,j)} inside
 * {@code SC...} in the text form. Physical dimension 0 is the most major. Immutable.
 *
 * @param dimension    the physical dimension that is split (0 = most major)
 * @param splitIndices strictly increasing split points, each in {@code (0, size)}
 */
public record SplitConfig(int dimension, long[] splitIndices) {
    /** Copies the split indices so the record stays immutable. */
    public SplitConfig {
        splitIndices = splitIndices.clone();
    }

    /** {@return a split config} */
    public static SplitConfig of(int dimension, long... splitIndices) {
        return new SplitConfig(dimension, splitIndices);
    }

    /** {@return the split indices (a copy)} */
    @Override
    public long[] splitIndices() {
        return splitIndices.clone();
    }

    long[] indicesUnsafe() {
        return splitIndices;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SplitConfig s && s.dimension == dimension && Arrays.equals(s.splitIndices, splitIndices);
    }

    @Override
    public int hashCode() {
        return 31 * dimension + Arrays.hashCode(splitIndices);
    }

    /** {@return the text form, e.g. {@code (0:2,5)}} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(").append(dimension).append(':');
        for (int i = 0; i < splitIndices.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(splitIndices[i]);
        }
        return sb.append(')').toString();
    }
}
