package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.BulkCopier;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * With module vector on the class path but the JVM without the Vector API, the engine's provider
 * refuses to load and {@link Array}'s bulk methods fall back to the element walk: they still work.
 * Run in a child JVM started without {@code --add-modules jdk.incubator.vector}.
 */
class ArrayBulkWithoutVectorApiTest {
    /** The child: prints whether an engine is installed, then a transposed array read and written in bulk. */
    public static void main(String[] args) {
        System.out.println("engine " + BulkCopier.installed());
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[2,3]{0,1}"));
            a.copyFrom(new float[] {9, 0, 1, 2, 3, 4, 5, 9}, 1);
            float[] out = new float[6];
            a.toFloatArray(out, 0);
            System.out.println(Arrays.toString(out) + " " + a.getFloat(1, 0) + " "
                    + a.toRowMajor(arena).isDenseIn(Layout.rowMajor(2)));
        }
    }

    @Test
    void withoutTheVectorApiTheBulkMethodsWalkTheElements() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ArrayBulkWithoutVectorApiTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("engine null\n[0.0, 1.0, 2.0, 3.0, 4.0, 5.0] 3.0 true\n", out);
    }
}
