package dev.tegula.ffm.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ElementType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Answers from ml_dtypes and NumPy themselves
 * ({@code codec/mldtypes_numpy_cases.txt}, written by {@code ffm/src/test/python/make_codec_fixtures.py}):
 * f8e8m0fnu from float32 subnormals, and binary16 NaN payloads in both directions.
 */
class ReferenceCasesTest {

    private record Case(String kind, long input, long expected) {
    }

    private static List<Case> cases(String kind) throws IOException {
        List<Case> out = new ArrayList<>();
        try (InputStream in = ReferenceCasesTest.class.getResourceAsStream("/codec/mldtypes_numpy_cases.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(" ");
                if (!line.startsWith("#") && f[0].equals(kind)) {
                    out.add(new Case(f[0], Long.parseLong(f[1], 16), Long.parseLong(f[2], 16)));
                }
            }
        }
        assertTrue(out.size() > 10, kind + " cases present");
        return out;
    }

    @Test
    void f8e8m0fnuFollowsMlDtypesForFloat32Subnormals() throws IOException {
        for (Case c : cases("e8m0")) {
            float v = Float.intBitsToFloat((int) c.input());
            String what = "f8e8m0fnu of " + v + " (0x" + Long.toHexString(c.input()) + ")";
            assertEquals(c.expected(), MiniFloatFormat.F8E8M0FNU.fromFloat(v), what);
            assertEquals(c.expected(), MiniFloat.fromDouble(MiniFloatFormat.F8E8M0FNU, v), what);
            assertEquals(c.expected(), ElementCodec.fromFloat(ElementType.F8E8M0FNU, v), what);
        }
    }

    @Test
    void f8e8m0fnuRoundsSubnormalScalesUpAndF16KeepsTheNanPayload() {
        assertEquals(0x01, MiniFloatFormat.F8E8M0FNU.fromFloat(8.816206E-39f));
        assertEquals(0x00, MiniFloatFormat.F8E8M0FNU.fromFloat(0x1p-127f));
        assertEquals(0x01, MiniFloatFormat.F8E8M0FNU.fromFloat(Math.nextUp(0x1p-127f)));
        assertEquals((short) 0xFC01, Float16.fromFloat(Float.intBitsToFloat(0xFF800001)));
    }

    @Test
    void float16KeepsNaNPayloadsAsNumPyDoes() throws IOException {
        for (Case c : cases("f16enc")) {
            float v = Float.intBitsToFloat((int) c.input());
            String what = "binary16 of NaN 0x" + Long.toHexString(c.input());
            assertEquals(c.expected(), Float16.fromFloat(v) & 0xFFFF, what);
            assertEquals(c.expected(), ElementCodec.fromFloat(ElementType.F16, v), what);
        }
        for (Case c : cases("f16dec")) {
            float v = Float16.toFloat((short) c.input());
            assertEquals(c.expected(), Float.floatToRawIntBits(v) & 0xFFFF_FFFFL,
                    "float of binary16 NaN 0x" + Long.toHexString(c.input()));
        }
    }

    @Test
    void nanPayloadsSurviveTheInterpreterAndTheJitAlike() {
        // Float.floatToFloat16 may run as an instruction that quiets NaNs once compiled; Float16 must not
        for (int round = 0; round < 200_000; round++) {
            assertEquals((short) 0x7C01, Float16.fromFloat(Float.intBitsToFloat(0x7F800001 + (round & 1))));
        }
    }
}
