package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.safetensors.SafeTensors;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tensor tables of {@code tegula inspect FILE} keep their columns when names are longer than
 * the narrowest name column (20 characters for safetensors, 28 for GGUF): the column widens to the
 * longest name, up to 56 characters, and each column starts at the same place on every line.
 */
class InspectColumnsTest {
    @TempDir
    Path dir;

    private static final String LONG = "model.layers.17.self_attn.q_proj.weight";   // 39 characters

    /** {@return the start of each column (after runs of spaces) of {@code line}} */
    private static List<Integer> columns(String line) {
        List<Integer> out = new java.util.ArrayList<>();
        for (int i = 2; i < line.length(); i++) {
            if (line.charAt(i) != ' ' && (i == 2 || line.charAt(i - 1) == ' ')) {
                out.add(i);
            }
        }
        return out;
    }

    @Test
    void safetensorsColumnsWidenToALongName() throws Exception {
        Path p = dir.resolve("long.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = new LinkedHashMap<>();
            t.put("b", Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 4)));
            t.put(LONG, Array.allocate(arena, ArrayShape.of(ElementType.BF16, 20, 300)));
            SafeTensors.write(t, p);
        }
        MainTest.Result r = MainTest.run("inspect", p.toString());
        assertEquals(0, r.status(), r.err());
        List<String> rows = r.out().lines().filter(l -> l.startsWith("  b ") || l.startsWith("  " + LONG)).toList();
        assertEquals(2, rows.size(), r.out());
        assertEquals(columns(rows.get(0)).subList(0, 4), columns(rows.get(1)).subList(0, 4), r.out());
        assertEquals(2 + LONG.length() + 1, columns(rows.get(0)).get(1), r.out());
    }

    @Test
    void shortNamesKeepTheNarrowestColumn() throws Exception {
        Path p = dir.resolve("short.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            SafeTensors.write(Map.of("w", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2))), p);
        }
        String row = MainTest.run("inspect", p.toString()).out().lines().filter(l -> l.startsWith("  w ")).findFirst()
                .orElseThrow();
        assertEquals(List.of(2, 23, 56, 65), columns(row).subList(0, 4), row);
    }

    @Test
    void ggufColumnsWidenToALongName() throws Exception {
        Path p = dir.resolve("long.gguf");
        String longer = "blk.17.ffn_down_shexp.weight.and.more";   // 37 characters
        try (Arena arena = Arena.ofConfined()) {
            Gguf.writer().tensor("w", Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 8)))
                    .tensor(longer, Array.allocate(arena, ArrayShape.of(ElementType.F32, 4, 8))).write(p);
        }
        MainTest.Result r = MainTest.run("inspect", p.toString());
        assertEquals(0, r.status(), r.err());
        List<String> rows = r.out().lines()
                .filter(l -> l.startsWith("  tensor ") || l.startsWith("  w ") || l.startsWith("  " + longer)).toList();
        assertEquals(3, rows.size(), r.out());
        List<Integer> heading = columns(rows.get(0));
        assertTrue(heading.contains(2 + longer.length() + 1), r.out());
        for (String row : rows.subList(1, 3)) {
            List<Integer> c = columns(row);
            assertEquals(2 + longer.length() + 1, c.get(1), r.out());
            assertTrue(heading.containsAll(c.subList(0, 4)), row + "\n" + r.out());
        }
    }
}
