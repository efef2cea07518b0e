package dev.tegula.core.testing;

import java.util.Random;
import java.util.function.IntUnaryOperator;

/**
 * Permutations of {@code 0..n-1} for tests of every module: dimension orders for layouts
 * ({@code minor_to_major}) and for views ({@code permute}). Shared through core's tests jar.
 */
public final class Permutations {
    private Permutations() {
    }

    /**
     * {@return a permutation of {@code 0..n-1} shuffled by Fisher and Yates}: for {@code i} from
     * {@code n-1} down to 1, entry {@code i} is swapped with entry {@code pick(i)}, which must lie in
     * {@code [0, i]}. The picks are asked for in that order, so a fuzz target that draws them from its
     * input replays its committed inputs the same way.
     */
    public static int[] shuffled(int n, IntUnaryOperator pick) {
        int[] m = new int[n];
        for (int i = 0; i < n; i++) {
            m[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = pick.applyAsInt(i);
            int t = m[i];
            m[i] = m[j];
            m[j] = t;
        }
        return m;
    }

    /** {@return a permutation of {@code 0..n-1} shuffled with {@code random}} */
    public static int[] shuffled(Random random, int n) {
        return shuffled(n, i -> random.nextInt(i + 1));
    }

    /** {@return {@code n-1, ..., 1, 0}: as a {@code minor_to_major}, row-major; as a view's order, the transpose} */
    public static int[] reversed(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = n - 1 - i;
        }
        return p;
    }
}
