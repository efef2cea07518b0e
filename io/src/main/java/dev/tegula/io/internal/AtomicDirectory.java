package dev.tegula.io.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A directory written whole or not at all. Its files are written into a temporary directory next
 * to the target ({@code .NAME.RANDOM.tmp}); {@link #commit()} forces the directory to disk and
 * renames it to the target (atomically where the file system can). {@link #close()} without a
 * commit deletes the temporary directory and all it holds, so a failure never leaves a half-written
 * directory, nor an empty one. The target must not exist, or be an empty directory (the rename
 * replaces it); a temporary directory still there when the JVM shuts down (Ctrl-C) is deleted.
 * As {@link AtomicFile}, its writer holds a lock while it lives ({@link Temporaries}), and
 * {@link #create} first removes the temporary directories of the same target that a writer killed
 * outright left ({@link #staleRemoved()}). Errors name the target, never the temporary.
 *
 * <p>Not thread-safe as an object (one thread creates, commits and closes it); any number of
 * threads may write files into {@link #temporary()} in between.
 */
public final class AtomicDirectory implements Closeable {
    private final Path target;
    private final Temporaries.Claim claim;
    private final Path temporary;
    private final List<Temporaries.Stale> stale;
    private boolean done;

    private AtomicDirectory(Path target, Temporaries.Claim claim, List<Temporaries.Stale> stale) {
        this.target = target;
        this.claim = claim;
        this.temporary = claim.temporary();
        this.stale = stale;
    }

    /**
     * Creates an empty temporary directory next to {@code target}, after removing the temporaries
     * of {@code target} that have no live writer.
     *
     * @throws IOException naming the target when it is a file or a directory that is not empty,
     *     its parent directory does not exist, or the temporary cannot be created
     */
    public static AtomicDirectory create(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        if (Files.exists(abs)) {
            if (!Files.isDirectory(abs)) {
                throw new FileAlreadyExistsException(target.toString(), null, "is a file, not a directory");
            }
            try (Stream<Path> s = Files.list(abs)) {
                if (s.findAny().isPresent()) {
                    throw new FileAlreadyExistsException(target.toString(), null,
                            "is a directory that is not empty; write to a new or an empty directory");
                }
            }
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(target.toString(), null, "no such directory: " + dir);
        }
        List<Temporaries.Stale> stale = Temporaries.removeStale(abs);
        Temporaries.Claim claim = null;
        try {
            claim = Temporaries.claim(abs);
            Files.createDirectory(claim.temporary());
            Temporaries.register(claim.temporary());
            return new AtomicDirectory(abs, claim, stale);
        } catch (IOException e) {
            if (claim != null) {
                claim.release();
            }
            throw Temporaries.named(e, abs, target);
        }
    }

    /** {@return the temporaries of the same target that {@link #create} removed: writers killed before they finished} */
    public List<Temporaries.Stale> staleRemoved() {
        return stale;
    }

    /** {@return where {@code path}, in the temporary directory, will be once the directory is committed} */
    public Path committedPath(Path path) {
        return path.startsWith(temporary) ? target.resolve(temporary.relativize(path)) : path;
    }

    /** {@return {@code e} naming the target where it names the temporary directory or a file in it} */
    public IOException named(IOException e) {
        return Temporaries.named(e, target, target);
    }

    /** {@return the directory the files go to until {@link #commit()}} */
    public Path temporary() {
        return temporary;
    }

    /**
     * Copies the file {@code source} (a link followed) into the temporary directory under its own
     * name and forces it to disk.
     *
     * @return where the copy will be once the directory is committed
     */
    public Path copy(Path source) throws IOException {
        String name = source.getFileName().toString();
        Path copy = temporary.resolve(name);
        Files.copy(source, copy);
        return forced(name);
    }

    /**
     * Writes {@code content} into the temporary directory as the file {@code name} (a plain file
     * name) and forces it to disk.
     *
     * @return where the file will be once the directory is committed
     */
    public Path write(String name, byte[] content) throws IOException {
        Files.write(temporary.resolve(name), content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return forced(name);
    }

    /** Forces the temporary directory's file {@code name} to disk; {@return where it will be once committed} */
    private Path forced(String name) throws IOException {
        try (FileChannel ch = FileChannel.open(temporary.resolve(name), StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        return target.resolve(name);
    }

    /**
     * Forces the temporary directory's entries to disk and renames it to the target.
     *
     * @throws IOException naming the target if forcing or renaming fails (the target appeared, or
     *     is no longer empty); the temporary is then deleted by {@link #close()}
     */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already committed or closed: " + target);
        }
        force(temporary);
        try {
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.deleteIfExists(target);   // an empty directory; a non-empty one fails here
                Files.move(temporary, target);
            }
        } catch (IOException e) {
            throw named(e);
        }
        done = true;
        Temporaries.release(temporary);
        claim.release();
        force(target.getParent());
    }

    /** Forces a directory's entries to disk where the OS allows opening a directory (Linux); else nothing. */
    private static void force(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every OS opens a directory for reading; its files were forced one by one
        }
    }

    /** Deletes the temporary directory and what it holds unless {@link #commit()} succeeded. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            Temporaries.discard(temporary);
        } finally {
            claim.release();
        }
    }
}
