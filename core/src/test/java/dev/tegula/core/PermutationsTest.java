package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.core.testing.Permutations;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PermutationsTest {

    @Test
    void shuffledGivesEveryPermutationOfThreeAndNothingElse() {
        Random r = new Random(7);
        Set<List<Integer>> seen = new HashSet<>();
        for (int k = 0; k < 300; k++) {
            int[] p = Permutations.shuffled(r, 3);
            int[] sorted = p.clone();
            Arrays.sort(sorted);
            assertArrayEquals(new int[] {0, 1, 2}, sorted, Arrays.toString(p));
            seen.add(Arrays.stream(p).boxed().toList());
        }
        assertEquals(6, seen.size());
    }

    @Test
    void shuffledAsksForItsPicksFromTheLastEntryDown() {
        StringBuilder asked = new StringBuilder();
        int[] p = Permutations.shuffled(4, i -> {
            asked.append(i);
            return 0;
        });
        assertEquals("321", asked.toString());
        // swap 3<->0: [3,1,2,0]; 2<->0: [2,1,3,0]; 1<->0: [1,2,3,0]
        assertArrayEquals(new int[] {1, 2, 3, 0}, p);
        assertArrayEquals(new int[0], Permutations.shuffled(0, i -> 0));
    }

    @Test
    void reversedCountsDown() {
        assertArrayEquals(new int[] {3, 2, 1, 0}, Permutations.reversed(4));
        assertArrayEquals(new int[] {0}, Permutations.reversed(1));
    }
}
