package dev.tegula.ffm;

import dev.tegula.core.ArrayShape;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.io.TempDir;

/** The contract over arrays wrapped around a memory-mapped temporary file (mapped into the test's arena). */
class MappedArrayTest extends ArrayContract {
    @TempDir
    Path dir;

    @Override
    protected Array create(ArrayShape shape) throws Exception {
        Path file = Files.createTempFile(dir, "array", ".bin");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return Array.wrap(ch.map(FileChannel.MapMode.READ_WRITE, 0, shape.bufferSize(), arena), shape);
        }
    }
}
