package dev.tegula.io.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporaries of {@link AtomicFile} and {@link AtomicDirectory}: their names, their owners, and
 * what is done with them when their owner is gone. Thread-safe.
 *
 * <p><b>Names.</b> The temporary of target {@code DIR/NAME} is {@code DIR/.NAME.RANDOM.tmp} (a file
 * or a directory; {@code RANDOM} is decimal digits), and while its writer lives, {@code
 * DIR/.NAME.RANDOM.lock} is a file that the writer holds an exclusive lock on
 * ({@link FileChannel#lock}, an {@code fcntl} record lock on Unix). The lock file is made and
 * locked before the temporary, and removed after it (after the rename that commits it, or after it
 * is deleted). The lock is never on the temporary itself: a POSIX process loses every lock it holds
 * on a file when it closes any descriptor of that file, and the temporary is opened again (for
 * kernel hints, mappings).
 *
 * <p><b>Stale temporaries.</b> A writer killed outright ({@code kill -9}, a crash, a power cut)
 * leaves its temporary, as large as what it had written. The kernel releases a dead process's
 * locks, so a temporary whose lock file no process holds, or that has no lock file (one written
 * before locks were taken), has no live owner: {@link #removeStale} removes it, with its lock file.
 * A temporary whose lock another process holds, or that this JVM writes, is never touched. The
 * test is the lock and nothing else: no time stamp, no process id (which a container's PID
 * namespace or another host on a shared file system would make meaningless).
 *
 * <p><b>At shutdown.</b> Temporaries and lock files still registered when the JVM shuts down
 * (Ctrl-C, SIGTERM) are deleted by a shutdown hook. Deleting a directory deletes what it holds.
 */
public final class Temporaries {
    private static final System.Logger LOG = System.getLogger(Temporaries.class.getName());
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path p : LIVE) {
                try {
                    delete(p);
                } catch (IOException | RuntimeException ignored) {
                    // best effort at exit
                }
            }
        }, "tegula-atomic-file-cleanup"));
    }

    private Temporaries() {
    }

    /**
     * A temporary an earlier writer of the same target left and {@link #removeStale} removed.
     *
     * @param path  where it was
     * @param bytes the bytes it held (a directory: its files together)
     */
    public record Stale(Path path, long bytes) {
    }

    /**
     * A temporary name claimed for one writer: the lock file is made and locked; the temporary
     * itself is the caller's to make at {@link #temporary()}. {@link #release()} gives it up.
     */
    static final class Claim {
        private final Path temporary;
        private final Path lockFile;
        private final FileChannel lockChannel;

        private Claim(Path temporary, Path lockFile, FileChannel lockChannel) {
            this.temporary = temporary;
            this.lockFile = lockFile;
            this.lockChannel = lockChannel;
        }

        /** {@return the temporary's path, {@code .NAME.RANDOM.tmp}} */
        Path temporary() {
            return temporary;
        }

        /** Deletes the lock file and releases the lock; the temporary must be gone (renamed or deleted) first. */
        void release() throws IOException {
            try {
                Files.deleteIfExists(lockFile);
            } finally {
                LIVE.remove(lockFile);
                lockChannel.close();   // releases the lock
            }
        }
    }

    /**
     * Claims a temporary name for {@code target} (absolute) in its directory: a new lock file,
     * locked, registered for deletion at shutdown.
     *
     * @throws IOException if the lock file cannot be made or locked
     */
    static Claim claim(Path target) throws IOException {
        Path dir = target.getParent();
        String name = target.getFileName().toString();
        for (int attempt = 0; ; attempt++) {
            String random = Long.toUnsignedString(ThreadLocalRandom.current().nextLong());
            Path lockFile = dir.resolve("." + name + "." + random + ".lock");
            FileChannel ch;
            try {
                ch = FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
                continue;
            }
            LIVE.add(lockFile);
            boolean held = false;
            try {
                // another process may have taken it for stale between the create and the lock; it then
                // held the lock and deleted the file: the name is not ours, and a new one is tried
                FileLock lock = ch.tryLock();
                held = lock != null && Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | OverlappingFileLockException e) {
                // file systems without locks: the temporary is then written without an owner's lock
                held = e instanceof IOException && Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS);
            } finally {
                if (!held) {
                    LIVE.remove(lockFile);
                    ch.close();
                }
            }
            if (held) {
                return new Claim(dir.resolve("." + name + "." + random + ".tmp"), lockFile, ch);
            }
        }
    }

    /**
     * Removes the temporaries of {@code target} that have no live owner, with their lock files, and
     * logs each one removed (INFO).
     *
     * @param target the file or directory whose temporaries are looked for (in its directory, by
     *               name: {@code .NAME.RANDOM.tmp} and {@code .NAME.RANDOM.lock})
     * @return what was removed, in name order; empty if nothing was left, or the directory cannot be read
     */
    public static List<Stale> removeStale(Path target) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || abs.getFileName() == null) {
            return List.of();
        }
        Pattern names = Pattern.compile("\\." + Pattern.quote(abs.getFileName().toString())
                + "\\.([0-9]+)\\.(tmp|lock)");
        TreeMap<String, Boolean> randoms = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir,
                p -> names.matcher(p.getFileName().toString()).matches())) {
            for (Path p : entries) {
                Matcher m = names.matcher(p.getFileName().toString());
                if (m.matches()) {
                    randoms.put(m.group(1), Boolean.TRUE);
                }
            }
        } catch (IOException e) {
            return List.of();   // nothing can be listed here: the write that follows will say why
        }
        List<Stale> removed = new ArrayList<>();
        String prefix = "." + abs.getFileName() + ".";
        for (String random : randoms.keySet()) {
            Path tmp = dir.resolve(prefix + random + ".tmp");
            Path lockFile = dir.resolve(prefix + random + ".lock");
            if (LIVE.contains(tmp) || LIVE.contains(lockFile)) {
                continue;   // this JVM's own: opening its lock file would release its lock
            }
            try {
                Stale s = removeIfUnowned(tmp, lockFile);
                if (s != null) {
                    removed.add(s);
                    // DEBUG: the caller gets the list (the command-line tool prints it); a library says nothing by default
                    LOG.log(System.Logger.Level.DEBUG, "removed {0} ({1} bytes): a temporary of {2} whose writer is gone",
                            s.path(), s.bytes(), abs);
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "left {0}: {1}", tmp, e.toString());   // not ours to decide: it stays
            }
        }
        return removed;
    }

    /** Removes {@code tmp} and its lock file if no process holds the lock; {@return what was removed, or null} */
    private static Stale removeIfUnowned(Path tmp, Path lockFile) throws IOException {
        if (!Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            long bytes = size(tmp);   // no lock file: written before locks, or its writer's lock file was removed
            delete(tmp);
            return new Stale(tmp, bytes);
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.READ)) {
            FileLock lock = ch.tryLock(0, Long.MAX_VALUE, true);
            if (lock == null) {
                return null;   // its writer lives
            }
            // the lock is held until the channel closes: no writer can claim this name meanwhile
            Stale s = null;
            if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                s = new Stale(tmp, size(tmp));
                delete(tmp);
            }
            Files.deleteIfExists(lockFile);
            return s;   // a lock file alone (its writer died before making the temporary) is not reported
        } catch (NoSuchFileException e) {
            return null;   // its writer finished in between
        } catch (OverlappingFileLockException e) {
            return null;   // held in this JVM
        }
    }

    /** {@return the bytes of a file, or of the files under a directory} */
    private static long size(Path p) throws IOException {
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return Files.size(p);
        }
        long[] n = {0};
        Files.walkFileTree(p, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                n[0] += attrs.size();
                return FileVisitResult.CONTINUE;
            }
        });
        return n[0];
    }

    /**
     * {@return {@code e} naming {@code shown} where it names a temporary or lock file of
     * {@code target}, a path in such a temporary, or {@code target} (a file in a temporary
     * directory: a file system error on the temporary, or a write error that names no file), so
     * that a message names the file a user asked for}
     * A plain {@code IOException} that names no file (a full disk, a file too large) gets
     * {@code shown} in front. Other exceptions (a format's error, an interrupt) come back as they are.
     *
     * @param target the absolute target whose temporaries are meant
     * @param shown  how to name the target: where it will be in the end
     */
    public static IOException named(IOException e, Path target, Path shown) {
        Pattern temporaries = Pattern.compile(Pattern.quote(target.getParent().resolve("." + target.getFileName() + ".")
                .toString()) + "[0-9]+\\.(tmp|lock)");
        if (e instanceof FileSystemException f) {
            String file = rename(f.getFile(), temporaries, target, shown);
            String other = rename(f.getOtherFile(), temporaries, target, shown);
            if (file == null || file.equals(f.getFile()) && (other == null || other.equals(f.getOtherFile()))) {
                return e;
            }
            if (file.equals(other)) {
                other = null;   // a rename of the temporary over the target: one name is enough
            }
            FileSystemException n = switch (f) {
                case AccessDeniedException x -> new AccessDeniedException(file, other, f.getReason());
                case NoSuchFileException x -> new NoSuchFileException(file, other, f.getReason());
                case FileAlreadyExistsException x -> new FileAlreadyExistsException(file, other, f.getReason());
                case DirectoryNotEmptyException x -> new DirectoryNotEmptyException(file);
                case NotDirectoryException x -> new NotDirectoryException(file);
                case AtomicMoveNotSupportedException x -> new AtomicMoveNotSupportedException(file, other, f.getReason());
                default -> new FileSystemException(file, other, f.getReason());
            };
            n.initCause(e);
            return n;
        }
        if (e.getClass() != IOException.class) {
            return e;
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        String renamed = rename(message, temporaries, target, shown);
        if (renamed.equals(message) && message.contains(shown.toString())) {
            return e;
        }
        return new IOException(renamed.equals(message) ? shown + ": " + message : renamed, e);
    }

    /**
     * {@return {@code text} with every temporary or lock file {@code temporaries} matches, and
     * {@code target} itself (a file in a temporary directory), replaced by {@code shown}}
     */
    private static String rename(String text, Pattern temporaries, Path target, Path shown) {
        return text == null ? null : temporaries.matcher(text).replaceAll(Matcher.quoteReplacement(shown.toString()))
                .replace(target.toString(), shown.toString());
    }

    /** Deletes {@code p} at shutdown unless it is {@link #release released} first. */
    static void register(Path p) {
        LIVE.add(p);
    }

    /** Forgets {@code p}: it was committed or deleted. */
    static void release(Path p) {
        LIVE.remove(p);
    }

    /** Deletes {@code p} (as {@link #delete}) and forgets it, even when deleting fails. */
    static void discard(Path p) throws IOException {
        try {
            delete(p);
        } finally {
            release(p);
        }
    }

    /** Deletes {@code p}, a file or a directory with everything in it (links are deleted, not followed), if it exists. */
    static void delete(Path p) throws IOException {
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(p);
            return;
        }
        Files.walkFileTree(p, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
