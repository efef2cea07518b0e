package dev.tegula.io.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary files and directories of {@link AtomicFile} and {@link AtomicDirectory} that are
 * not yet committed: deleted by a shutdown hook if the JVM exits first (Ctrl-C), and the one
 * place that deletes a temporary directory with what it holds. Thread-safe.
 */
final class Temporaries {
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
