package dev.tegula.io.npy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tegula.io.TensorFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code .npy} file whose {@code descr} is not a plain dtype string (a structured dtype, a
 * sub-array dtype) is refused in words, written as Python would print it, not as a dump of the
 * parser's records.
 */
class NpyNonPlainDtypeRefusalTest {
    @TempDir
    Path dir;

    private Path npy(String dict) throws IOException {
        String h = dict;
        int total = 10 + h.length() + 1;
        h = h + " ".repeat((64 - total % 64) % 64) + "\n";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        b.write(h.length() & 0xFF);
        b.write(h.length() >> 8);
        b.write(h.getBytes(StandardCharsets.US_ASCII));
        b.write(new byte[24]);
        Path p = dir.resolve("x.npy");
        Files.write(p, b.toByteArray());
        return p;
    }

    @Test
    void structuredDtypeIsNamedAsSuch() throws IOException {
        Path p = npy("{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (3,), }");
        TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.readHeader(p));
        assertEquals(p + ": descr is a structured dtype (each element a record of 2 fields: 'a', 'b');"
                + " only plain dtypes such as '<f4' are supported", e.getMessage());
        assertFalse(e.getMessage().contains("Tuple["), e.getMessage());
    }

    @Test
    void otherNonStringDescrIsPrintedAsPython() throws IOException {
        Path p = npy("{'descr': ('<f4', 2), 'fortran_order': False, 'shape': (3,), }");
        TensorFormatException e = assertThrows(TensorFormatException.class, () -> Npy.readHeader(p));
        assertEquals(p + ": descr ('<f4', 2) is not a dtype string such as '<f4'", e.getMessage());
    }
}
