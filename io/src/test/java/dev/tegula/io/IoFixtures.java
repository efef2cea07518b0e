package dev.tegula.io;

import dev.tegula.io.internal.FileMagic;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fixture bytes and hand-made files shared by the io tests. */
final class IoFixtures {
    private IoFixtures() {
    }

    /** {@return the bytes of the committed fixture {@code npy/NAME}} */
    static byte[] npy(String name) {
        try (InputStream in = IoFixtures.class.getResourceAsStream("npy/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture npy/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return an .npy file with this exact header text (no padding added) and data} */
    static byte[] npyWithHeader(int major, String header, byte[] data) {
        byte[] text = header.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int lenBytes = major == 1 ? 2 : 4;
        ByteBuffer b = ByteBuffer.allocate(8 + lenBytes + text.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FileMagic.npy()).put((byte) major).put((byte) 0);
        if (major == 1) {
            b.putShort((short) text.length);
        } else {
            b.putInt(text.length);
        }
        return b.put(text).put(data).array();
    }

    /** {@return a safetensors file: 8-byte length, this header text, these data bytes} */
    static byte[] safetensors(String header, byte[] data) {
        byte[] text = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + text.length + data.length).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(text.length).put(text).put(data).array();
    }

    static Path write(Path dir, String name, byte[] bytes) {
        try {
            return Files.write(dir.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
