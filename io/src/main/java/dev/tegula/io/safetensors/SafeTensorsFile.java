package dev.tegula.io.safetensors;

import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * A safetensors file mapped read-only: its validated {@link SafeTensorsHeader} and its tensors as
 * read-only row-major arrays over the mapping (nothing is copied; the packed 6-bit types are
 * unpacked into new arrays, one element per byte, from the arena the file was mapped into, each
 * time they are asked for). Valid while that arena is open; immutable, and thread-safe as far as
 * the arena allows.
 */
public final class SafeTensorsFile {
    private final SafeTensorsHeader header;
    private final MemorySegment file;
    private final String name;
    private final Arena arena;

    SafeTensorsFile(SafeTensorsHeader header, MemorySegment file, String name, Arena arena) {
        this.header = header;
        this.file = file;
        this.name = name;
        this.arena = arena;
    }

    /** {@return the validated header: metadata, tensor entries, where the data starts} */
    public SafeTensorsHeader header() {
        return header;
    }

    /** {@return every tensor by name, in file order} */
    public SequencedMap<String, Array> tensors() {
        SequencedMap<String, Array> out = new LinkedHashMap<>();
        for (SafeTensorsHeader.Entry e : header.tensors()) {
            out.put(e.name(), tensor(e));
        }
        return out;
    }

    /**
     * {@return the tensor called {@code tensorName}}
     *
     * @throws TensorFormatException if the file has no tensor of that name (the message lists those it has)
     */
    public Array tensor(String tensorName) throws TensorFormatException {
        SafeTensorsHeader.Entry e = header.entry(tensorName);
        if (e == null) {
            throw new TensorFormatException(name + ": tensor '" + HeaderText.shorten(tensorName) + "' is not in the file"
                    + " (it has " + HeaderText.some(header.tensors().stream().map(SafeTensorsHeader.Entry::name).toList())
                    + ")");
        }
        return tensor(e);
    }

    private Array tensor(SafeTensorsHeader.Entry e) {
        MemorySegment bytes = file.asSlice(header.dataOffset() + e.begin(), e.byteSize());
        SafeTensorsDtype dtype = SafeTensorsDtype.valueOf(e.dtype());
        if (dtype.wrapsDirectly()) {
            return Array.wrap(bytes, e.shape());
        }
        Array out = Array.allocate(arena, e.shape());
        SubByte.unpack6(bytes, out.segment(), e.shape().elementCount());
        return out;
    }
}
