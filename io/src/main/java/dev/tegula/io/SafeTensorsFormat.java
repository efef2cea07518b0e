package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsFile;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * A safetensors file ({@link TensorFormat#SAFETENSORS}), read and written through
 * {@link SafeTensors}: every tensor and the {@code __metadata__} strings. Convert writes a
 * row-major tensor as the format stores it, any other (tiled, permuted, padded) as a {@code U8}
 * tensor of its buffer with its full shape text in the metadata under {@code tegula.shape.NAME},
 * which {@link TensorFiles#read}, {@link TensorFiles#readAs} and convert read back. Recognised by
 * the name {@code *.safetensors} or by a header length followed by <code>{</code>.
 */
public final class SafeTensorsFormat extends TensorFormat {
    /** Metadata key prefix under which convert records a layout the format cannot express. */
    static final String SHAPE_KEY = "tegula.shape.";

    SafeTensorsFormat() {
        super("safetensors", false, true);
    }

    @Override
    TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        SafeTensorsFile file = SafeTensors.open(path, arena);
        return new TensorSource(this, tensors(path, file, null), plainMetadata(file.header()));
    }

    /** {@return the metadata of a file without the keys convert records shapes under} */
    static Map<String, String> plainMetadata(SafeTensorsHeader header) {
        Map<String, String> meta = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : header.metadata().entrySet()) {
            if (!e.getKey().startsWith(SHAPE_KEY)) {
                meta.put(e.getKey(), e.getValue());
            }
        }
        return meta;
    }

    /** {@return the tensors of a mapped file, each in the shape its metadata records, if any} */
    static List<TensorSource.Named> tensors(Path path, SafeTensorsFile file, String shard) throws TensorFormatException {
        List<TensorSource.Named> out = new ArrayList<>();
        SafeTensorsHeader h = file.header();
        for (SafeTensorsHeader.Entry e : h.tensors()) {
            ArrayShape shape = shapeOf(path, h, e);   // checked now: opening the array later cannot fail
            String name = e.name();
            out.add(new TensorSource.Named(name, shape, () -> {
                Array a = file.tensor(name);
                return shape == e.shape() ? a : Array.wrap(a.segment(), shape).asReadOnly();
            }, null, shard));
        }
        return out;
    }

    /**
     * {@return tensor {@code name} of the file at {@code path}, mapped into {@code arena}, in the
     * shape convert recorded for it in the metadata (a tiled tensor stored as {@code U8}), else as
     * stored}
     *
     * @throws TensorFormatException if the file is malformed, has no such tensor, or its recorded shape does not fit
     */
    static Array tensor(Path path, String name, Arena arena) throws IOException {
        SafeTensorsFile file = SafeTensors.open(path, arena);
        Array a = file.tensor(name);
        String text = file.header().metadata().get(SHAPE_KEY + name);
        return text == null ? a : laidOut(path, name, a, text);
    }

    /** A U8 tensor whose metadata gives the shape and layout its bytes are in. */
    private static Array laidOut(Path path, String name, Array bytes, String text) throws TensorFormatException {
        return Array.wrap(bytes.segment(), recorded(path, name, bytes.shape(), bytes.segment().byteSize(), text))
                .asReadOnly();
    }

    /**
     * {@return the shape {@link #tensor} reads tensor {@code entry} of a parsed header in, from the
     * header alone (nothing is mapped)}
     *
     * @throws TensorFormatException if the shape recorded for it does not fit its bytes
     */
    static ArrayShape shapeOf(Path path, SafeTensorsHeader header, SafeTensorsHeader.Entry entry)
            throws TensorFormatException {
        String text = header.metadata().get(SHAPE_KEY + entry.name());
        return text == null ? entry.shape() : recorded(path, entry.name(), entry.shape(), entry.byteSize(), text);
    }

    /**
     * {@return the shape recorded as {@code text} for tensor {@code name}, stored as {@code stored}
     * in {@code size} bytes} @throws TensorFormatException if it does not parse or does not fit
     */
    private static ArrayShape recorded(Path path, String name, ArrayShape stored, long size, String text)
            throws TensorFormatException {
        String field = "__metadata__." + SHAPE_KEY + name;
        ArrayShape shape;
        try {
            shape = ArrayShape.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TensorFormatException(path + ": " + field + " is not a valid shape: " + e.getMessage(), e);
        }
        if (stored.elementType() != ElementType.U8 || stored.rank() != 1 || size != shape.bufferSize()) {
            throw new TensorFormatException(path + ": " + field + " says " + shape + " (" + shape.bufferSize()
                    + " bytes), but tensor '" + name + "' is " + stored.toStringWithoutLayout());
        }
        return shape;
    }

    /**
     * A row-major tensor is stored as the format stores it ({@code f4}: packed two to a byte);
     * any other layout as a {@code U8} tensor of its buffer.
     */
    @Override
    ArrayShape stored(String name, ArrayShape to) {
        ArrayShape plain = ArrayShape.of(to.elementType(), to.dimensions());
        if (!to.equals(plain)) {
            return to;
        }
        SafeTensorsHeader.Entry natural;
        try {
            natural = natural(name, to);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tensor '" + name + "': " + e.getMessage(), e);
        }
        if (natural.byteSize() != natural.shape().bufferSize()) {
            throw new IllegalArgumentException("tensor '" + name + "': convert does not write packed "
                    + natural.dtype() + " tensors yet; choose another --type");
        }
        return natural.shape().equals(to) ? to : natural.shape();
    }

    /** {@return the entry of a tensor of {@code to}'s type and dimensions in a file} @throws IllegalArgumentException if the type has no dtype */
    private static SafeTensorsHeader.Entry natural(String name, ArrayShape to) {
        SequencedMap<String, ArrayShape> one = new LinkedHashMap<>();
        one.put(name, to);
        return SafeTensorsHeader.of(one, Map.of()).tensors().getFirst();
    }

    /** {@return true if a tensor of shape {@code to} is stored as the format stores it, not as U8 bytes} */
    private static boolean storedAsItself(String name, ArrayShape to) {
        try {
            return to.equals(natural(name, to).shape());
        } catch (IllegalArgumentException e) {
            return false;   // a type without a dtype: its bytes
        }
    }

    @Override
    List<OutputFile> plan(Path target, List<OutputFile.Planned> tensors, TensorSource source) {
        return List.of(file(target, tensors, new LinkedHashMap<>(source.metadata())));
    }

    /**
     * {@return a safetensors file of these tensors and metadata}: each tensor in its stored shape,
     * or as {@code U8} bytes with the shape under {@code tegula.shape.NAME} in the metadata
     */
    static OutputFile file(Path target, List<OutputFile.Planned> tensors, Map<String, String> metadata) {
        SequencedMap<String, ArrayShape> stored = new LinkedHashMap<>();
        for (OutputFile.Planned t : tensors) {
            if (storedAsItself(t.name(), t.to())) {
                stored.put(t.name(), t.to());
                metadata.remove(SHAPE_KEY + t.name());
            } else {
                stored.put(t.name(), ArrayShape.of(ElementType.U8, t.to().bufferSize()));
                metadata.put(SHAPE_KEY + t.name(), t.to().toString());
            }
        }
        SafeTensorsHeader h = SafeTensorsHeader.of(stored, metadata);
        List<OutputFile.Region> regions = new ArrayList<>();
        for (int i = 0; i < tensors.size(); i++) {
            SafeTensorsHeader.Entry e = h.tensors().get(i);
            regions.add(new OutputFile.Region(tensors.get(i).source(), tensors.get(i).to(), e.begin(), e.byteSize()));
        }
        return new OutputFile(target, h.toBytes(), regions);
    }

    @Override
    boolean claims(String fileName) {
        return fileName.endsWith(".safetensors");
    }

    /** The 8-byte header length (at most the cap), then the JSON object's <code>{</code>, as the format requires. */
    @Override
    boolean startsLike(byte[] head) {
        if (head.length < 9) {
            return false;
        }
        long n = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getLong();
        return n > 0 && n <= SafeTensorsHeader.MAX_HEADER_BYTES && head[8] == '{';
    }
}
