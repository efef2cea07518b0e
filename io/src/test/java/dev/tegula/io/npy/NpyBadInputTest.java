package dev.tegula.io.npy;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every malformed .npy file is a TensorFormatException naming the field: never an OOM, a crash or a read past the end. */
class NpyBadInputTest {
    @TempDir
    Path dir;

    private TensorFormatException refused(byte[] file, String... inMessage) {
        Path p = IoFixtures.write(dir, "bad.npy", file);
        TensorFormatException e;
        try (Arena arena = Arena.ofConfined()) {
            e = assertThrows(TensorFormatException.class, () -> Npy.read(p, arena));
        }
        for (String s : inMessage) {
            assertTrue(e.getMessage().contains(s), "'" + s + "' not in: " + e.getMessage());
        }
        return e;
    }

    private static String dict(String descr, String fortran, String shape) {
        return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
    }

    @Test
    void everyTruncationOfAValidFileIsRefused() {
        byte[] good = IoFixtures.npy("f8_fortran.npy");
        for (int n = 0; n < good.length; n++) {
            refused(Arrays.copyOf(good, n));
        }
    }

    @Test
    void wrongMagicAndUnknownVersions() {
        byte[] good = IoFixtures.npy("f4.npy");
        byte[] magic = good.clone();
        magic[1] = 'X';
        refused(magic, "magic", "0x9358554d");
        byte[] v4 = good.clone();
        v4[6] = 4;
        refused(v4, "version", "4.0");
        byte[] minor = good.clone();
        minor[7] = 1;
        refused(minor, "version", "1.1");
    }

    @Test
    void lyingLengthsAreCheckedAgainstTheFile() {
        byte[] good = IoFixtures.npy("f4.npy");
        byte[] longHeader = good.clone();
        longHeader[8] = (byte) 0xFF;
        longHeader[9] = (byte) 0xFF;
        refused(longHeader, "header_len", "65535", "past the end");
        byte[] v2 = IoFixtures.npyWithHeader(2, dict("'<f4'", "False", "(1,)"), new byte[4]);
        v2[8] = v2[9] = v2[10] = v2[11] = (byte) 0xFF;
        refused(v2, "header_len", "4294967295");
        refused(IoFixtures.npyWithHeader(1, dict("'|u1'", "False", "(4611686018427387904,)"), new byte[16]),
                "data", "4611686018427387904", "truncated");
        refused(IoFixtures.npyWithHeader(1, dict("'<f8'", "False", "(4611686018427387904, 4)"), new byte[0]),
                "shape", "more bytes than a long");
        refused(IoFixtures.npyWithHeader(1, dict("'<f8'", "False", "(3, 3)"), new byte[71]), "data", "71", "72");
        // no elements, but dimensions that overflow int64 before the zero (NumPy takes them; Tegula's shape
        // rule, XLA's, does not): refused naming the shape, not an IllegalArgumentException from the shape
        refused(IoFixtures.npyWithHeader(1, dict("'<f4'", "False", "(1099511627776, 1099511627776, 0)"), new byte[0]),
                "shape", "is not a valid shape", "exceeds int64");
        refused(IoFixtures.npyWithHeader(1, dict("'<f4'", "True", "(0, 1099511627776, 1099511627776)"), new byte[0]),
                "shape", "is not a valid shape");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,}|header",
        "{'descr': '<f4' 'fortran_order': False}|header",
        "[1, 2]|not a dict",
        "{'descr': '<f4', 'fortran_order': False}|keys",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}|keys",
        "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}|twice",
        "{'descr': '<U8', 'fortran_order': False, 'shape': (1,)}|descr",
        "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}|structured",
        "{'descr': 'O', 'fortran_order': False, 'shape': (1,)}|descr",
        "{'descr': '<f4', 'fortran_order': 'yes', 'shape': (1,)}|fortran_order",
        "{'descr': '<f4', 'fortran_order': False, 'shape': [1]}|not a tuple",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}|shape[0]",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}|header",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}|fit in a long",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (0x10,)}|header",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk|header",
        "{'descr': '<f4', 'fortran_order': False, 'shape': __import__('os')}|header",
        "{'descr': '<f4', 'fortran_order': None, 'shape': (1,)}|fortran_order",
    })
    void malformedHeadersNameWhatIsWrong(String header, String expected) {
        refused(IoFixtures.npyWithHeader(1, header + "\n", new byte[64]), expected);
    }

    @Test
    void hostileNestingTooManyDimensionsAndBadEncodings() {
        refused(IoFixtures.npyWithHeader(1, "(".repeat(5000) + ")".repeat(5000), new byte[0]), "nesting");
        String dims = "(" + "1, ".repeat(65) + ")";
        refused(IoFixtures.npyWithHeader(1, dict("'<f4'", "False", dims), new byte[4]), "65 dimensions");
        byte[] v3 = IoFixtures.npyWithHeader(3, dict("'<f4'", "False", "(1,)"), new byte[4]);
        v3[20] = (byte) 0xC3;             // a lone UTF-8 lead byte inside the header
        refused(v3, "header", "UTF-8");
        refused(IoFixtures.npyWithHeader(1, dict("'<f4'", "False", "(1,)").replace("'<f4'", "'<f4"), new byte[4]),
                "header");
        byte[] huge = IoFixtures.npyWithHeader(2, " ".repeat(2 << 20), new byte[0]);
        refused(huge, "header_len", "limit");
        refused("not an npy file at all".getBytes(StandardCharsets.US_ASCII), "magic");
    }
}
