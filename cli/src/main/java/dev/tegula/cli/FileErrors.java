package dev.tegula.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import picocli.CommandLine.TypeConversionException;

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

    /**
     * {@return {@code text} as a path: picocli's converter for every {@code Path} option and parameter}
     *
     * @throws TypeConversionException saying why, if the platform cannot name a file so
     */
    public static Path path(String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new TypeConversionException(unnamable(text, e));
        }
    }

    /**
     * {@return {@code text} as a path}
     *
     * @param what the option or parameter it was given as, e.g. {@code --out}
     * @throws BadInputException saying why, if the platform cannot name a file so
     */
    public static Path path(String what, String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new BadInputException(what + ": " + unnamable(text, e));
        }
    }

    /**
     * {@return why {@code text} cannot name a file, in one line: a name the JVM cannot encode in the
     * locale's file-name encoding (a non-ASCII name under the C locale) says how to start it}
     */
    public static String unnamable(String text, InvalidPathException e) {
        String encoding = System.getProperty("sun.jnu.encoding", "");
        boolean utf8 = Charset.isSupported(encoding) && Charset.forName(encoding).equals(StandardCharsets.UTF_8);
        boolean ascii = text.chars().allMatch(c -> c < 0x80);
        if (!utf8 && !ascii) {
            return "'" + TerminalText.of(text) + "' cannot name a file in this JVM: it encodes file names in "
                    + TerminalText.of(encoding) + ", from the locale (" + TerminalText.of(localeVariables())
                    + "); start it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8 (./run does so by itself)";
        }
        return "'" + TerminalText.of(text) + "' cannot name a file: " + TerminalText.message(e.getReason());
    }

    /** {@return the locale's variables that are set, e.g. {@code LC_ALL=C}} */
    private static String localeVariables() {
        StringBuilder b = new StringBuilder();
        for (String v : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String value = System.getenv(v);
            if (value != null && !value.isEmpty()) {
                b.append(b.isEmpty() ? "" : ", ").append(v).append('=').append(value);
            }
        }
        return b.isEmpty() ? "no LC_ALL, LC_CTYPE or LANG set" : b.toString();
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
        return TerminalText.message(why.isEmpty() ? why : Character.toLowerCase(why.charAt(0)) + why.substring(1));
    }
}
