package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/interop.md, "Tiled checkpoints read without Tegula": what it tells another library about a
 * tiled tensor in a safetensors file is what {@link TensorFiles#convert} writes, and its NumPy
 * reader is the code of {@code examples/numpy-reader/read_tiled.py} (which {@code .ci/run} runs
 * against a tiled conversion; the Java tests stay Java-only).
 */
class TiledCheckpointReaderDocTest {
    private static final String BEGIN = "# --- read_tiled: docs/interop.md ---\n";
    private static final String END = "# --- end of read_tiled ---";

    @TempDir
    Path dir;

    @Test
    void theDocsNumpyReaderIsTheExampleScriptsCode() throws Exception {
        String doc = Files.readString(Path.of("../docs/interop.md"));
        int at = doc.indexOf("<!-- read_tiled.py -->\n```python\n");
        assertTrue(at >= 0, "docs/interop.md marks its NumPy reader with <!-- read_tiled.py -->");
        int from = doc.indexOf("```python\n", at) + "```python\n".length();
        String documented = doc.substring(from, doc.indexOf("```", from));
        String script = Files.readString(Path.of("../examples/numpy-reader/read_tiled.py"));
        int begin = script.indexOf(BEGIN);
        assertTrue(begin >= 0 && script.indexOf(END) > begin, "read_tiled.py marks the documented block");
        assertEquals(script.substring(begin + BEGIN.length(), script.indexOf(END)), documented);
        assertTrue(documented.lines().count() < 45, "the reader stays short: " + documented.lines().count() + " lines");
    }

    /**
     * The documented format read back by the documented slot formula, written out here from the
     * text of the docs: U8 bytes of the whole buffer, the shape text under tegula.shape.NAME, each
     * element at {@code rm(I, P) × size} after the tiles split (P, I); padding slots in between.
     */
    @Test
    void aTiledTensorIsWhereTheDocumentedFormulaPutsIt() throws Exception {
        ArrayShape tiled = ArrayShape.parse("bf16[20,130]{0,1:T(8,128)(2,1)}");
        Path in = dir.resolve("w.safetensors");
        Path out = dir.resolve("w-tiled.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            Array w = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 20, 130));
            double[] values = new double[20 * 130];
            for (int i = 0; i < values.length; i++) {
                values[i] = i % 251 - 125;   // exact in bf16, and distinct enough to place every element
            }
            w.copyFrom(values);
            Map<String, Array> plain = new LinkedHashMap<>();
            plain.put("w", w);
            plain.put("b", Array.allocate(arena, ArrayShape.of(ElementType.F32, 3)));
            SafeTensors.write(plain, in);
            TensorFiles.convert(in, out, ConvertRules.all().layout("w", tiled.layout()), ConvertOptions.defaults());

            SafeTensorsHeader h = SafeTensors.readHeader(out);
            SafeTensorsHeader.Entry e = h.entry("w");
            assertEquals("U8", e.dtype());
            assertEquals(tiled.bufferSize(), e.end() - e.begin(), "the whole buffer, padding included");
            assertEquals(tiled.toString(), h.metadata().get("tegula.shape.w"));
            assertFalse(h.metadata().containsKey("tegula.shape.b"), "a tensor stored as itself has no key");
            assertEquals("F32", h.entry("b").dtype());

            MemorySegment file = MemorySegment.ofArray(Files.readAllBytes(out));
            long data = h.dataOffset() + e.begin();
            long[] dims = {20, 130};
            int[] minorToMajor = {0, 1};
            List<long[]> tiles = List.of(new long[] {8, 128}, new long[] {2, 1});
            for (long i = 0; i < 20; i++) {
                for (long j = 0; j < 130; j++) {
                    long slot = documentedSlot(dims, minorToMajor, tiles, new long[] {i, j});
                    short bits = file.get(ValueLayout.JAVA_SHORT_UNALIGNED, data + 2 * slot);
                    assertEquals((float) values[(int) (i * 130 + j)], Float.intBitsToFloat(bits << 16), "element " + i + "," + j);
                }
            }
        }
    }

    /** The slot formula as docs/interop.md states it. */
    private static long documentedSlot(long[] d, int[] m, List<long[]> tiles, long[] e) {
        List<Long> p = new ArrayList<>();
        List<Long> idx = new ArrayList<>();
        for (int k = m.length - 1; k >= 0; k--) {
            p.add(d[m[k]]);
            idx.add(e[m[k]]);
        }
        for (long[] t : tiles) {
            while (p.size() < t.length) {
                p.addFirst(1L);
                idx.addFirst(0L);
            }
            int s = p.size() - t.length;
            List<Long> np = new ArrayList<>(p.subList(0, s));
            List<Long> ni = new ArrayList<>(idx.subList(0, s));
            for (int i = 0; i < t.length; i++) {
                np.add((p.get(s + i) + t[i] - 1) / t[i]);
                ni.add(idx.get(s + i) / t[i]);
            }
            for (int i = 0; i < t.length; i++) {
                np.add(t[i]);
                ni.add(idx.get(s + i) % t[i]);
            }
            p = np;
            idx = ni;
        }
        long slot = 0;
        for (int i = 0; i < p.size(); i++) {
            slot = slot * p.get(i) + idx.get(i);
        }
        return slot;
    }
}
