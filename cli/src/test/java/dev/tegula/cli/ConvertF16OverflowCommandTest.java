package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tegula convert --type f16} of values too large for f16, and {@code --f16-overflow}. */
class ConvertF16OverflowCommandTest {
    @TempDir
    Path dir;
    Path in;

    @BeforeEach
    void writeInput() throws IOException {
        in = dir.resolve("acts.npy");
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3));
            a.copyFrom(new double[] {1, 65504, Double.NEGATIVE_INFINITY, 0.5, -70000, 2});
            Npy.write(a, in);
        }
    }

    private short[] codes(Path npy) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return Npy.read(npy, arena).segment().toArray(ValueLayout.JAVA_SHORT);
        }
    }

    @Test
    void anOverflowIsRefusedByDefaultNamingTheTensorTheElementAndTheFlag() {
        Path out = dir.resolve("h.npy");
        MainTest.Result r = MainTest.run("convert", in.toString(), "--type", "f16", "--out", out.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("tensor 'acts' element [1, 1] is -70000.0, too large for f16"), r.err());
        assertTrue(r.err().contains("--f16-overflow saturate"), r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void saturateAndInfWriteTheElementAsAsked() throws IOException {
        short[] common = {0x3C00, 0x7BFF, (short) 0xFC00, 0x3800, 0, 0x4000};
        for (String rule : new String[] {"saturate", "inf", "INF"}) {
            Path out = dir.resolve(rule + ".npy");
            MainTest.Result r = MainTest.run("convert", in.toString(), "--type", "f16", "--f16-overflow", rule,
                    "--out", out.toString());
            assertEquals(0, r.status(), r.err());
            assertEquals("f16[2,3]{1,0}\n", r.out());
            short[] expect = common.clone();
            expect[4] = rule.equals("saturate") ? (short) 0xFBFF : (short) 0xFC00;
            assertArrayEquals(expect, codes(out), rule);
        }
    }

    @Test
    void anUnknownRuleIsRefused() {
        MainTest.Result r = MainTest.run("convert", in.toString(), "--type", "f16", "--f16-overflow", "clamp",
                "--out", dir.resolve("x.npy").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--f16-overflow: expected refuse, saturate or inf, got 'clamp'"), r.err());
    }
}
