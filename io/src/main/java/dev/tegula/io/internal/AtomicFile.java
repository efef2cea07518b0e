package dev.tegula.io.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A file written whole or not at all. The bytes go to a temporary file in the target's directory
 * ({@code .NAME.RANDOM.tmp}); {@link #commit()} forces it to disk and renames it over the target
 * (atomically where the file system can). {@link #close()} without a commit deletes the temporary
 * and leaves the target as it was, so an exception, a full disk or an interrupt never leaves a
 * half-written target. Temporaries still open when the JVM shuts down (Ctrl-C) are deleted by a
 * shutdown hook.
 *
 * <p>Not thread-safe: one thread writes one {@code AtomicFile}. Use it in try-with-resources:
 * {@snippet :
 * try (AtomicFile out = AtomicFile.create(target)) {
 *     out.channel().write(bytes);
 *     out.commit();
 * }
 * }
 */
public final class AtomicFile implements Closeable {
    private final Path target;
    private final Path temporary;
    private final FileChannel channel;
    private boolean done;

    private AtomicFile(Path target, Path temporary, FileChannel channel) {
        this.target = target;
        this.temporary = temporary;
        this.channel = channel;
    }

    /**
     * Opens a temporary file next to {@code target}.
     *
     * @throws IOException naming the target when it is a directory, its directory does not exist,
     *     or the temporary cannot be created
     */
    public static AtomicFile create(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        if (Files.isDirectory(abs, LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(abs)) {
            throw new IOException(target + ": is a directory");
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(target.toString(), null, "no such directory: " + dir);
        }
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        Temporaries.register(tmp);
        try {
            permissions(abs, tmp);
            FileChannel ch = FileChannel.open(tmp, StandardOpenOption.READ, StandardOpenOption.WRITE);
            return new AtomicFile(abs, tmp, ch);
        } catch (IOException | RuntimeException e) {
            Temporaries.release(tmp);
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * Gives the temporary (created owner-only) the permissions of the target it replaces, or
     * {@code rw-r--r--} for a new file, as a plain create would under the usual umask.
     */
    private static void permissions(Path target, Path tmp) throws IOException {
        if (!Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        Set<PosixFilePermission> p = Files.exists(target) ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, p);
    }

    /** {@return the file the bytes go to until {@link #commit()}} */
    public Path temporary() {
        return temporary;
    }

    /** {@return the channel of the temporary file, open for reading and writing} */
    public FileChannel channel() {
        return channel;
    }

    /** {@return a stream that writes through {@link #channel()}; closing it does not commit} */
    public OutputStream outputStream() {
        OutputStream s = Channels.newOutputStream(channel);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                s.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                s.write(b, off, len);
            }
        };
    }

    /**
     * Forces the temporary to disk, closes it and renames it over the target.
     *
     * @throws IOException if forcing or renaming fails; the temporary is then deleted by {@link #close()}
     */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already committed or closed: " + target);
        }
        channel.force(true);
        channel.close();
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
        done = true;
        Temporaries.release(temporary);
    }

    /** Deletes the temporary unless {@link #commit()} succeeded; the target is then untouched. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            channel.close();
        } finally {
            Temporaries.discard(temporary);
        }
    }
}
