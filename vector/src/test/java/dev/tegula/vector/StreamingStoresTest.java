package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What a process says of its streaming stores ({@link StreamingStores}): the switch turns them off
 * with its reason (vector/pom.xml runs this class with {@code -Dtegula.relayout.streamStores=false}
 * too), and the line people read says on or off and why.
 */
class StreamingStoresTest {

    @Test
    void theSwitchTurnsThemOffAndSaysSo() {
        StreamingStores here = StreamingStores.here();
        assertEquals(here.available(), here.reason() == null, here.toString());
        if ("false".equals(System.getProperty("tegula.relayout.streamStores"))) {
            assertFalse(here.available());
            assertFalse(here.estimated());
            assertTrue(here.reason().contains("tegula.relayout.streamStores=false"), here.reason());
        }
        // the estimate streams only where the routine is there
        assertTrue(here.available() || !here.estimated(), here.toString());
    }

    @Test
    void theLineSaysOnOrOffAndWhy() {
        String off = new StreamingStores(false, false, "the routine is made for x86-64 only, not aarch64").describe();
        assertTrue(off.startsWith("streaming stores: off (the routine is made for x86-64 only, not aarch64)"), off);
        String on = new StreamingStores(true, true, null).describe();
        assertTrue(on.startsWith("streaming stores: on; the estimate streams destinations of 32 MiB"), on);
        String timedOnly = new StreamingStores(true, false, null).describe();
        assertTrue(timedOnly.startsWith("streaming stores: on; the estimate does not use them"), timedOnly);
    }
}
