package dev.tegula.io.gguf;

import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A GGUF file mapped read-only: its validated {@link GgufHeader} and its tensors as
 * {@link GgufTensor} views over the mapping (nothing is copied). Valid while the arena it was
 * mapped into is open; immutable and thread-safe (as far as that arena allows).
 */
public final class GgufFile {
    private final GgufHeader header;
    private final MemorySegment file;
    private final String name;

    GgufFile(GgufHeader header, MemorySegment file, String name) {
        this.header = header;
        this.file = file;
        this.name = name;
    }

    /** {@return the validated header: version, metadata, tensor entries, alignment} */
    public GgufHeader header() {
        return header;
    }

    /** {@return every tensor, in file order} */
    public List<GgufTensor> tensors() {
        List<GgufTensor> out = new ArrayList<>();
        for (GgufTensorInfo t : header.tensors()) {
            out.add(view(t));
        }
        return out;
    }

    /**
     * {@return the tensor called {@code name}}
     *
     * @throws TensorFormatException if the file has no tensor of that name (the message lists a few it has)
     */
    public GgufTensor tensor(String tensorName) throws TensorFormatException {
        GgufTensorInfo t = header.tensor(tensorName);
        if (t == null) {
            List<String> some = header.tensors().stream().limit(10).map(GgufTensorInfo::name)
                    .map(HeaderText::shorten).toList();
            throw new TensorFormatException(name + ": tensor '" + HeaderText.shorten(tensorName)
                    + "' is not in the file (it has " + header.tensors().size() + ": " + some
                    + (header.tensors().size() > 10 ? " …" : "") + ")");
        }
        return view(t);
    }

    private GgufTensor view(GgufTensorInfo t) {
        if (t.byteSize() == 0) {
            // no bytes: the data section may even start past the end of the file
            return new GgufTensor(t, file.asSlice(file.byteSize(), 0), name);
        }
        return new GgufTensor(t, file.asSlice(header.dataOffset() + t.offset(), t.byteSize()), name);
    }
}
