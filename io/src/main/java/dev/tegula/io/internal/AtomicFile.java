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
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * A file written whole or not at all. The bytes go to a temporary file in the target's directory
 * ({@code .NAME.RANDOM.tmp}); {@link #commit()} forces it to disk and renames it over the target
 * (atomically where the file system can). {@link #close()} without a commit deletes the temporary
 * and leaves the target as it was, so an exception, a full disk or an interrupt never leaves a
 * half-written target. Temporaries still open when the JVM shuts down (Ctrl-C) are deleted by a
 * shutdown hook; while it writes, the writer holds a lock that says it lives
 * ({@link Temporaries}), and {@link #create} first removes the temporaries of the same target that
 * a writer killed outright left ({@link #staleRemoved()}), never one whose writer lives.
 *
 * <p>Errors name the file as {@link #create(Path, Path) shown}, never the temporary.
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
    private final Path shown;
    private final Temporaries.Claim claim;
    private final Path temporary;
    private final FileChannel channel;
    private final List<Temporaries.Stale> stale;
    private boolean done;

    private AtomicFile(Path target, Path shown, Temporaries.Claim claim, FileChannel channel,
                       List<Temporaries.Stale> stale) {
        this.target = target;
        this.shown = shown;
        this.claim = claim;
        this.temporary = claim.temporary();
        this.channel = channel;
        this.stale = stale;
    }

    /**
     * Opens a temporary file next to {@code target}, after removing the temporaries of
     * {@code target} that have no live writer (one listing of its directory).
     *
     * @throws IOException naming the target when it is a directory, its directory does not exist,
     *     or the temporary cannot be created
     */
    public static AtomicFile create(Path target) throws IOException {
        return create(target, target);
    }

    /**
     * {@link #create(Path)}, with errors naming the file {@code shown}: where it will be in the end
     * (a file written into an {@link AtomicDirectory}'s temporary is named by its place in the target).
     */
    public static AtomicFile create(Path target, Path shown) throws IOException {
        Path abs = target.toAbsolutePath();
        if (Files.isDirectory(abs, LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(abs)) {
            throw new IOException(shown + ": is a directory");
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            Path shownDir = shown.toAbsolutePath().getParent();
            throw new NoSuchFileException(shown.toString(), null, "no such directory: " + shownDir);
        }
        List<Temporaries.Stale> stale = Temporaries.removeStale(abs);
        Temporaries.Claim claim;
        try {
            claim = Temporaries.claim(abs);
        } catch (IOException e) {
            throw Temporaries.named(e, abs, shown);
        }
        Path tmp = claim.temporary();
        FileChannel ch = null;
        try {
            ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), ownerOnly(dir));
            Temporaries.register(tmp);
            permissions(abs, tmp);
            return new AtomicFile(abs, shown, claim, ch, stale);
        } catch (IOException | RuntimeException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
                Temporaries.discard(tmp);
            } finally {
                claim.release();
            }
            if (e instanceof IOException io) {
                throw Temporaries.named(io, abs, shown);
            }
            throw e;
        }
    }

    /** {@return the attribute that creates a file readable and writable by its owner alone, where the file system has POSIX permissions} */
    private static FileAttribute<?>[] ownerOnly(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    /** {@return the temporaries of the same target that {@link #create} removed: writers killed before they finished} */
    public List<Temporaries.Stale> staleRemoved() {
        return stale;
    }

    /** {@return {@code e} naming the file as shown where it names the temporary (see {@link Temporaries#named})} */
    public IOException named(IOException e) {
        return Temporaries.named(e, target, shown);
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
     * Forces the temporary to disk, renames it over the target and closes it (the writer's lock is
     * given up only once the temporary is gone).
     *
     * @throws IOException naming the target if forcing or renaming fails; the temporary is then
     *     deleted by {@link #close()}
     */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already committed or closed: " + shown);
        }
        try {
            channel.force(true);
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw named(e);
        }
        done = true;
        Temporaries.release(temporary);
        try {
            channel.close();
        } finally {
            claim.release();
        }
    }

    /** Deletes the temporary unless {@link #commit()} succeeded; the target is then untouched. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            try {
                channel.close();
            } finally {
                Temporaries.discard(temporary);
            }
        } finally {
            claim.release();
        }
    }
}
