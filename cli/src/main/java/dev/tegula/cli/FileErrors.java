package dev.tegula.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/** One-line reasons for file errors, in words, always naming the file. Stateless. */
public final class FileErrors {
    private FileErrors() {
    }

    /** {@return {@code "cannot read FILE: REASON"}} */
    public static BadInputException cannotRead(Path file, IOException e) {
        return new BadInputException("cannot read " + TerminalText.of(file.toString()) + ": " + reason(file, e));
    }

    /** {@return {@code "cannot write FILE: REASON"}} */
    public static BadInputException cannotWrite(Path file, IOException e) {
        return new BadInputException("cannot write " + TerminalText.of(file.toString()) + ": " + reason(file, e));
    }

    /** {@return why reading {@code file} cannot start, or null if it is a readable regular file} */
    public static String unreadable(Path file) {
        if (Files.isDirectory(file)) {
            return "is a directory";
        }
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (!Files.isRegularFile(file)) {
            return "not a regular file";
        }
        if (!Files.isReadable(file)) {
            return "permission denied";
        }
        return null;
    }

    /** {@return the reason of {@code e} in words, without exception class names or the file name repeated} */
    public static String reason(Path file, IOException e) {
        String why = switch (e) {
            case NoSuchFileException n -> n.getReason() != null ? n.getReason()
                    : file.toAbsolutePath().getParent() != null && !Files.isDirectory(file.toAbsolutePath().getParent())
                    ? "no such directory: " + file.toAbsolutePath().getParent() : "no such file";
            case AccessDeniedException a -> "permission denied";
            case FileAlreadyExistsException f -> "already exists";
            case NotDirectoryException n -> "a part of the path is not a directory";
            case FileSystemException f -> f.getReason() != null ? f.getReason() : "file system error";
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
        String name = file.toString();
        if (why.startsWith(name + ": ")) {
            why = why.substring(name.length() + 2);
        }
        return TerminalText.of(why.isEmpty() ? why : Character.toLowerCase(why.charAt(0)) + why.substring(1));
    }
}
