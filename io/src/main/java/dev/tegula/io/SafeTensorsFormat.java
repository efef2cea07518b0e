package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Shape;
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
 * which it reads back. Recognised by the name {@code *.safetensors} or by a header length followed
 * by <code>{</code>.
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
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, String> all = file.header().metadata();
        for (Map.Entry<String, String> e : all.entrySet()) {
            if (!e.getKey().startsWith(SHAPE_KEY)) {
                meta.put(e.getKey(), e.getValue());
            }
        }
        List<TensorSource.Named> out = new ArrayList<>();
        for (Map.Entry<String, Array> e : file.tensors().entrySet()) {
            String text = all.get(SHAPE_KEY + e.getKey());
            Array a = e.getValue();
            if (text != null) {
                a = laidOut(path, e.getKey(), a, text);
            }
            out.add(new TensorSource.Named(e.getKey(), a));
        }
        return new TensorSource(this, out, meta);
    }

    /** A U8 tensor whose metadata gives the shape and layout its bytes are in. */
    private static Array laidOut(Path path, String name, Array bytes, String text) throws TensorFormatException {
        String field = "__metadata__." + SHAPE_KEY + name;
        ArrayShape shape;
        try {
            if (!(Shape.parse(text) instanceof ArrayShape s)) {
                throw new TensorFormatException(path + ": " + field + " is not an array shape: " + text);
            }
            shape = s;
        } catch (IllegalArgumentException e) {
            throw new TensorFormatException(path + ": " + field + " is not a valid shape: " + e.getMessage(), e);
        }
        long size = bytes.segment().byteSize();
        if (bytes.shape().elementType() != ElementType.U8 || bytes.shape().rank() != 1 || size != shape.bufferSize()) {
            throw new TensorFormatException(path + ": " + field + " says " + shape + " (" + shape.bufferSize()
                    + " bytes), but tensor '" + name + "' is " + bytes.shape().toStringWithoutLayout());
        }
        return Array.wrap(bytes.segment(), shape).asReadOnly();
    }

    @Override
    List<OutputFile> plan(Path target, List<TensorSource.Named> tensors, ConvertRules rules, Map<String, String> metadata) {
        SequencedMap<String, ArrayShape> stored = new LinkedHashMap<>();
        List<ArrayShape> shapes = new ArrayList<>();
        for (TensorSource.Named t : tensors) {
            ArrayShape to = rules.target(t.name(), t.shape());
            ArrayShape plain = ArrayShape.of(to.elementType(), to.dimensions());
            SequencedMap<String, ArrayShape> one = new LinkedHashMap<>();
            one.put(t.name(), plain);
            SafeTensorsHeader.Entry natural = SafeTensorsHeader.of(one, Map.of()).tensors().getFirst();
            if (natural.byteSize() != natural.shape().bufferSize()) {
                throw new IllegalArgumentException("tensor '" + t.name() + "': convert does not write packed "
                        + natural.dtype() + " tensors yet; choose another --type");
            }
            if (to.equals(plain)) {
                to = natural.shape();   // row-major as the file holds it (f4: packed two to a byte)
            }
            if (to.equals(natural.shape())) {
                stored.put(t.name(), to);
                metadata.remove(SHAPE_KEY + t.name());
            } else {
                stored.put(t.name(), ArrayShape.of(ElementType.U8, to.bufferSize()));
                metadata.put(SHAPE_KEY + t.name(), to.toString());
            }
            shapes.add(to);
        }
        SafeTensorsHeader h = SafeTensorsHeader.of(stored, metadata);
        List<OutputFile.Region> regions = new ArrayList<>();
        for (int i = 0; i < tensors.size(); i++) {
            SafeTensorsHeader.Entry e = h.tensors().get(i);
            regions.add(new OutputFile.Region(tensors.get(i), shapes.get(i), e.begin(), e.byteSize()));
        }
        return List.of(new OutputFile(target, h.toBytes(), regions));
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
