package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TensorFilesTest {
    @TempDir
    Path dir;

    private static Layout layout(String shape) {
        return ArrayShape.parse(shape).layout();
    }

    @Test
    void safetensorsTensorReadsStraightIntoATiledLayout() throws IOException {
        Path p = dir.resolve("m.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Array w = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 20, 300));
            w.copyFrom(IntStream.range(0, 6000).mapToDouble(i -> i % 256).toArray());
            Array b = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3));
            SafeTensors.write(Map.of("b", b, "w", w), p);
            Array t = TensorFiles.readAs(p, "w", layout("bf16[20,300]{1,0:T(8,128)(2,1)}"), arena);
            assertEquals("bf16[20,300]{1,0:T(8,128)(2,1)}", t.shape().toString());
            assertTrue(w.contentEquals(t));
            assertEquals(w.getFloat(19, 299), t.getFloat(19, 299));
            assertTrue(!t.segment().isMapped(), "the result is a new array, not the mapping");
        }
    }

    @Test
    void npyReadsIntoColumnMajorAndPackedLayouts() throws IOException {
        Path p = dir.resolve("a.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.S8, 5, 7));
            a.copyFrom(IntStream.range(0, 35).map(i -> i % 16 - 8).toArray());
            Npy.write(a, p);
            Array col = TensorFiles.readAs(p, null, Layout.columnMajor(2), arena);
            assertTrue(a.contentEquals(col));
            assertEquals(Layout.columnMajor(2), col.shape().layout());
        }
    }

    @Test
    void badRequestsAreClear() throws IOException {
        Path p = dir.resolve("m.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            SafeTensors.write(Map.of("x", Array.allocate(arena, ArrayShape.of(ElementType.F32, 4))), p);
            assertThrows(TensorFormatException.class, () -> TensorFiles.readAs(p, "y", Layout.rowMajor(1), arena));
            assertThrows(IllegalArgumentException.class, () -> TensorFiles.readAs(p, "x", Layout.rowMajor(2), arena));
            assertThrows(IllegalArgumentException.class, () -> TensorFiles.readAs(p, null, Layout.rowMajor(1), arena));
        }
    }
}
