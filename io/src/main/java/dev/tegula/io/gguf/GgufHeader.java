package dev.tegula.io.gguf;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.NamedList;
import dev.tegula.io.internal.WorkCounts;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.Set;

/**
 * The validated header of a GGUF file (version 2 or 3, little-endian): its metadata in file order,
 * its tensors in file order, the alignment and where the data section starts.
 *
 * <p>Validation: magic {@code GGUF}; version 2 or 3 (a big-endian file, whose version reads
 * byte-swapped, is refused as such); every count and length checked against the bytes left in the
 * file before anything is allocated for it; value types known; arrays nested at most
 * {@value #MAX_NESTING} deep; strings valid UTF-8; keys and tensor names unique;
 * {@code general.alignment}, if present, a UINT32 power of two; tensors of at most
 * {@value #MAX_DIMS} dimensions, of a known type, {@code ne[0]} a multiple of the type's block size,
 * element count and byte size without overflow; each tensor's offset a multiple of the alignment, its
 * bytes inside the data section and overlapping no other tensor's.
 *
 * @param version    the format version, 2 or 3
 * @param metadata   the key-value pairs in file order
 * @param tensors    the tensors in file order
 * @param alignment  the data alignment in bytes ({@code general.alignment}, default 32)
 * @param dataOffset the file offset of the data section, in bytes
 */
