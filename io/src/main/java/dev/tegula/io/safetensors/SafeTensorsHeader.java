package dev.tegula.io.safetensors;

import static dev.tegula.io.internal.HeaderText.bad;
import static dev.tegula.io.internal.HeaderText.shorten;

import dev.tegula.core.ArrayShape;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.Json;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.io.internal.NamedList;
import dev.tegula.io.internal.WorkCounts;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * The validated header of a safetensors file: its {@code __metadata__} and its tensors in file
 * order. Validation follows the reference implementation: header length at most
 * {@value #MAX_HEADER_BYTES} bytes and inside the file, UTF-8 JSON object, known dtypes, offsets
 * contiguous from 0 with no hole or overlap, each tensor's byte length equal to
 * {@code elements × bits / 8} (a whole number of bytes) with overflow checked, and the last tensor
 * ending exactly at the end of the file. Stricter than the reference in one point: a repeated key
 * in the JSON is an error.
 *
 * @param metadata   the {@code __metadata__} strings (empty if absent)
 * @param tensors    the tensors, ordered by their data offsets
 * @param dataOffset the file offset of the data section ({@code 8 + header length}), in bytes
 */
public record SafeTensorsHeader(Map<String, String> metadata, List<Entry> tensors, long dataOffset) {
    /** The largest header accepted, in bytes (the reference implementation's cap). */
    public static final long MAX_HEADER_BYTES = 100_000_000L;
    /** The most dimensions a tensor's shape may list. */
    static final int MAX_RANK = 64;

    /**
     * One tensor of the header.
     *
     * @param name  its name
     * @param dtype the safetensors dtype name, e.g. {@code BF16}
     * @param shape its shape as stored: row-major ({@code E(4)} packed for {@code F4})
     * @param begin the first byte of its data, relative to the data section
     * @param end   one past its last byte, relative to the data section
     */
    public record Entry(String name, String dtype, ArrayShape shape, long begin, long end) {
        /** {@return the bytes of its data in the file} */
        public long byteSize() {
            return end - begin;
        }
    }

    public SafeTensorsHeader {
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        tensors = NamedList.of(tensors, Entry::name);
    }

    /** {@return the entry of the tensor called {@code name} (the first, if a list given to the constructor repeats it), or null} */
    public Entry entry(String name) {
        return ((NamedList<Entry>) tensors).named(name);
    }

    /**
     * {@return the header of a file that holds {@code tensors}, in this order, and {@code metadata}}
     * Each tensor is stored row-major in the dtype of its element type ({@code F4} packed two to a
     * byte, {@code F6_*} four to three bytes), right after the one before it; the shapes' layouts
     * are ignored. {@link #toBytes()} is the header as a file starts with it.
     *
     * @throws IllegalArgumentException if an element type has no safetensors dtype, a tensor is
     *                                  called {@code __metadata__}, an F4/F6 tensor is not a whole
     *                                  number of bytes, or the header would be over the cap
     */
    public static SafeTensorsHeader of(SequencedMap<String, ArrayShape> tensors, Map<String, String> metadata) {
        Objects.requireNonNull(tensors, "tensors");
        Objects.requireNonNull(metadata, "metadata");
        metadata.forEach((k, v) -> Objects.requireNonNull(v, "metadata value"));
        List<Entry> entries = new ArrayList<>();
        long offset = 0;
        for (Map.Entry<String, ArrayShape> t : tensors.entrySet()) {
            String name = t.getKey();
            if (name.equals("__metadata__")) {
                throw new IllegalArgumentException("tensors: the name __metadata__ is reserved");
            }
            ArrayShape s = t.getValue();
            SafeTensorsDtype d = SafeTensorsDtype.of(s.elementType());
            long bits = Math.multiplyExact(s.elementCount(), (long) d.bits);
            if (bits % 8 != 0) {
                throw new IllegalArgumentException("tensors: '" + name + "' " + s.toStringWithoutLayout() + " is " + bits
                        + " bits in the file, not a whole number of bytes");
            }
            long end = Math.addExact(offset, bits / 8);
            ArrayShape stored = d.fileShape(s.dimensions());
            entries.add(new Entry(name, d.name(), stored.equals(s) ? s : stored, offset, end));
            offset = end;
        }
        long padded = padded(json(metadata, entries).length);
        if (padded > MAX_HEADER_BYTES) {
            throw new IllegalArgumentException("tensors: the header would be " + padded + " bytes, over the cap of "
                    + MAX_HEADER_BYTES);
        }
        return new SafeTensorsHeader(metadata, entries, 8 + padded);
    }

    /**
     * {@return the header as Tegula writes it: its length (8 bytes, little-endian), then the JSON
     * text (metadata first, then the tensors in order), padded with spaces so that the data starts
     * at a multiple of {@value SafeTensors#ALIGNMENT} bytes} For a header made by {@link #of} it is
     * {@link #dataOffset()} bytes long; a parsed header is written in this form too, which may be
     * longer or shorter than the file it was read from.
     */
    public byte[] toBytes() {
        byte[] text = json(metadata, tensors);
        long padded = padded(text.length);
        byte[] header = new byte[Math.toIntExact(8 + padded)];
        for (int i = 0; i < 8; i++) {
            header[i] = (byte) (padded >>> (8 * i));
        }
        System.arraycopy(text, 0, header, 8, text.length);
        Arrays.fill(header, 8 + text.length, header.length, (byte) ' ');
        return header;
    }

    /** {@return the header text's length padded so that the data, after the 8-byte length, is aligned} */
    private static long padded(int textBytes) {
        return textBytes + Math.floorMod(-(8L + textBytes), SafeTensors.ALIGNMENT);
    }

    /** {@return the JSON text of a header, in UTF-8} */
    private static byte[] json(Map<String, String> metadata, List<Entry> tensors) {
        StringBuilder json = new StringBuilder("{");
        if (!metadata.isEmpty()) {
            json.append("\"__metadata__\":{");
            boolean first = true;
            for (Map.Entry<String, String> e : metadata.entrySet()) {
                json.append(first ? "" : ",");
                Json.quote(json, e.getKey()).append(':');
                Json.quote(json, e.getValue());
                first = false;
            }
            json.append('}');
        }
        for (Entry e : tensors) {
            json.append(json.length() > 1 ? "," : "");
            Json.quote(json, e.name).append(":{\"dtype\":\"").append(e.dtype).append("\",\"shape\":")
                    .append(Arrays.toString(e.shape.dimensions()).replace(" ", "")).append(",\"data_offsets\":[")
                    .append(e.begin).append(',').append(e.end).append("]}");
        }
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@return the validated header of the safetensors file whose bytes are {@code file}} */
    static SafeTensorsHeader parse(MemorySegment file, String name) throws TensorFormatException {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new UnsupportedOperationException("safetensors data is little-endian; this machine is not");
        }
        long size = file.byteSize();
        if (size < 8) {
            throw bad(name, "file", "is " + size + " bytes; a safetensors file has at least 8");
        }
        long n = file.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
        if (n < 0 || n > MAX_HEADER_BYTES) {
            throw bad(name, "header length", Long.toUnsignedString(n) + " is over the cap of "
                    + MAX_HEADER_BYTES + " bytes");
        }
        if (n > size - 8) {
            throw bad(name, "header length", n + " reaches past the end of the file (" + size + " bytes)");
        }
        String text = MappedFiles.decode(file.asSlice(8, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8,
                name, "header");
        Object json;
        try {
            json = Json.parse(text);
        } catch (HeaderText.Malformed e) {
            throw bad(name, "header", "is not valid JSON: " + e.getMessage());
        }
        if (!(json instanceof Map<?, ?> root)) {
            throw bad(name, "header", "is not a JSON object");
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        List<Entry> entries = new ArrayList<>();
        for (Map.Entry<?, ?> e : root.entrySet()) {
            String key = (String) e.getKey();
            if (key.equals("__metadata__")) {
                metadata(e.getValue(), name, metadata);
            } else {
                entries.add(entry(key, e.getValue(), name));
            }
        }
        WorkCounts.sort(entries, Comparator.comparingLong(Entry::begin).thenComparingLong(Entry::end));
        long start = 0;
        for (Entry e : entries) {
            if (e.begin != start || e.end < e.begin) {
                throw bad(name, "data_offsets of '" + shorten(e.name) + "'", "[" + e.begin + ", " + e.end
                        + "] do not continue the data at " + start + " (offsets must be contiguous from 0, no hole or overlap)");
            }
            start = e.end;
        }
        long data = size - 8 - n;
        if (start != data) {
            throw bad(name, "data", "section is " + data + " bytes, but the tensors cover " + start
                    + " (truncated or trailing bytes)");
        }
        return new SafeTensorsHeader(metadata, entries, 8 + n);
    }

    private static void metadata(Object v, String file, Map<String, String> out) throws TensorFormatException {
        if (!(v instanceof Map<?, ?> m)) {
            throw bad(file, "__metadata__", "is not an object of strings");
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof String s)) {
                throw bad(file, "__metadata__." + shorten((String) e.getKey()),
                        shorten(String.valueOf(e.getValue())) + " is not a string");
            }
            out.put((String) e.getKey(), s);
        }
    }

    private static Entry entry(String tensor, Object v, String file) throws TensorFormatException {
        if (!(v instanceof Map<?, ?> m)) {
            throw bad(file, where(tensor), "is not an object with dtype, shape and data_offsets");
        }
        if (!(m.get("dtype") instanceof String dtypeName)) {
            throw bad(file, where(tensor) + " dtype", shorten(String.valueOf(m.get("dtype"))) + " is not a string");
        }
        SafeTensorsDtype dtype = SafeTensorsDtype.byName(dtypeName);
        if (dtype == null) {
            throw bad(file, where(tensor) + " dtype", "'" + shorten(dtypeName) + "' is not a safetensors dtype "
                    + Arrays.toString(SafeTensorsDtype.values()));
        }
        long[] dims = longs(m.get("shape"), -1, file, tensor, " shape");
        long[] offsets = longs(m.get("data_offsets"), 2, file, tensor, " data_offsets");
        long bits = 1;
        try {
            for (long d : dims) {
                bits = Math.multiplyExact(bits, d);
            }
            bits = Math.multiplyExact(bits, (long) dtype.bits);
        } catch (ArithmeticException e) {
            throw bad(file, where(tensor) + " shape", Arrays.toString(dims) + " of " + dtypeName
                    + " has more bits than a long can count");
        }
        if (bits % 8 != 0) {
            throw bad(file, where(tensor) + " shape", Arrays.toString(dims) + " of " + dtypeName + " is " + bits
                    + " bits, not a whole number of bytes");
        }
        if (offsets[1] >= offsets[0] && offsets[1] - offsets[0] != bits / 8) {
            throw bad(file, where(tensor) + " data_offsets", "[" + offsets[0] + ", " + offsets[1] + "] hold "
                    + (offsets[1] - offsets[0]) + " bytes, but shape " + Arrays.toString(dims) + " of " + dtypeName
                    + " needs " + bits / 8);
        }
        ArrayShape shape;
        try {
            shape = dtype.fileShape(dims);
        } catch (IllegalArgumentException e) {
            throw bad(file, where(tensor) + " shape", Arrays.toString(dims) + " is not a valid shape: " + e.getMessage());
        }
        return new Entry(tensor, dtypeName, shape, offsets[0], offsets[1]);
    }

    /** {@return how messages name tensor {@code tensor}} (made only for a message: a header may list many tensors) */
    private static String where(String tensor) {
        return "tensor '" + shorten(tensor) + "'";
    }

    /** {@return the list {@code v} of integers, field {@code suffix} of tensor {@code tensor}} */
    private static long[] longs(Object v, int length, String file, String tensor, String suffix)
            throws TensorFormatException {
        if (!(v instanceof List<?> l) || (length >= 0 && l.size() != length)) {
            throw bad(file, where(tensor) + suffix, shorten(String.valueOf(v)) + " is not "
                    + (length >= 0 ? "a list of " + length + " integers" : "a list of integers"));
        }
        if (l.size() > MAX_RANK) {
            throw bad(file, where(tensor) + suffix, "has " + l.size() + " entries; at most " + MAX_RANK + " are supported");
        }
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            Object x = l.get(i);
            if (x instanceof BigInteger big) {
                throw bad(file, where(tensor) + suffix + "[" + i + "]", shorten(big.toString()) + " is larger than 2^63-1");
            }
            if (!(x instanceof Long n) || n < 0) {
                throw bad(file, where(tensor) + suffix + "[" + i + "]", shorten(String.valueOf(x))
                        + " is not a non-negative integer");
            }
            out[i] = n;
        }
        return out;
    }
}
