package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula map FILE [TENSOR]} draws a tensor of a file that {@code inspect} reads in the
 * shape Tegula reads it in: the same map as {@code tegula map SHAPE} of that shape, after a line
 * naming the file and tensor; a missing or unknown tensor name is exit status 2 listing the names.
 */
class MapFileTest {
    static final Path CHECKPOINT = Path.of("../io/src/test/resources/dev/tegula/io/checkpoint/tiny-llama");

    @TempDir
    Path dir;

    private Path npy(String name, String shape) throws IOException {
        Path p = dir.resolve(name);
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(Array.allocate(arena, ArrayShape.parse(shape)), p);
        }
        return p;
    }

    /** Checks that mapping {@code args} prints a header line then exactly the map of {@code shape}. */
    private static void mapsAs(String shape, String... args) {
        MainTest.Result file = MainTest.run(args);
        assertEquals(0, file.status(), file.err());
        MainTest.Result text = MainTest.run("map", shape);
        assertEquals(0, text.status(), text.err());
        String out = file.out();
        String header = out.substring(0, out.indexOf('\n') + 1);
        assertTrue(header.startsWith(args[1]), out);
        assertEquals(text.out(), out.substring(header.length()), "the map of " + shape);
    }

    @Test
    void anNpyFileMapsAsItsShape() throws IOException {
        Path p = npy("w.npy", "f32[3,5]{1,0}");
        mapsAs("f32[3,5]{1,0}", "map", p.toString());
        Path fortran = npy("f.npy", "f32[3,5]{0,1}");
        mapsAs("f32[3,5]{0,1}", "map", fortran.toString());
    }

    @Test
    void aTiledTensorThatConvertWroteMapsInItsRecordedShape() throws IOException {
        Path p = npy("w.npy", "f32[6,10]{1,0}");
        Path out = dir.resolve("w.safetensors");
        MainTest.Result c = MainTest.run("convert", p.toString(), "--layout", "{1,0:T(4,4)}", "--out", out.toString());
        assertEquals(0, c.status(), c.err());
        MainTest.Result r = MainTest.run("map", out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("f32[6,10]{1,0:T(4,4)}"), r.out());
        mapsAs("f32[6,10]{1,0:T(4,4)}", "map", out.toString(), r.out().lines().findFirst().orElseThrow()
                .substring(out.toString().length() + 2));
    }

    @Test
    void aCheckpointTensorIsNamedAndMapped() {
        // the fixture's norms are bf16, 64 wide (io's checkpoint generator)
        mapsAs("bf16[64]{0}", "map", CHECKPOINT.toString(), "model.layers.0.input_layernorm.weight");
        mapsAs("bf16[64]{0}", "map", CHECKPOINT.resolve("model.safetensors.index.json").toString(),
                "model.layers.0.input_layernorm.weight");
    }

    @Test
    void ggufTensorsMapPlainOrAsTheirDequantizedArray() {
        mapsAs("f32[2,3,4]", "map", GgufInspectTest.FIXTURE.toString(), "plain.f32_3d");
        MainTest.Result q = MainTest.run("map", GgufInspectTest.FIXTURE.toString(), "q.Q4_K", "--tiles");
        assertEquals(0, q.status(), q.err());
        assertTrue(q.out().lines().findFirst().orElseThrow().contains("Q4_K blocks"), q.out());
        assertTrue(q.out().contains("f32[2,512]{1,0}"), q.out());
        MainTest.Result unsupported = MainTest.run("map", GgufInspectTest.FIXTURE.toString(), "q.IQ4_NL");
        assertEquals(2, unsupported.status(), unsupported.out());
        assertTrue(unsupported.err().contains("IQ4_NL"), unsupported.err());
    }

    @Test
    void aFileOfSeveralTensorsNeedsAKnownName() {
        MainTest.Result none = MainTest.run("map", CHECKPOINT.toString());
        assertEquals(2, none.status(), none.out());
        assertTrue(none.err().contains("tensors: name one"), none.err());
        assertTrue(none.err().contains("holds 21 tensors"), none.err());
        assertTrue(none.err().contains("model.embed_tokens.weight"), none.err());
        assertTrue(none.err().contains("\u2026 13 more"), none.err());
        MainTest.Result wrong = MainTest.run("map", GgufInspectTest.FIXTURE.toString(), "no.such");
        assertEquals(2, wrong.status(), wrong.out());
        assertTrue(wrong.err().contains("has no tensor no.such"), wrong.err());
        assertTrue(wrong.err().contains("plain.f32_3d") || wrong.err().contains("more"), wrong.err());
    }

    @Test
    void anNpyFileTakesNoTensorNameAndABadFileIsNamed() throws IOException {
        Path p = npy("w.npy", "f32[2,2]{1,0}");
        MainTest.Result named = MainTest.run("map", p.toString(), "x");
        assertEquals(2, named.status(), named.out());
        assertTrue(named.err().contains("give no TENSOR"), named.err());
        Path bad = Files.write(dir.resolve("bad.npy"), new byte[] {1, 2, 3});
        MainTest.Result r = MainTest.run("map", bad.toString());
        assertEquals(2, r.status(), r.out());
        assertTrue(r.err().contains("bad tensor file"), r.err());
    }
}
