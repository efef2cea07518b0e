package dev.tegula.io;

import dev.tegula.ffm.Array;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Fixture bytes and hand-made files shared by the io tests of every format package. */
public final class IoFixtures {
    private IoFixtures() {
    }

    /** {@return the bytes of the committed fixture {@code npy/NAME}} */
    public static byte[] npy(String name) {
        try (InputStream in = IoFixtures.class.getResourceAsStream("npy/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture npy/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path ggufCopies;

    /** {@return the committed fixture {@code gguf/NAME} copied to a temporary directory (once per JVM)} */
    public static synchronized Path gguf(String name) {
        try {
            if (ggufCopies == null) {
                ggufCopies = Files.createTempDirectory("gguf-fixtures");
                ggufCopies.toFile().deleteOnExit();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path p = ggufCopies.resolve(name);
        if (Files.exists(p)) {
            return p;
        }
        try (InputStream in = IoFixtures.class.getResourceAsStream("gguf/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture gguf/" + name);
            }
            Files.copy(in, p);
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@return a copy, in {@code dir}, of the committed checkpoint fixture {@code checkpoint/NAME}
     * (made by transformers' save_pretrained; see checkpoint/make_checkpoints.py)}
     */
    public static Path checkpoint(String name, Path dir) {
        try {
            Path from = Path.of(IoFixtures.class.getResource("checkpoint/" + name).toURI());
            Path to = Files.createDirectories(dir.resolve(name));
            try (Stream<Path> files = Files.list(from)) {
                for (Path f : files.toList()) {
                    Files.copy(f, to.resolve(f.getFileName().toString()));
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("missing fixture checkpoint/" + name, e);
        }
    }

    /** {@return what transformers saved in the checkpoint fixtures: checkpoint/expected.json, parsed} */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> checkpointExpectations() {
        try (InputStream in = IoFixtures.class.getResourceAsStream("checkpoint/expected.json")) {
            return (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (HeaderText.Malformed e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@return gguf-py's dequantization of the fixtures' tensor of block type {@code type} ({@code gguf/ref_TYPE.npy})} */
    public static Array ggufReference(String type, Arena arena) throws IOException {
        return Npy.read(gguf("ref_" + type + ".npy"), arena);
    }

    /** {@return an .npy file with this exact header text (no padding added) and data} */
    public static byte[] npyWithHeader(int major, String header, byte[] data) {
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
    public static byte[] safetensors(String header, byte[] data) {
        byte[] text = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + text.length + data.length).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(text.length).put(text).put(data).array();
    }

    /** Asserts that no temporary file or directory ({@code *.tmp}) and no lock file ({@code *.lock}) is left under {@code dir}. */
    public static void assertNoTemporaries(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            List<Path> tmp = s.filter(p -> p.getFileName().toString().endsWith(".tmp")
                    || p.getFileName().toString().endsWith(".lock")).toList();
            if (!tmp.isEmpty()) {
                throw new AssertionError("temporaries or lock files left: " + tmp);
            }
        }
    }

    public static Path write(Path dir, String name, byte[] bytes) {
        try {
            return Files.write(dir.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
