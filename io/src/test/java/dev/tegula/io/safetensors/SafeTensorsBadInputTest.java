package dev.tegula.io.safetensors;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed safetensors files: each a TensorFormatException naming the field and value, as strict as the reference. */
class SafeTensorsBadInputTest {
    @TempDir
    Path dir;

    private static final String GOOD = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
            + "\"b\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[8,11]}}";

    private void refused(byte[] file, String... inMessage) {
        Path p = IoFixtures.write(dir, "bad.safetensors", file);
        TensorFormatException e;
        try (Arena arena = Arena.ofConfined()) {
            e = assertThrows(TensorFormatException.class, () -> SafeTensors.read(p, arena));
        }
        for (String s : inMessage) {
            assertTrue(e.getMessage().contains(s), "'" + s + "' not in: " + e.getMessage());
        }
    }

    @Test
    void everyTruncationOfAValidFileIsRefused() {
        byte[] good = IoFixtures.safetensors(GOOD, new byte[11]);
        for (int n = 0; n < good.length; n++) {
            refused(Arrays.copyOf(good, n));
        }
    }

    @Test
    void lyingHeaderLengths() {
        byte[] f = IoFixtures.safetensors(GOOD, new byte[11]);
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 1L << 62);
        refused(f, "header length", "4611686018427387904", "cap");
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putLong(0, -1L);
        refused(f, "header length", "18446744073709551615");
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 100_000_001L);
        refused(f, "cap");
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 99_999_999L);
        refused(f, "past the end");
    }

    @Test
    void dataSectionMustBeCoveredExactly() {
        refused(IoFixtures.safetensors(GOOD, new byte[12]), "data", "12", "11", "trailing");
        refused(IoFixtures.safetensors(GOOD, new byte[10]), "data", "10", "11");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // offsets: holes, overlaps, not from 0, reversed
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[1,3]}}|3|data_offsets of 'a'",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[3,5]}}|5|data_offsets of 'b'",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[1,3]}}|3|contiguous",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[2,0]}}|0|data_offsets",
        // byte length must equal shape x element size
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,7]}}|7|needs 8",
        "{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}|2|12 bits",
        "{\"a\":{\"dtype\":\"F6_E2M3\",\"shape\":[2],\"data_offsets\":[0,2]}}|2|not a whole number",
        // overflow of shape arithmetic
        "{\"a\":{\"dtype\":\"F64\",\"shape\":[4611686018427387904,4],\"data_offsets\":[0,8]}}|8|more bits than a long",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551616],\"data_offsets\":[0,1]}}|1|larger than 2^63-1",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,99999999999999999999]}}|1|larger than 2^63-1",
        // types and structure
        "{\"a\":{\"dtype\":\"F128\",\"shape\":[1],\"data_offsets\":[0,16]}}|16|'F128' is not a safetensors dtype",
        "{\"a\":{\"dtype\":7,\"shape\":[1],\"data_offsets\":[0,1]}}|1|dtype",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,1]}}|1|shape[0]",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1.0],\"data_offsets\":[0,1]}}|1|shape[0]",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":\"1\",\"data_offsets\":[0,1]}}|1|shape",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}}|1|data_offsets",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1]}}|1|data_offsets",
        "{\"a\":[1,2]}|0|tensor 'a'",
        "[]|0|not a JSON object",
        "{\"__metadata__\":{\"k\":1}}|0|__metadata__.k",
        "{\"__metadata__\":[]}|0|__metadata__",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}|1|twice",
        // malformed JSON
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}|1|not valid JSON",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1,],\"data_offsets\":[0,1]}}|1|not valid JSON",
        "{'a':1}|0|not valid JSON",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[01],\"data_offsets\":[0,1]}}|1|not valid JSON",
        "{\"a\\x\":1}|0|escape",
        "{} {}|0|end of input",
        "|0|not valid JSON",
    })
    void malformedHeadersNameWhatIsWrong(String header, int dataBytes, String expected) {
        refused(IoFixtures.safetensors(header == null ? "" : header, new byte[dataBytes]), expected);
    }

    @Test
    void hostileNestingAndEncoding() {
        refused(IoFixtures.safetensors("[".repeat(100_000), new byte[0]), "nesting");
        byte[] f = IoFixtures.safetensors("{\"a\u00e9\":{}}", new byte[0]);
        f[11] = (byte) 0xFF;       // breaks the UTF-8 of the name
        refused(f, "UTF-8");
        refused(IoFixtures.safetensors("{\"a\":\"\u0001\"}", new byte[0]), "control character");
        String many = "{\"a\":{\"dtype\":\"U8\",\"shape\":[" + "1,".repeat(100) + "1],\"data_offsets\":[0,1]}}";
        refused(IoFixtures.safetensors(many, new byte[1]), "101 entries");
    }

    @Test
    void anIntegerOfMoreThanAThousandDigitsIsRefusedBeforeItIsConvertedAndOneOfAThousandIsTooLarge() {
        String shape = "{\"a\":{\"dtype\":\"U8\",\"shape\":[%s],\"data_offsets\":[0,1]}}";
        refused(IoFixtures.safetensors(shape.formatted("9".repeat(1001)), new byte[1]), "not valid JSON",
                "an integer part of at most 1000 digits", "offset 28");
        refused(IoFixtures.safetensors(shape.formatted("-" + "9".repeat(200_000)), new byte[1]), "at most 1000 digits");
        refused(IoFixtures.safetensors(shape.formatted("9".repeat(1000)), new byte[1]), "shape[0]",
                "larger than 2^63-1");
    }

    @Test
    void aMissingTensorAmongManyIsNamedWithAFewOfThem() throws Exception {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < 1000; i++) {
            b.append(i > 0 ? "," : "").append("\"t").append(i).append("\":{\"dtype\":\"U8\",\"shape\":[0],"
                    + "\"data_offsets\":[0,0]}");
        }
        Path p = IoFixtures.write(dir, "many.safetensors", IoFixtures.safetensors(b.append('}').toString(), new byte[0]));
        try (Arena arena = Arena.ofConfined()) {
            TensorFormatException e = assertThrows(TensorFormatException.class, () -> SafeTensors.read(p, "c", arena));
            assertTrue(e.getMessage().endsWith("(it has [t0, t1, t2, t3, t4, t5, t6, t7, ... 992 more])"), e.getMessage());
        }
    }

    @Test
    void aMissingTensorIsNamed() {
        Path p = IoFixtures.write(dir, "ok.safetensors", IoFixtures.safetensors(GOOD, new byte[11]));
        try (Arena arena = Arena.ofConfined()) {
            TensorFormatException e = assertThrows(TensorFormatException.class, () -> SafeTensors.read(p, "c", arena));
            assertTrue(e.getMessage().contains("'c'") && e.getMessage().contains("[a, b]"), e.getMessage());
        }
    }
}
