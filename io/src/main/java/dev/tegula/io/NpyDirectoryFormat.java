package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.npy.Npy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory of {@code .npy} files ({@link TensorFormat#NPY_DIRECTORY}), one tensor each, named by
 * the file's stem: read in file-name order; written as {@code NAME.npy} per tensor, each file
 * committed only when all are written.
 */
public final class NpyDirectoryFormat extends TensorFormat {
    NpyDirectoryFormat() {
        super("npy-dir", false, true);
    }

    @Override
    TensorSource open(Path dir, ArrayShape rawShape, Arena arena) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> named(p) == NPY && Files.isRegularFile(p)).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new TensorFormatException(dir + ": is a directory with no .npy file");
        }
        List<TensorSource.Named> out = new ArrayList<>();
        for (Path p : files) {
            out.add(new TensorSource.Named(stem(p), Npy.read(p, arena)));
        }
        return new TensorSource(this, out, Map.of());
    }

    @Override
    ArrayShape stored(String name, ArrayShape to) {
        checkFileName(name);
        return NPY.stored(name, to);
    }

    @Override
    List<OutputFile> plan(Path dir, List<OutputFile.Planned> tensors, TensorSource source) {
        List<OutputFile> out = new ArrayList<>();
        for (OutputFile.Planned t : tensors) {
            out.add(OutputFile.of(dir.resolve(t.name() + ".npy"), NpyFormat.header(t.name(), t.to()), t));
        }
        return out;
    }

    private static void checkFileName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\\') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("tensor '" + name + "' cannot be a file name in a directory of .npy files");
        }
    }

    @Override
    boolean claims(String fileName) {
        return false;   // a directory is recognised as one, whatever its name
    }

    @Override
    boolean startsLike(byte[] head) {
        return false;
    }
}