public record GgufHeader(int version, SequencedMap<String, GgufValue> metadata, List<GgufTensorInfo> tensors,
                         long alignment, long dataOffset) {
    /** The alignment of files without {@code general.alignment}. */
    public static final int DEFAULT_ALIGNMENT = 32;
    /** The deepest nesting of arrays accepted (an array of arrays is depth 2). */
    public static final int MAX_NESTING = 8;
    /** The most dimensions a tensor may have. */
    public static final int MAX_DIMS = 8;

    public GgufHeader {
        metadata = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(metadata));
        tensors = NamedList.of(tensors, GgufTensorInfo::name);
    }

    /** {@return the tensor called {@code name} (the first, if a list given to the constructor repeats it), or null} */
    public GgufTensorInfo tensor(String name) {
        return ((NamedList<GgufTensorInfo>) tensors).named(name);
    }

    /** Parses and validates the header of the GGUF file {@code file} (named {@code name} in messages). */
    static GgufHeader parse(MemorySegment file, String name) throws TensorFormatException {
        Cursor c = new Cursor(file, name);
        try {
            return read(c, file);
        } finally {
            WorkCounts.add(WorkCounts.Kind.FIELD_READS, c.reads());
        }
    }

    /** Reads the header from the start of {@code file} through {@code c}. */
    private static GgufHeader read(Cursor c, MemorySegment file) throws TensorFormatException {
        int magic = c.i32("magic");
        if (magic != FileMagic.GGUF) {
            throw c.error("magic: expected 47 47 55 46 (\"GGUF\"), found " + bytesAndText(magic));
        }
        int version = c.i32("version");
        if (version != 2 && version != 3) {
            if ((version & 0xFFFF) == 0 && version != 0) {
                throw c.error("version: reads " + Integer.toUnsignedString(version) + " (0x" + Integer.toHexString(version)
                        + "): a big-endian GGUF file (version " + Integer.reverseBytes(version)
                        + "); Tegula reads little-endian GGUF only");
            }
            throw c.error("version: " + Integer.toUnsignedString(version) + " is not supported (GGUF 2 and 3 are)");
        }
        long tensorCount = c.count("tensor_count", 8 + 4 + 4 + 8);
        long kvCount = c.count("metadata_kv_count", 8 + 4 + 1);
        SequencedMap<String, GgufValue> metadata = new LinkedHashMap<>();
        for (long i = 0; i < kvCount; i++) {
            String key = c.string("metadata key #" + i);
            String field = "metadata '" + HeaderText.shorten(key) + "'";
            GgufValueType type = c.valueType(field + " type");
            GgufValue v = c.value(type, field, 1);
            if (metadata.putIfAbsent(key, v) != null) {
                throw c.error(field + ": key repeated");
            }
        }
        long alignment = DEFAULT_ALIGNMENT;
        GgufValue a = metadata.get("general.alignment");
        if (a != null) {
            if (a.type() != GgufValueType.UINT32) {
                throw c.error("metadata 'general.alignment': type " + a.type() + ", expected UINT32");
            }
            alignment = a.asLong();
            if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
                throw c.error("metadata 'general.alignment': " + alignment + " is not a power of two");
            }
        }
        List<GgufTensorInfo> tensors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (long i = 0; i < tensorCount; i++) {
            String tname = c.string("tensor #" + i + " name");
            String field = "tensor '" + HeaderText.shorten(tname) + "'";
            if (!names.add(tname)) {
                throw c.error(field + ": name repeated");
            }
            long nDims = Integer.toUnsignedLong(c.i32(field + " n_dimensions"));
            if (nDims > MAX_DIMS) {
                throw c.error(field + " n_dimensions: " + nDims + " exceeds " + MAX_DIMS);
            }
            long[] ne = new long[(int) nDims];
            long elements = 1;
            for (int d = 0; d < nDims; d++) {
                ne[d] = c.i64(field + " ne[" + d + "]");
                if (ne[d] < 0) {
                    throw c.error(field + " ne[" + d + "]: " + Long.toUnsignedString(ne[d]) + " is too large");
                }
                try {
                    elements = Math.multiplyExact(elements, ne[d]);
                } catch (ArithmeticException e) {
                    throw c.error(field + " ne: the element count of " + java.util.Arrays.toString(ne) + " overflows");
                }
            }
            long typeId = Integer.toUnsignedLong(c.i32(field + " type"));
            GgufType type = GgufType.ofId(typeId);
            if (type == null) {
                throw c.error(field + " type: unknown ggml type " + typeId);
            }
            if (nDims > 0 && ne[0] % type.blockSize() != 0 || nDims == 0 && type.blockSize() != 1) {
                throw c.error(field + " ne[0]: " + (nDims > 0 ? ne[0] : 1) + " is not a multiple of " + type
                        + "'s block size " + type.blockSize());
            }
            long byteSize;
            try {
                byteSize = Math.multiplyExact(elements / type.blockSize(), (long) type.blockBytes());
            } catch (ArithmeticException e) {
                throw c.error(field + ": the byte size of " + elements + " " + type + " elements overflows");
            }
            long offset = c.i64(field + " offset");
            GgufTensorInfo info = new GgufTensorInfo(tname, ne, type, offset, byteSize);
            // the product above runs in the file's order and stops growing at a zero dimension; Tegula's
            // (XLA's) rule multiplies its own order, ne reversed, and refuses a product that overflows on the
            // way even when a later dimension is 0: refuse here what array() and readInto could not shape
            try {
                ArrayShape.of(type.elementType() != null ? type.elementType() : ElementType.U8, info.dimensions());
            } catch (IllegalArgumentException e) {
                throw c.error(field + " ne: " + java.util.Arrays.toString(ne) + " is not a valid shape: " + e.getMessage());
            }
            tensors.add(info);
        }
        long end = c.position();
        long dataOffset = (end + alignment - 1) / alignment * alignment;
        long fileSize = file.byteSize();
        long dataSize = Math.max(0, fileSize - dataOffset);
        if (dataOffset > fileSize && tensors.stream().anyMatch(t -> t.byteSize() > 0)) {
            throw c.error("data section: starts at byte " + dataOffset + ", past the end of the file (" + fileSize + " bytes)");
        }
        for (GgufTensorInfo t : tensors) {
            String field = "tensor '" + HeaderText.shorten(t.name()) + "'";
            if (t.offset() < 0 || t.offset() % alignment != 0) {
                throw c.error(field + " offset: " + Long.toUnsignedString(t.offset()) + " is not a multiple of the alignment "
                        + alignment);
            }
            if (t.offset() > dataSize || t.byteSize() > dataSize - t.offset()) {
                throw c.error(field + ": bytes [" + t.offset() + ", " + t.offset() + " + " + t.byteSize()
                        + ") exceed the data section (" + dataSize + " bytes from byte " + dataOffset + ")");
            }
        }
        List<GgufTensorInfo> byOffset = new ArrayList<>(tensors);
        byOffset.removeIf(t -> t.byteSize() == 0);
        WorkCounts.sort(byOffset, Comparator.comparingLong(GgufTensorInfo::offset));
        for (int i = 1; i < byOffset.size(); i++) {
            GgufTensorInfo p = byOffset.get(i - 1);
            GgufTensorInfo t = byOffset.get(i);
            if (p.offset() + p.byteSize() > t.offset()) {
                throw c.error("tensor '" + HeaderText.shorten(t.name()) + "' offset: " + t.offset() + " overlaps tensor '"
                        + HeaderText.shorten(p.name()) + "' [" + p.offset() + ", " + (p.offset() + p.byteSize()) + ")");
            }
        }
        return new GgufHeader(version, metadata, tensors, alignment, dataOffset);
    }

    /**
     * {@return the four bytes of a little-endian {@code int} as a file holds them, in hex and spaced,
     * then as ASCII text in quotes, a byte that is not printable ASCII shown as {@code .}}: for
     * example {@code 47 47 55 58 ("GGUX")}
     */
    static String bytesAndText(int littleEndian) {
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            int b = (littleEndian >>> (8 * i)) & 0xFF;
            hex.append(i > 0 ? " " : "").append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
        }
        return hex + " (\"" + text + "\")";
    }

    /** A bounds-checked little-endian reader over the mapped header. */
    private static final class Cursor {
        private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

        private final MemorySegment file;
        private final String name;
        private long pos;
        /** The fields read so far (each number, string and array body once). */
        private long reads;
        /** Strict UTF-8 (malformed input is an error, never a replacement character), reused for each string. */
        private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

        Cursor(MemorySegment file, String name) {
            this.file = file;
            this.name = name;
        }

        long reads() {
            return reads;
        }

        long position() {
            return pos;
        }

        TensorFormatException error(String message) {
            return new TensorFormatException(name + ": " + message);
        }

        private long left() {
            return file.byteSize() - pos;
        }

        private void need(long bytes, String field) throws TensorFormatException {
            if (bytes > left()) {
                throw error(field + ": needs " + bytes + " bytes at byte " + pos + ", the file has " + left() + " left");
            }
        }

        int i32(String field) throws TensorFormatException {
            need(4, field);
            reads++;
            int v = file.get(I32, pos);
            pos += 4;
            return v;
        }

        long i64(String field) throws TensorFormatException {
            need(8, field);
            reads++;
            long v = file.get(I64, pos);
            pos += 8;
            return v;
        }

        /** A u64 count of items of at least {@code minBytes} each, checked against the bytes left. */
        long count(String field, long minBytes) throws TensorFormatException {
            long n = i64(field);
            if (n < 0 || n > left() / minBytes) {
                throw error(field + ": " + Long.toUnsignedString(n) + " items of at least " + minBytes
                        + " bytes exceed the " + left() + " bytes left in the file");
            }
            return n;
        }

        String string(String field) throws TensorFormatException {
            return string(field, -1);
        }

        /**
         * {@return the string at the cursor: item {@code index} of the array {@code field}, or
         * {@code field} itself when {@code index} is negative} The item's name is made only for a
         * message, so an array of a million strings costs no million names.
         */
        String string(String field, long index) throws TensorFormatException {
            if (left() < 8) {
                need(8, item(field, index) + " length");
            }
            long len = file.get(I64, pos);
            pos += 8;
            reads++;
            if (len < 0 || len > left()) {
                throw error(item(field, index) + " length: " + Long.toUnsignedString(len) + " exceeds the " + left()
                        + " bytes left in the file");
            }
            if (len > Integer.MAX_VALUE - 8) {
                throw error(item(field, index) + " length: " + len + " is longer than a Java string");
            }
            byte[] b = file.asSlice(pos, len).toArray(ValueLayout.JAVA_BYTE);
            reads++;
            try {
                String text = utf8.decode(ByteBuffer.wrap(b)).toString();
                pos += len;
                return text;
            } catch (CharacterCodingException e) {
                TensorFormatException bad = HeaderText.bad(name, item(field, index), "is not valid UTF-8");
                bad.initCause(e);
                throw bad;
            }
        }

        private static String item(String field, long index) {
            return index < 0 ? field : field + "[" + index + "]";
        }

        GgufValueType valueType(String field) throws TensorFormatException {
            long id = Integer.toUnsignedLong(i32(field));
            GgufValueType t = GgufValueType.ofId(id);
            if (t == null) {
                throw error(field + ": unknown value type " + id);
            }
            return t;
        }

        GgufValue value(GgufValueType type, String field, int depth) throws TensorFormatException {
            return switch (type) {
                case UINT8 -> GgufValue.of(type, (long) u8(field));
                case INT8 -> GgufValue.of(type, (long) (byte) u8(field));
                case UINT16 -> GgufValue.of(type, Short.toUnsignedLong(i16(field)));
                case INT16 -> GgufValue.of(type, i16(field));
                case UINT32 -> GgufValue.of(type, Integer.toUnsignedLong(i32(field)));
                case INT32 -> GgufValue.of(type, i32(field));
                case UINT64, INT64 -> GgufValue.of(type, i64(field));
                case FLOAT32 -> GgufValue.float32(Float.intBitsToFloat(i32(field)));
                case FLOAT64 -> GgufValue.float64(Double.longBitsToDouble(i64(field)));
                case BOOL -> GgufValue.bool(bool(field));
                case STRING -> GgufValue.string(string(field));
                case ARRAY -> array(field, depth);
            };
        }

        private int u8(String field) throws TensorFormatException {
            need(1, field);
            reads++;
            return Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, pos++));
        }

        private short i16(String field) throws TensorFormatException {
            need(2, field);
            reads++;
            short v = file.get(I16, pos);
            pos += 2;
            return v;
        }

        private boolean bool(String field) throws TensorFormatException {
            int b = u8(field);
            if (b > 1) {
                throw error(field + ": bool byte " + b + " is neither 0 nor 1");
            }
            return b == 1;
        }

        private GgufValue array(String field, int depth) throws TensorFormatException {
            if (depth > MAX_NESTING) {
                throw error(field + ": arrays nested deeper than " + MAX_NESTING);
            }
            GgufValueType et = valueType(field + " array type");
            long n = count(field + " array length", et.minBytes());
            if (n > Integer.MAX_VALUE - 8) {
                throw error(field + " array length: " + n + " items is more than a Java array holds");
            }
            int len = (int) n;
            long bytes = (long) len * et.minBytes();
            Object values = switch (et) {
                case UINT8, INT8 -> take(ValueLayout.JAVA_BYTE, bytes);
                case UINT16, INT16 -> take(I16, bytes);
                case UINT32, INT32 -> take(I32, bytes);
                case UINT64, INT64 -> take(I64, bytes);
                case FLOAT32 -> take(F32, bytes);
                case FLOAT64 -> take(F64, bytes);
                case BOOL -> {
                    boolean[] b = new boolean[len];
                    for (int i = 0; i < len; i++) {
                        b[i] = bool(field + "[" + i + "]");
                    }
                    yield b;
                }
                case STRING -> {
                    String[] s = new String[len];
                    for (int i = 0; i < len; i++) {
                        s[i] = string(field, i);
                    }
                    yield s;
                }
                case ARRAY -> {
                    GgufValue[] s = new GgufValue[len];
                    for (int i = 0; i < len; i++) {
                        s[i] = array(field + "[" + i + "]", depth + 1);
                    }
                    yield s;
                }
            };
            return GgufValue.array(et, values);
        }

        private Object take(ValueLayout layout, long bytes) {
            MemorySegment s = file.asSlice(pos, bytes);
            pos += bytes;
            reads++;
            return switch (layout) {
                case ValueLayout.OfByte l -> s.toArray(l);
                case ValueLayout.OfShort l -> s.toArray(l);
                case ValueLayout.OfInt l -> s.toArray(l);
                case ValueLayout.OfLong l -> s.toArray(l);
                case ValueLayout.OfFloat l -> s.toArray(l);
                case ValueLayout.OfDouble l -> s.toArray(l);
                default -> throw new AssertionError(layout);
            };
        }
    }
}
