package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.quant.Dequantize;
import dev.tegula.vector.quant.QuantBlock;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On the class path without {@code --add-modules jdk.incubator.vector}, the first relayout (or
 * dequantization) fails with an error that names the flag, not a bare {@code NoClassDefFoundError}
 * for a class of {@code jdk/incubator/vector}. Run in a child JVM started without the flag.
 */
class MissingVectorApiTest {
    /** The child: tries each entry point and prints the error each one throws, one line each. */
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 64, 64));
            List<Runnable> calls = List.of(
                    () -> Relayout.to(a, Layout.of(0, 1), arena),
                    () -> Relayout.plan(a.shape(), a.shape().withLayout(Layout.of(0, 1))),
                    () -> Dequantize.copy(QuantBlock.Q8_0, MemorySegment.ofArray(new byte[34 * 2 * 64]), a));
            for (Runnable call : calls) {
                try {
                    call.run();
                    System.out.println("no error");
                } catch (Throwable t) {
                    System.out.println(t.getClass().getName() + ": " + t.getMessage());
                }
            }
        }
    }

    @Test
    void withoutTheIncubatorModuleOnTheClassPathTheErrorNamesTheFlag() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                MissingVectorApiTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().toList();
        assertEquals(3, lines.size(), out);
        for (String line : lines) {
            assertTrue(line.startsWith("java.lang.NoClassDefFoundError: "), out);
            assertTrue(line.contains("add --add-modules jdk.incubator.vector to the java command"), out);
        }
    }
}
