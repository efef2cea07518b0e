package dev.tegula.io.internal;

import dev.tegula.io.TensorFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Read-only file mappings and the small byte-level helpers the readers and writers share. */
public final class MappedFiles {
    /** The most bytes one {@code FileChannel.write} call is handed. */
    private static final long WRITE_CHUNK = 1L << 30;

    private MappedFiles() {
    }

    /** {@return the whole file mapped read-only into {@code arena}} (an empty read-only segment for an empty file) */
    public static MemorySegment map(Path path, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return MemorySegment.ofArray(new byte[0]).asReadOnly();
            }
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        }
    }

    /** {@return {@code bytes} decoded strictly (malformed input is an error, never a replacement character)} */
    public static String decode(byte[] bytes, Charset charset, String file, String field) throws TensorFormatException {
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            TensorFormatException bad = HeaderText.bad(file, field, "is not valid " + charset.name());
            bad.initCause(e);
            throw bad;
        }
    }

    /** Writes all of {@code bytes} to {@code ch} at its position, in chunks a {@code ByteBuffer} can hold. */
    public static void writeFully(FileChannel ch, MemorySegment bytes) throws IOException {
        for (long off = 0; off < bytes.byteSize(); off += WRITE_CHUNK) {
            ByteBuffer b = bytes.asSlice(off, Math.min(WRITE_CHUNK, bytes.byteSize() - off)).asByteBuffer();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    /** Writes all of {@code bytes} to {@code ch}. */
    public static void writeFully(FileChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
