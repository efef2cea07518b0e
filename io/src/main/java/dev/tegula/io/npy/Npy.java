package dev.tegula.io.npy;

import dev.tegula.vector.Relayout;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.internal.AtomicFile;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * NumPy {@code .npy} files (format versions 1.0, 2.0 and 3.0): read zero-copy from a mapping,
 * written the way {@code numpy.save} writes them.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     Array a = Npy.read(Path.of("weights.npy"), arena);   // mapped, no copy
 *     Npy.write(a, Path.of("copy.npy"));
 * }
 * }
 *
 * <h2>Reading</h2>
 * The file is mapped read-only into the caller's arena ({@code FileChannel.map}). Data in native
 * byte order (and one-byte types in any order) is wrapped where it lies: the array is a
 * <b>read-only</b> view of the mapping, valid while the arena is open; {@code fortran_order: True}
 * gives the column-major layout, still without a copy. Data in the other byte order
 * ({@code >f4} on a little-endian machine) is converted while it is copied into a new, writable
 * array allocated from the arena. dtypes: {@code b1}, {@code i1}..{@code i8}, {@code u1}..{@code u8},
 * {@code f2}, {@code f4}, {@code f8}, {@code c8}, {@code c16}.
 *
 * <h2>Writing</h2>
 * The header is {@code numpy.save}'s, byte for byte: the dict with sorted keys, 21 minus the digits
 * of the growth axis spaces of room, padded with spaces and a newline so that the data starts at a
 * multiple of {@value #ALIGNMENT} bytes; version 1.0 unless the header needs more than 65535
 * bytes. A row-major dense array is written in C order and a column-major dense one in Fortran
 * order, straight from its segment; anything else (tiled, strided, other permutations, packed)
 * is first copied into a row-major array.
 *
 * <h2>Errors</h2>
 * A file that breaks the format throws {@link TensorFormatException} naming the file, the field and
 * the value; nothing is read past the mapping, and no allocation is sized by an unchecked length.
 */
public final class Npy {
    /** Data starts at a multiple of this many bytes in files Tegula (and NumPy) writes. */
    public static final int ALIGNMENT = 64;
    /** Spaces of room NumPy leaves after the header for the growth axis's digits. */
    static final int GROWTH_AXIS_MAX_DIGITS = 21;

    private Npy() {
    }

    /**
     * {@return the array stored in the {@code .npy} file at {@code path}}, mapped from the file
     * (read-only) when it is in native byte order, else converted into a new array from {@code arena}.
     *
     * @throws TensorFormatException if the file is not a valid {@code .npy} file of a supported dtype
     * @throws IOException           if the file cannot be read
     */
    public static Array read(Path path, Arena arena) throws IOException {
        return read(path, null, arena);
    }

    /**
     * {@return the array stored in the {@code .npy} file at {@code path}, its elements of {@code type}}
     * For files whose dtype NumPy itself cannot name: {@code numpy.save} writes an array of a type from
     * {@code ml_dtypes} (bfloat16, the float8 types, int4, ...) with a void dtype of the element's
     * width ({@code '<V2'} for bfloat16, {@code '<V1'} for the float8 types), and
     * {@code type} says what those bytes are (a 2-byte void read as {@link ElementType#BF16}, multi-byte
     * elements in the descr's byte order). For a file with a plain dtype {@code type} must be that dtype's
     * type, or null ({@link #read(Path, Arena)}). Mapped or converted as {@link #read(Path, Arena)}.
     *
     * {@snippet :
     * // x = np.arange(6, dtype=ml_dtypes.bfloat16).reshape(2, 3); np.save("x.npy", x)   # descr '<V2'
     * Array x = Npy.read(Path.of("x.npy"), ElementType.BF16, arena);
     * }
     *
     * @param type the element type of a void dtype, of the same byte width; or null
     * @throws TensorFormatException if the file is not a valid {@code .npy} file, its void dtype has another
     *                               width than {@code type}, or its plain dtype is not {@code type}
     * @throws IOException           if the file cannot be read
     */
    public static Array read(Path path, ElementType type, Arena arena) throws IOException {
        Objects.requireNonNull(arena, "arena");
        MemorySegment file = MappedFiles.map(path, arena);
        NpyHeader h = NpyHeader.parse(file, path.toString(), type);
        MemorySegment data = file.asSlice(h.dataOffset(), h.dataBytes());
        ArrayShape shape = h.shape();
        int width = h.elementType().byteWidth();
        if (width == 1 || h.byteOrder().equals(ByteOrder.nativeOrder())) {
            return Array.wrap(data, shape);
        }
        Array out = Array.allocate(arena, shape);
        int part = h.elementType().isComplex() ? width / 2 : width;
        ValueLayout from = switch (part) {
            case 2 -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case 4 -> ValueLayout.JAVA_INT_UNALIGNED;
            default -> ValueLayout.JAVA_LONG_UNALIGNED;
        };
        MemorySegment.copy(data, from.withOrder(h.byteOrder()), 0, out.segment(), from.withOrder(ByteOrder.nativeOrder()),
                0, h.dataBytes() / part);
        return out;
    }

    /**
     * {@return the header of the {@code .npy} file at {@code path}} (the file is mapped only while it is read)
     *
     * @throws TensorFormatException if the file is not a valid {@code .npy} file
     */
    public static NpyHeader readHeader(Path path) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return NpyHeader.parse(MappedFiles.map(path, arena), path.toString());
        }
    }

    /**
     * Writes {@code array} to {@code path} as {@code numpy.save} would (oldest format version that fits).
     * The file is written whole or not at all: the bytes go to a temporary file in the same
     * directory, which is forced to disk and renamed over {@code path}; on any failure the
     * temporary is deleted and an existing file at {@code path} is left as it was.
     *
     * @throws IllegalArgumentException if the element type has no {@code .npy} dtype (bf16, fp8, sub-byte, ...)
     * @throws IllegalStateException    if the array is not host-accessible
     */
    public static void write(Array array, Path path) throws IOException {
        write(array, path, 0);
    }

    /**
     * Writes {@code array} to {@code path} in format version {@code major}.0 (1, 2 or 3; 0 chooses
     * as NumPy does: 1.0 unless the header is too long for it). Whole or not at all, as {@link #write(Array, Path)}.
     *
     * @throws IllegalArgumentException if the version is not 0..3, version 1.0 cannot hold the header,
     *                                  or the element type has no {@code .npy} dtype
     */
    public static void write(Array array, Path path, int major) throws IOException {
        Objects.requireNonNull(array, "array");
        if (major < 0 || major > 3) {
            throw new IllegalArgumentException("major: version " + major + ".0 does not exist (1, 2, 3; 0 = oldest that fits)");
        }
        ArrayShape shape = array.shape();
        String descr = NpyHeader.descr(shape.elementType());
        if (!array.isHostAccessible()) {
            throw new IllegalStateException("array: " + shape + " is not in host memory; copy it to host memory first");
        }
        long[] dims = shape.dimensions();
        try (Arena scratch = Arena.ofConfined()) {
            Array source = array;
            boolean fortran = false;
            int rank = shape.rank();
            boolean byteSlots = shape.slotBits() == 8L * shape.elementType().byteWidth();
            if (!(byteSlots && array.isDenseIn(Layout.rowMajor(rank)))) {
                if (byteSlots && array.isDenseIn(Layout.columnMajor(rank))) {
                    fortran = true;
                } else {
                    source = Array.allocate(scratch, ArrayShape.of(shape.elementType(), dims));
                    Relayout.copy(array, source);
                }
            }
            byte[] header = header(descr, fortran, dims, major);
            long bytes = Math.multiplyExact(shape.elementCount(), (long) shape.elementType().byteWidth());
            MemorySegment data = source.segment().asSlice(0, bytes);
            try (AtomicFile out = AtomicFile.create(path)) {
                try {
                    MappedFiles.writeFully(out.channel(), header);
                    MappedFiles.writeFully(out.channel(), data);
                } catch (IOException e) {
                    throw out.named(e);   // a full disk names the file, not its temporary
                }
                out.commit();
            }
        }
    }

    /**
     * {@return the bytes {@code numpy.save} writes before the data of an array of {@code shape}:
     * magic, version (1.0, or 2.0 when 1.0 cannot hold the header), header length and the padded
     * header dict} The data follows them: {@code shape.byteSize()} bytes in native byte order, in
     * C order for a row-major layout and Fortran order for a column-major one. A file can so be
     * written without {@link #write}, for example through a mapping.
     *
     * @throws IllegalArgumentException if the layout is tiled, padded, packed, in another memory
     *                                  space or neither row- nor column-major, or the element type
     *                                  has no {@code .npy} dtype
     */
    public static byte[] header(ArrayShape shape) {
        Layout l = shape.layout();
        boolean plain = !l.isTiled() && !l.hasPaddedDimensions() && l.elementSizeInBits() == 0 && l.memorySpace() == 0;
        boolean fortran = shape.rank() > 1 && l.isColumnMajor();
        if (!plain || !(fortran || l.isRowMajor())) {
            throw new IllegalArgumentException("layout: " + l + " cannot be an .npy file, which holds only row-major (C)"
                    + " or column-major (Fortran) data");
        }
        return header(NpyHeader.descr(shape.elementType()), fortran, shape.dimensions(), 0);
    }

    /** {@return the magic, version, length and padded header text numpy.save writes for this array} */
    private static byte[] header(String descr, boolean fortran, long[] dims, int major) {
        StringBuilder dict = new StringBuilder("{'descr': '").append(descr).append("', 'fortran_order': ")
                .append(fortran ? "True" : "False").append(", 'shape': ").append(NpyHeader.tuple(dims)).append(", }");
        if (dims.length > 0) {
            long growth = dims[fortran ? dims.length - 1 : 0];
            dict.append(" ".repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - Long.toString(growth).length())));
        }
        byte[] text = dict.toString().getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int v = major == 0 ? 1 : major;
        byte[] out = wrap(text, v);
        if (out == null && major == 0) {
            out = wrap(text, 2);
        }
        if (out == null) {
            throw new IllegalArgumentException("major: the header of " + NpyHeader.tuple(dims) + " needs more than 65535"
                    + " bytes, which version 1.0 cannot hold");
        }
        return out;
    }

    /** NumPy's {@code _wrap_header}: pad with spaces and a newline to a multiple of 64 (a full 64 when already aligned). */
    private static byte[] wrap(byte[] text, int major) {
        byte[] magic = FileMagic.npy();
        int prefix = magic.length + 2 + (major == 1 ? 2 : 4);
        long hlen = text.length + 1L;
        long pad = ALIGNMENT - (prefix + hlen) % ALIGNMENT;
        long total = hlen + pad;
        if (major == 1 && total > 0xFFFF) {
            return null;
        }
        byte[] out = new byte[Math.toIntExact(prefix + total)];
        System.arraycopy(magic, 0, out, 0, magic.length);
        out[6] = (byte) major;
        out[7] = 0;
        for (int i = 0; i < prefix - 8; i++) {
            out[8 + i] = (byte) (total >>> (8 * i));
        }
        System.arraycopy(text, 0, out, prefix, text.length);
        Arrays.fill(out, prefix + text.length, out.length - 1, (byte) ' ');
        out[out.length - 1] = '\n';
        return out;
    }

    /** {@return true if {@code type} can be stored in an {@code .npy} file} */
    public static boolean supports(ElementType type) {
        try {
            NpyHeader.descr(type);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
