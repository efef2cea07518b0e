package dev.tegula.vector.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.MachineFacts;
import org.junit.jupiter.api.Test;

/** The store probe ({@link StoreProbe}) and the facts it gives, probed once per JVM ({@link MachineFacts#here()}). */
class StoreProbeTest {

    @Test
    void theProbeGivesBothBandwidthsWhereTheStreamingRoutineIsThereAndPlainOnlyElsewhere() {
        double[] r = StoreProbe.measure();
        assertEquals(2, r.length);
        assertTrue(r[0] > 0 && Double.isFinite(r[0]), "plain " + r[0]);
        if (StreamStores.available()) {
            assertTrue(r[1] > 0 && Double.isFinite(r[1]), "streamed " + r[1]);
        } else {
            assertEquals(0.0, r[1]);
        }
        // the units cover the destination whole: no bytes left out of the rate
        assertEquals(0, StoreProbe.DESTINATION_BYTES % (StoreProbe.ROW_BYTES * StoreProbe.BLOCK_ROWS * StoreProbe.UNIT_BLOCKS));
    }

    @Test
    void theFactsAreProbedOnceAJvmAndKeptInMemory() {
        MachineFacts first = MachineFacts.here();
        assertSame(first, MachineFacts.here());
        assertTrue(first.plainStoreGBps() > 0, first.toString());
        assertEquals(StreamStores.available(), first.streamedStoreGBps() > 0, first.toString());
        assertEquals(MachineFacts.unmeasured(), first.withStores(0, 0));
    }
}
