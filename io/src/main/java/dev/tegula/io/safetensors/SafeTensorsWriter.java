package dev.tegula.io.safetensors;

import dev.tegula.vector.Relayout;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.AtomicFile;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.MappedFiles;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * Writes a safetensors file one tensor at a time: the header first (the names, dtypes and shapes
 * were declared when the writer was opened), then each tensor's data in the declared order. Only
 * the tensor being written is ever needed in memory (and only when it must be copied into
 * row-major order or packed first). Not thread-safe.
 *
 * {@snippet :
 * SequencedMap<String, ArrayShape> shapes = new LinkedHashMap<>();
 * shapes.put("w", ArrayShape.of(ElementType.BF16, 4096, 4096));
 * shapes.put("b", ArrayShape.of(ElementType.F32, 4096));
 * try (SafeTensorsWriter w = SafeTensors.writer(path, shapes, Map.of("format", "pt"))) {
 *     w.write("w", produceWeights());
 *     w.write("b", produceBias());
 * }
 * }
 *
 * <p>The data goes to a temporary file in the target's directory; {@link #close()} renames it over
 * the target once every declared tensor was written. If one was not (or a write failed),
 * {@code close()} throws and deletes the temporary: the target is never left half-written, and a
 * file that was there before is kept.
 */
public final class SafeTensorsWriter implements Closeable {
    private final Path path;
    private final AtomicFile file;
    private final FileChannel channel;
    private final List<String> names;
    private final List<ArrayShape> shapes;
    private final List<SafeTensorsDtype> dtypes;
    private final long[] sizes;
    private int next;
    private boolean closed;

    private SafeTensorsWriter(Path path, AtomicFile file, List<String> names, List<ArrayShape> shapes,
                              List<SafeTensorsDtype> dtypes, long[] sizes) {
        this.path = path;
        this.file = file;
        this.channel = file.channel();
        this.names = names;
        this.shapes = shapes;
        this.dtypes = dtypes;
        this.sizes = sizes;
    }

    static SafeTensorsWriter open(Path path, SequencedMap<String, ArrayShape> tensors, Map<String, String> metadata)
            throws IOException {
        Objects.requireNonNull(path, "path");
        SafeTensorsHeader header = SafeTensorsHeader.of(tensors, metadata);
        List<SafeTensorsDtype> dtypes = new ArrayList<>();
        long[] sizes = new long[header.tensors().size()];
        for (int i = 0; i < sizes.length; i++) {
            SafeTensorsHeader.Entry e = header.tensors().get(i);
            dtypes.add(SafeTensorsDtype.valueOf(e.dtype()));
            sizes[i] = e.byteSize();
        }
        AtomicFile out = AtomicFile.create(path);
        try {
            MappedFiles.writeFully(out.channel(), header.toBytes());
        } catch (IOException e) {
            out.close();
            throw out.named(e);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return new SafeTensorsWriter(path, out, List.copyOf(tensors.sequencedKeySet()),
                List.copyOf(tensors.sequencedValues()), List.copyOf(dtypes), sizes);
    }

    /**
     * Writes the data of the next declared tensor, which must be {@code name}.
     *
     * @param name  the tensor's name, as declared
     * @param array its data: same element type and dimensions as declared, any layout, host memory
     * @throws IllegalStateException    if the writer is closed, every tensor was written, or the array
     *                                  is not host-accessible
     * @throws IllegalArgumentException if {@code name} is not the next declared tensor, or the array's
     *                                  element type or dimensions differ from the declared ones
     */
    public void write(String name, Array array) throws IOException {
        ArrayShape declared = checkNext(name);
        ArrayShape s = array.shape();
        if (!s.equalsIgnoringLayout(declared.withDefaultLayout())) {
            throw new IllegalArgumentException("array: '" + name + "' was declared " + declared.toStringWithoutLayout()
                    + ", got " + s.toStringWithoutLayout());
        }
        if (!array.isHostAccessible()) {
            throw new IllegalStateException("array: '" + name + "' " + s + " is not in host memory");
        }
        SafeTensorsDtype d = dtypes.get(next);
        ArrayShape file = d.wrapsDirectly() ? d.fileShape(s.dimensions()) : s.withDefaultLayout();
        try (Arena scratch = Arena.ofConfined()) {
            Array source = array;
            if (!array.isDenseIn(file.layout())) {
                source = Array.allocate(scratch, file);
                Relayout.copy(array, source);
            }
            MemorySegment bytes = source.segment().asSlice(0, d.wrapsDirectly() ? sizes[next] : s.elementCount());
            if (!d.wrapsDirectly()) {
                MemorySegment packed = scratch.allocate(sizes[next]);
                SubByte.pack6(bytes, packed, s.elementCount());
                bytes = packed;
            }
            MappedFiles.writeFully(channel, bytes);
        } catch (IOException e) {
            throw this.file.named(e);   // a full disk names the file, not its temporary
        }
        next++;
    }

    /**
     * Writes the next declared tensor's data from raw bytes already in the file's encoding
     * (row-major, little-endian, F4 and F6 packed).
     *
     * @throws IllegalArgumentException if {@code name} is not the next declared tensor or the byte count differs
     */
    public void writeBytes(String name, MemorySegment bytes) throws IOException {
        checkNext(name);
        if (bytes.byteSize() != sizes[next]) {
            throw new IllegalArgumentException("bytes: '" + name + "' needs " + sizes[next] + " bytes, got " + bytes.byteSize());
        }
        try {
            MappedFiles.writeFully(channel, bytes);
        } catch (IOException e) {
            throw file.named(e);
        }
        next++;
    }

    private ArrayShape checkNext(String name) {
        if (closed) {
            throw new IllegalStateException("writer for " + path + " is closed");
        }
        if (next >= names.size()) {
            throw new IllegalStateException("writer for " + path + ": every declared tensor was already written");
        }
        if (!names.get(next).equals(name)) {
            throw new IllegalArgumentException("name: the next tensor to write is '" + names.get(next) + "', got '"
                    + name + "'");
        }
        return shapes.get(next);
    }

    /**
     * Finishes the file: when every declared tensor was written, forces it to disk and renames it
     * over the path (replacing an existing file whole); otherwise deletes it, leaving an existing
     * file at the path as it was.
     *
     * @throws IOException if a declared tensor was not written (nothing is written then), or
     *                     forcing or renaming fails
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (file) {
            if (next < names.size()) {
                throw new IOException(path + ": tensors " + HeaderText.some(names.subList(next, names.size()))
                        + " were declared but not written; nothing was written, " + path + " is as it was");
            }
            file.commit();
        }
    }
}
