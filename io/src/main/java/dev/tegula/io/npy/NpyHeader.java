package dev.tegula.io.npy;

import static dev.tegula.io.internal.HeaderText.bad;
import static dev.tegula.io.internal.HeaderText.shorten;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.io.internal.PyLiteral;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parsed header of an {@code .npy} file (format versions 1.0, 2.0 and 3.0, NEP 1 /
 * {@code numpy.lib.format}).
 *
 * @param major        the format's major version (1, 2 or 3)
 * @param elementType  the element type {@code descr} names
 * @param byteOrder    the byte order of the data in the file
 * @param fortranOrder true if the data is in column-major (Fortran) order
 * @param dimensions   the shape
 * @param dataOffset   the file offset of the first data byte, in bytes
 * @param dataBytes    the bytes of data the shape needs
 */
public record NpyHeader(int major, ElementType elementType, ByteOrder byteOrder, boolean fortranOrder,
                        long[] dimensions, long dataOffset, long dataBytes) {
    /** The longest header text read (NumPy itself refuses more than 10000 bytes by default). */
    public static final int MAX_HEADER_BYTES = 1 << 20;
    /** The most dimensions accepted (NumPy's own limit is 64). */
    public static final int MAX_RANK = 64;

    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    public NpyHeader {
        dimensions = dimensions.clone();
    }

    /** {@return the shape (a copy)} */
    @Override
    public long[] dimensions() {
        return dimensions.clone();
    }

    /** {@return the shape with the layout the data is in: row-major, or column-major for Fortran order} */
    public ArrayShape shape() {
        ArrayShape s = ArrayShape.of(elementType, dimensions);
        return fortranOrder ? s.withLayout(Layout.columnMajor(dimensions.length)) : s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NpyHeader h && major == h.major && elementType == h.elementType
                && byteOrder.equals(h.byteOrder) && fortranOrder == h.fortranOrder
                && Arrays.equals(dimensions, h.dimensions) && dataOffset == h.dataOffset && dataBytes == h.dataBytes;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dimensions) * 31 + elementType.hashCode();
    }

    @Override
    public String toString() {
        return "NpyHeader[v" + major + ".0, " + shape() + ", " + byteOrder + ", data at " + dataOffset + "]";
    }

    /**
     * {@return the header of the {@code .npy} file whose bytes are {@code file}} Checks that the
     * file holds all the data the shape needs (more is allowed, as NumPy allows it).
     *
     * @param name the file name for messages
     * @throws TensorFormatException for anything the format does not allow, naming field and value
     */
    static NpyHeader parse(MemorySegment file, String name) throws TensorFormatException {
        return parse(file, name, null);
    }

    /**
     * As {@link #parse(MemorySegment, String)}, with {@code voidType} (may be null) the element type of
     * a void dtype ({@code '<V2'}, {@code '<V1'}: what {@code numpy.save} writes for the types of
     * {@code ml_dtypes}, such as {@code bfloat16}), which must have the void's byte width. A plain
     * dtype must then be of that type.
     */
    static NpyHeader parse(MemorySegment file, String name, ElementType voidType) throws TensorFormatException {
        long size = file.byteSize();
        if (size < 10) {
            throw bad(name, "file", "is " + size + " bytes; an .npy file has at least 10");
        }
        byte[] magic = FileMagic.npy();
        for (int i = 0; i < magic.length; i++) {
            if (file.get(ValueLayout.JAVA_BYTE, i) != magic[i]) {
                throw bad(name, "magic", "expected \\x93NUMPY, found " + hex(file, 0, 6));
            }
        }
        int major = Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, 6));
        int minor = Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, 7));
        if (major < 1 || major > 3 || minor != 0) {
            throw bad(name, "version", major + "." + minor + " is not supported (1.0, 2.0, 3.0 are)");
        }
        long headerLength;
        int start;
        if (major == 1) {
            headerLength = Short.toUnsignedInt(file.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8));
            start = 10;
        } else {
            if (size < 12) {
                throw bad(name, "file", "is " + size + " bytes; a version " + major + ".0 file has at least 12");
            }
            headerLength = Integer.toUnsignedLong(file.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8));
            start = 12;
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw bad(name, "header_len", headerLength + " is over the limit of " + MAX_HEADER_BYTES + " bytes");
        }
        if (start + headerLength > size) {
            throw bad(name, "header_len", headerLength + " reaches past the end of the file (" + size + " bytes)");
        }
        byte[] raw = file.asSlice(start, headerLength).toArray(ValueLayout.JAVA_BYTE);
        String text = MappedFiles.decode(raw, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1,
                name, "header");
        Object literal;
        try {
            literal = PyLiteral.parse(text);
        } catch (HeaderText.Malformed e) {
            throw bad(name, "header", "is not a Python literal: " + e.getMessage());
        }
        if (!(literal instanceof Map<?, ?> dict)) {
            throw bad(name, "header", "is not a dict");
        }
        if (!dict.keySet().equals(KEYS)) {
            throw bad(name, "header", "has keys " + dict.keySet() + "; it must have exactly descr, fortran_order, shape");
        }
        if (!(dict.get("descr") instanceof String descr)) {
            Object d = dict.get("descr");
            if (d instanceof List<?> fields) {
                List<String> names = new ArrayList<>();
                for (Object f : fields) {
                    names.add(f instanceof PyLiteral.Tuple t && !t.items().isEmpty() ? python(t.items().getFirst())
                            : python(f));
                }
                throw bad(name, "descr", "is a structured dtype (each element a record of " + fields.size()
                        + (fields.size() == 1 ? " field: " : " fields: ") + shorten(String.join(", ", names))
                        + "); only plain dtypes such as '<f4' are supported");
            }
            throw bad(name, "descr", shorten(python(d)) + " is not a dtype string such as '<f4'");
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw bad(name, "fortran_order", shorten(String.valueOf(dict.get("fortran_order"))) + " is not True or False");
        }
        long[] dims = dimensions(dict.get("shape"), name);
        ElementType type = voidType == null ? elementType(descr, name) : explicitType(descr, voidType, name);
        ByteOrder order = byteOrder(descr);
        long count = 1;
        for (long d : dims) {
            if (d == 0) {
                count = 0;
                break;
            }
        }
        long bytes;
        try {
            for (long d : dims) {
                count = count == 0 ? 0 : Math.multiplyExact(count, d);
            }
            bytes = Math.multiplyExact(count, (long) type.byteWidth());
        } catch (ArithmeticException e) {
            throw bad(name, "shape", tuple(dims) + " has more bytes than a long can count");
        }
        long dataOffset = start + headerLength;
        if (bytes > size - dataOffset) {
            throw bad(name, "data", "is " + (size - dataOffset) + " bytes, but shape " + tuple(dims) + " of " + descr
                    + " needs " + bytes + " (truncated file?)");
        }
        NpyHeader h = new NpyHeader(major, type, order, fortran, dims, dataOffset, bytes);
        try {
            h.shape();   // NumPy accepts dimensions whose product overflows before a zero; Tegula's shape rule does not
        } catch (IllegalArgumentException e) {
            throw bad(name, "shape", tuple(dims) + " is not a valid shape: " + e.getMessage());
        }
        return h;
    }

    private static long[] dimensions(Object shape, String name) throws TensorFormatException {
        if (!(shape instanceof PyLiteral.Tuple(List<Object> items))) {
            throw bad(name, "shape", shorten(String.valueOf(shape)) + " is not a tuple");
        }
        if (items.size() > MAX_RANK) {
            throw bad(name, "shape", "has " + items.size() + " dimensions; at most " + MAX_RANK + " are supported");
        }
        long[] dims = new long[items.size()];
        for (int d = 0; d < dims.length; d++) {
            Object v = items.get(d);
            if (v instanceof BigInteger big) {
                throw bad(name, "shape[" + d + "]", shorten(big.toString()) + " does not fit in a long");
            }
            if (!(v instanceof Long n) || n < 0) {
                throw bad(name, "shape[" + d + "]", shorten(String.valueOf(v)) + " is not a non-negative integer");
            }
            dims[d] = n;
        }
        return dims;
    }

    /** {@return the element type of a NumPy dtype string such as {@code <f4} or {@code |b1}} */
    static ElementType elementType(String descr, String name) throws TensorFormatException {
        String t = descr.isEmpty() || "<>|=".indexOf(descr.charAt(0)) < 0 ? descr : descr.substring(1);
        ElementType e = switch (t) {
            case "b1", "?" -> ElementType.PRED;
            case "i1" -> ElementType.S8;
            case "i2" -> ElementType.S16;
            case "i4" -> ElementType.S32;
            case "i8" -> ElementType.S64;
            case "u1" -> ElementType.U8;
            case "u2" -> ElementType.U16;
            case "u4" -> ElementType.U32;
            case "u8" -> ElementType.U64;
            case "f2" -> ElementType.F16;
            case "f4" -> ElementType.F32;
            case "f8" -> ElementType.F64;
            case "c8" -> ElementType.C64;
            case "c16" -> ElementType.C128;
            default -> null;
        };
        if (e == null) {
            throw bad(name, "descr", "'" + shorten(descr) + "' is not a supported dtype (b1, i1 i2 i4 i8, u1 u2 u4 u8,"
                    + " f2 f4 f8, c8 c16, with < > | or =)" + (voidBytes(descr) > 0 ? "; a void dtype is what numpy.save"
                    + " writes for ml_dtypes' types (bfloat16, float8_*): read it with Npy.read(path, type, arena),"
                    + " naming the element type" : ""));
        }
        return e;
    }

    /** {@return the bytes of a void dtype such as {@code <V2}, or -1 for any other dtype} */
    private static int voidBytes(String descr) {
        String t = descr.isEmpty() || "<>|=".indexOf(descr.charAt(0)) < 0 ? descr : descr.substring(1);
        if (t.length() < 2 || t.length() > 4 || t.charAt(0) != 'V' || !t.substring(1).chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(t.substring(1));
    }

    private static ElementType explicitType(String descr, ElementType type, String name) throws TensorFormatException {
        int bytes = voidBytes(descr);
        if (bytes < 0) {
            ElementType own = elementType(descr, name);
            if (own != type) {
                throw bad(name, "descr", "'" + shorten(descr) + "' is " + own + ", not the " + type + " asked for"
                        + " (an explicit type names the elements of a void dtype such as '<V2')");
            }
            return own;
        }
        if (!type.isArrayType() || type.byteWidth() != bytes) {
            throw bad(name, "descr", "'" + shorten(descr) + "' has " + bytes + "-byte elements, but " + type + " has "
                    + type.byteWidth());
        }
        return type;
    }

    private static ByteOrder byteOrder(String descr) {
        return descr.startsWith(">") ? ByteOrder.BIG_ENDIAN
                : descr.startsWith("<") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.nativeOrder();
    }

    /** {@return the NumPy dtype string for {@code type} in native byte order} */
    static String descr(ElementType type) {
        String o = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? "<" : ">";
        return switch (type) {
            case PRED -> "|b1";
            case S8 -> "|i1";
            case U8 -> "|u1";
            case S16 -> o + "i2";
            case S32 -> o + "i4";
            case S64 -> o + "i8";
            case U16 -> o + "u2";
            case U32 -> o + "u4";
            case U64 -> o + "u8";
            case F16 -> o + "f2";
            case F32 -> o + "f4";
            case F64 -> o + "f8";
            case C64 -> o + "c8";
            case C128 -> o + "c16";
            default -> throw new IllegalArgumentException("elementType: " + type + " has no .npy dtype (supported: pred, "
                    + "s8..s64, u8..u64, f16, f32, f64, c64, c128)");
        };
    }

    /** {@return Python's {@code repr} of a tuple of ints: {@code ()}, {@code (3,)}, {@code (2, 3)}} */
    static String tuple(long[] dims) {
        if (dims.length == 1) {
            return "(" + dims[0] + ",)";
        }
        StringBuilder b = new StringBuilder("(");
        for (int d = 0; d < dims.length; d++) {
            b.append(d == 0 ? "" : ", ").append(dims[d]);
        }
        return b.append(')').toString();
    }

    private static String hex(MemorySegment s, long from, long n) {
        StringBuilder b = new StringBuilder();
        for (long i = from; i < Math.min(s.byteSize(), from + n); i++) {
            b.append(String.format("%02x", s.get(ValueLayout.JAVA_BYTE, i)));
        }
        return "0x" + b;
    }

    /** {@return a parsed literal written back the way Python prints it, e.g. {@code ('a', '<f4')}} */
    private static String python(Object o) {
        return switch (o) {
            case null -> "None";
            case String str -> "'" + str + "'";
            case Boolean b -> b ? "True" : "False";
            case PyLiteral.Tuple t -> {
                List<String> items = new ArrayList<>();
                for (Object x : t.items()) {
                    items.add(python(x));
                }
                yield "(" + String.join(", ", items) + (items.size() == 1 ? ",)" : ")");
            }
            case List<?> l -> {
                List<String> items = new ArrayList<>();
                for (Object x : l) {
                    items.add(python(x));
                }
                yield "[" + String.join(", ", items) + "]";
            }
            case Map<?, ?> m -> {
                List<String> items = new ArrayList<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    items.add(python(e.getKey()) + ": " + python(e.getValue()));
                }
                yield "{" + String.join(", ", items) + "}";
            }
            default -> String.valueOf(o);
        };
    }
}
