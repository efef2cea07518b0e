package dev.tegula.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

/**
 * The contract every array shape must keep, whatever built it (the parser at any level, the
 * factories and withers), shared by the fuzz targets.
 *
 * <ul>
 *   <li>A shape that is not STRICT-valid, or has an unbounded dimension, refuses sizes, index math
 *       and {@link Addressing#of} with {@link IllegalArgumentException}.</li>
 *   <li>A STRICT-valid one has sizes that are exactly the spec's (computed in {@link BigInteger}):
 *       nothing wraps silently, {@code bufferSize >= byteSize >= 0}, {@code slotCount >= elementCount}.</li>
 *   <li>On sampled indices (corners and random ones) every address calculator agrees with
 *       {@link ArrayShape#linearIndex}: the {@link Addressing} leaf (varargs and rank-specialised
 *       overloads), the {@link SlotFormula} when there is one, and {@link ArrayShape#multiIndex}
 *       inverts it; the slot is below {@code slotCount}. Out-of-bounds and wrong-rank indices throw
 *       {@link IndexOutOfBoundsException} naming the index and the shape.</li>
 * </ul>
 */
final class ArrayShapeChecks {
    private ArrayShapeChecks() {
    }

    static void check(ArrayShape a, long seed) {
        try {
            checkUnwrapped(a, seed);
        } catch (RuntimeException e) {
            throw new AssertionError("unexpected " + e + " on " + a, e);
        }
    }

    private static void checkUnwrapped(ArrayShape a, long seed) {
        if (Validation.STRICT.problem(a) != null || !a.isStaticOrBounded()) {
            assertThrows(IllegalArgumentException.class, a::bufferSize, a::toString);
            assertThrows(IllegalArgumentException.class, a::elementCount, a::toString);
            assertThrows(IllegalArgumentException.class, () -> Addressing.of(a), a::toString);
            return;
        }
        BigInteger slots = BigSizes.slotCount(a);
        BigInteger bytes = BigSizes.bytes(a, slots);
        assertTrue(BigSizes.fitsLong(slots) && BigSizes.fitsLong(bytes),
                () -> "STRICT accepted " + a + " whose buffer needs " + slots + " slots, " + bytes + " bytes");
        assertEquals(BigSizes.elementCount(a).longValueExact(), a.elementCount(), a::toString);
        assertEquals(slots.longValueExact(), a.slotCount(), a::toString);
        assertEquals(bytes.longValueExact(), a.bufferSize(), a::toString);
        long n = a.elementCount();
        long byteSize = a.byteSize();
        assertTrue(byteSize >= 0 && a.bufferSize() >= byteSize, () -> a + ": byteSize " + byteSize
                + ", bufferSize " + a.bufferSize());
        assertTrue(a.slotCount() >= n, a::toString);

        Addressing ad = Addressing.of(a);
        assertEquals(a.slotCount(), ad.slotCount());
        assertEquals(a.bufferSize(), ad.bufferSize());
        Optional<SlotFormula> formula = SlotFormula.of(a);
        int rank = a.rank();
        long[] dims = a.dimensions();
        if (n == 0) {
            if (rank > 0) {
                assertThrows(IndexOutOfBoundsException.class, () -> a.linearIndex(new long[rank]), a::toString);
                assertThrows(IndexOutOfBoundsException.class, () -> ad.slot(new long[rank]), a::toString);
            }
            return;
        }
        Random r = new Random(seed);
        for (int sample = 0; sample < 8; sample++) {
            long[] idx = new long[rank];
            for (int d = 0; d < rank; d++) {
                idx[d] = switch (sample) {
                    case 0 -> 0;
                    case 1 -> dims[d] - 1;
                    default -> Math.floorMod(r.nextLong(), dims[d]);
                };
            }
            checkIndex(a, ad, formula, idx);
        }
        // out of bounds, one coordinate at a time, and the wrong rank
        for (int d = 0; d < rank; d++) {
            long[] bad = new long[rank];
            bad[d] = r.nextBoolean() ? dims[d] : -1 - r.nextInt(3);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.linearIndex(bad));
            assertTrue(e.getMessage().contains(Arrays.toString(bad)) && e.getMessage().contains(a.toStringWithoutLayout()),
                    e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> ad.slot(bad), ad::toString);
            assertThrows(IndexOutOfBoundsException.class, () -> ad.byteOffset(bad), ad::toString);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> ad.slot(new long[rank + 1]), ad::toString);
        if (rank != 1) {
            assertThrows(IndexOutOfBoundsException.class, () -> ad.slot(0L), ad::toString);
        }
        if (rank != 2) {
            assertThrows(IndexOutOfBoundsException.class, () -> ad.slot(0L, 0L), ad::toString);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> a.multiIndex(a.slotCount()));
        assertThrows(IndexOutOfBoundsException.class, () -> a.multiIndex(-1));
    }

    private static void checkIndex(ArrayShape a, Addressing ad, Optional<SlotFormula> formula, long[] idx) {
        long lin = a.linearIndex(idx);
        String where = a + " at " + Arrays.toString(idx) + " (" + ad + ")";
        assertTrue(lin >= 0 && lin < a.slotCount(), () -> where + ": slot " + lin + " of " + a.slotCount());
        assertEquals(lin, ad.slot(idx), where);
        long specialised = switch (idx.length) {
            case 1 -> ad.slot(idx[0]);
            case 2 -> ad.slot(idx[0], idx[1]);
            case 3 -> ad.slot(idx[0], idx[1], idx[2]);
            case 4 -> ad.slot(idx[0], idx[1], idx[2], idx[3]);
            default -> lin;
        };
        assertEquals(lin, specialised, where);
        long byteOffset = ad.byteOffset(idx);
        assertEquals(ad.byteOffsetOfSlot(lin), byteOffset, where);
        assertTrue(byteOffset >= 0 && byteOffset < a.bufferSize(), () -> where + ": byte " + byteOffset);
        formula.ifPresent(f -> assertEquals(lin, f.slot(idx), () -> where + " by " + f));
        assertTrue(a.isElementSlot(lin), where);
        assertArrayEquals(idx, a.multiIndex(lin), where);
    }
}
