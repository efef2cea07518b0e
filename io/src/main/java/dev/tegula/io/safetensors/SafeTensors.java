package dev.tegula.io.safetensors;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * Hugging Face safetensors files: read zero-copy from a mapping, written through a streaming writer.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     Map<String, Array> tensors = SafeTensors.read(Path.of("model.safetensors"), arena);   // mapped
 *     SafeTensors.write(tensors, Path.of("copy.safetensors"));
 * }
 * }
 *
 * <h2>Reading</h2>
 * The file is mapped read-only into the caller's arena and validated as strictly as the reference
 * implementation ({@link SafeTensorsHeader}); {@link #open} gives the header and the tensors of one
 * mapping, its header parsed once. Each tensor becomes a <b>read-only</b> row-major array over its
 * bytes in the mapping, without a copy; {@code F4} tensors are {@code f4e2m1fn} with
 * {@code E(4)} packing, still without a copy. Only the packed 6-bit types {@code F6_E2M3} and
 * {@code F6_E3M2} are unpacked into new arrays (one element per byte) from the arena.
 *
 * <h2>Writing</h2>
 * {@link #write} and {@link #writer} write the header ({@link SafeTensorsHeader#toBytes()}: padded
 * with spaces so the data starts at a multiple of {@value #ALIGNMENT} bytes), then each tensor's data in row-major order, in the
 * order given. The writer takes one tensor at a time, so a file larger than memory can be written
 * from arrays that are produced (or mapped) one after another.
 *
 * <h2>Errors</h2>
 * {@link TensorFormatException} names the file, the field and the value; no length from the file
 * is trusted before it has been checked against the file's size.
 */
public final class SafeTensors {
    /** The data section of files Tegula writes starts at a multiple of this many bytes. */
    public static final int ALIGNMENT = 64;

    private SafeTensors() {
    }

    /**
     * {@return the safetensors file at {@code path} mapped read-only into {@code arena}, its header
     * validated} Its tensors are read-only views of the mapping (F6 tensors: unpacked into new
     * arrays from {@code arena}).
     *
     * @throws TensorFormatException if the file is not a valid safetensors file
     * @throws IOException           if the file cannot be read
     */
    public static SafeTensorsFile open(Path path, Arena arena) throws IOException {
        Objects.requireNonNull(arena, "arena");
        MemorySegment file = MappedFiles.map(path, arena);
        return new SafeTensorsFile(SafeTensorsHeader.parse(file, path.toString()), file, path.toString(), arena);
    }

    /**
     * {@return every tensor of the safetensors file at {@code path}, in file order} The arrays are
     * read-only views of the file mapped into {@code arena} (F6 tensors: new arrays from {@code arena}).
     *
     * @throws TensorFormatException if the file is not a valid safetensors file
     * @throws IOException           if the file cannot be read
     */
    public static SequencedMap<String, Array> read(Path path, Arena arena) throws IOException {
        return open(path, arena).tensors();
    }

    /**
     * {@return the one tensor called {@code name}} of the file at {@code path}, mapped into {@code arena}
     *
     * @throws TensorFormatException if the file is invalid or has no tensor of that name
     */
    public static Array read(Path path, String name, Arena arena) throws IOException {
        return open(path, arena).tensor(name);
    }

    /**
     * {@return the validated header of the file at {@code path}} (mapped only while it is read)
     *
     * @throws TensorFormatException if the file is not a valid safetensors file
     */
    public static SafeTensorsHeader readHeader(Path path) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return SafeTensorsHeader.parse(MappedFiles.map(path, arena), path.toString());
        }
    }

    /**
     * Writes {@code tensors} (in the map's order) to {@code path}, without metadata.
     *
     * @throws IllegalArgumentException if an element type has no safetensors dtype
     */
    public static void write(Map<String, Array> tensors, Path path) throws IOException {
        write(tensors, Map.of(), path);
    }

    /**
     * Writes {@code tensors} (in the map's order) and the {@code __metadata__} strings to {@code path}.
     *
     * @throws IllegalArgumentException if an element type has no safetensors dtype, an F4/F6 tensor
     *                                  is not a whole number of bytes, or the header exceeds the cap
     */
    public static void write(Map<String, Array> tensors, Map<String, String> metadata, Path path) throws IOException {
        SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
        tensors.forEach((k, v) -> shapes.put(k, v.shape()));
        try (SafeTensorsWriter w = writer(path, shapes, metadata)) {
            for (Map.Entry<String, Array> e : tensors.entrySet()) {
                w.write(e.getKey(), e.getValue());
            }
        }
    }

    /**
     * {@return a streaming writer for a file holding tensors of these names and shapes, in this order}
     * The header is written now; then {@link SafeTensorsWriter#write} takes each tensor's data in
     * turn. The shapes' layouts are ignored: the file is row-major.
     *
     * @throws IllegalArgumentException if an element type has no safetensors dtype, an F4/F6 tensor
     *                                  is not a whole number of bytes, or the header exceeds the cap
     */
    public static SafeTensorsWriter writer(Path path, SequencedMap<String, ArrayShape> tensors,
                                           Map<String, String> metadata) throws IOException {
        return SafeTensorsWriter.open(path, tensors, metadata);
    }
}
