package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.kernels.Tuning;
import jdk.incubator.vector.IntVector;
import org.junit.jupiter.api.Test;

/**
 * Proves that each of the relayout test runs in vector/pom.xml got the vector width it asked for:
 * {@code -Dtegula.relayout.scalar=true} switches the Vector API kernels off, {@code -XX:UseAVX=2}
 * limits vectors to 256 bits on x86 (and the 256-bit kernels stay on). The default run logs what the
 * machine offers.
 */
class RelayoutWidthTest {

    @Test
    void runsAtTheRequestedWidth() {
        int bits = IntVector.SPECIES_PREFERRED.vectorBitSize();
        int useAvx = Integer.getInteger("tegula.test.useAVX", -1);   // set next to -XX:UseAVX=n in vector/pom.xml
        System.getLogger(RelayoutWidthTest.class.getName()).log(System.Logger.Level.INFO,
                "relayout kernels: {0}, preferred vectors {1} bits{2}",
                Tuning.VECTOR ? "Vector API" : "scalar", bits, useAvx < 0 ? "" : ", -XX:UseAVX=" + useAvx);
        if (Boolean.getBoolean("tegula.relayout.scalar")) {
            assertFalse(Tuning.VECTOR, "-Dtegula.relayout.scalar=true must select the scalar kernels");
        } else if (useAvx == 2 && System.getProperty("os.arch").equals("amd64")) {
            assertTrue(bits <= 256, "-XX:UseAVX=2 must limit vectors to 256 bits, got " + bits);
            assertEquals(bits == 256, Tuning.VECTOR, "the 256-bit kernels run exactly when 256-bit vectors exist");
        }
    }
}
