package dev.tegula.io.gguf;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.codec.Float16;
import dev.tegula.ffm.internal.LongMath;
import dev.tegula.io.F16Overflow;
import dev.tegula.io.F16OverflowException;
import dev.tegula.io.internal.AtomicFile;
import dev.tegula.io.internal.F16OverflowCheck;
import dev.tegula.io.internal.FileMagic;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.vector.quant.QuantBlock;
import dev.tegula.vector.quant.Quantize;
import dev.tegula.vector.Relayout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.Set;

/**
 * Builds a GGUF file: metadata key-value pairs and tensors, in the order given, then
 * {@link #write(Path)} writes the file whole or not at all (a temporary file forced to disk and
 * renamed over the target).
 *
 * {@snippet :
 * Gguf.writer()
 *     .put("general.architecture", GgufValue.string("llama"))
 *     .tensor("output_norm.weight", norm)                      // F32, as the array is
 *     .tensor("blk.0.attn_q.weight", wq, GgufType.Q8_0)       // quantized while written
 *     .write(Path.of("model.gguf"));
 * }
 *
 * <p>Tensors are written row-major with dimensions reversed into {@code ne} (see {@link Gguf}), at
 * offsets aligned to {@code general.alignment} (32 unless set). Plain types are written as the
 * array's element type (F32, F16, BF16, F64, S8-S64 as I8-I64), or a float array as another float
 * type (F32, F16, BF16, F64; rounded to nearest even); Q8_0 and Q4_0 quantize an array of any float
 * type (through f32) exactly as llama.cpp's {@code gguf.quants} does. The arrays are read when
 * {@link #write} runs; their arenas must be open then. Not thread-safe.
 *
 * <h2>Values too large for f16</h2>
 * A float array written as F16 can hold finite values that f16 cannot (magnitude 65520 or more),
 * and a Q8_0 or Q4_0 block can need an f16 scale that large (a largest magnitude of about 8.3
 * million for Q8_0, 524160 for Q4_0). {@link #f16Overflow} says what happens: by default
 * ({@link F16Overflow#REFUSE}) {@link #write} throws an {@link F16OverflowException} naming the
 * tensor, the element and its value, and the target is left as it was; {@link F16Overflow#SATURATE}
 * writes 65504 of the value's sign (for a quantized block: its values are clamped to the largest the
 * block's encoding holds, 127 or 8 times 65504, before quantizing); {@link F16Overflow#INFINITY}
 * writes infinity, as IEEE rounding and {@code gguf.quants} do. An infinity in the array is written
 * as it is under every rule (llama.cpp's data checks refuse an F16 tensor or a block scale holding
 * an infinity or a NaN, whatever its origin).
 */
public final class GgufWriter {
    private final SequencedMap<String, GgufValue> metadata = new LinkedHashMap<>();
    private final List<Entry> tensors = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private int version = 3;
    private F16Overflow f16Overflow = F16Overflow.REFUSE;

    private record Entry(String name, Array array, GgufType type) {
    }

    GgufWriter() {
    }

    /**
     * Sets the format version (3 unless set).
     *
     * @throws IllegalArgumentException if it is neither 2 nor 3
     */
    public GgufWriter version(int v) {
        if (v != 2 && v != 3) {
            throw new IllegalArgumentException("version: " + v + " (Tegula writes GGUF 2 and 3)");
        }
        version = v;
        return this;
    }

    /**
     * Sets what a value too large for f16 does when a tensor is written as F16 or quantized to
     * Q8_0/Q4_0 ({@link F16Overflow#REFUSE} unless set; see the class comment).
     */
    public GgufWriter f16Overflow(F16Overflow rule) {
        f16Overflow = Objects.requireNonNull(rule, "rule");
        return this;
    }

    /**
     * Adds (or replaces) a metadata pair.
     *
     * @throws IllegalArgumentException if {@code key} is {@code general.alignment} and the value is not a
     *                                  UINT32 power of two
     */
    public GgufWriter put(String key, GgufValue value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (key.equals("general.alignment") && (value.type() != GgufValueType.UINT32 || value.asLong() == 0
                || (value.asLong() & (value.asLong() - 1)) != 0)) {
            throw new IllegalArgumentException("general.alignment: " + value + " is not a UINT32 power of two");
        }
        metadata.put(key, value);
        return this;
    }

    /**
     * Adds a tensor of the array's own element type.
     *
     * @throws IllegalArgumentException if the element type has no GGUF type, or the name is taken
     */
    public GgufWriter tensor(String name, Array array) {
        GgufType t = GgufType.of(array.shape().elementType());
        if (t == null) {
            throw new IllegalArgumentException("tensor '" + name + "': element type " + array.shape().elementType()
                    + " has no GGUF type (f32, f16, bf16, f64, s8, s16, s32, s64 have)");
        }
        return tensor(name, array, t);
    }

    /**
     * Adds a tensor written as {@code type}: the array's own plain type, another float type for a float
     * array (F32, F16, BF16 or F64, rounded to nearest even; F16 follows {@link #f16Overflow}), or
     * Q8_0 / Q4_0 (quantized from an array of a float type).
     *
     * @throws IllegalArgumentException if the name is taken, {@code type} is none of those, or the array's
     *                                  last dimension is not a multiple of 32 for Q8_0/Q4_0
     */
    public GgufWriter tensor(String name, Array array, GgufType type) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(array, "array");
        Objects.requireNonNull(type, "type");
        ArrayShape s = array.shape();
        if (type == GgufType.Q8_0 || type == GgufType.Q4_0) {
            long[] d = s.dimensions();
            if (!s.elementType().isFloating() || d.length == 0 || d[d.length - 1] % 32 != 0) {
                throw new IllegalArgumentException("tensor '" + name + "': " + type + " quantizes a float array whose"
                        + " last dimension is a multiple of 32, not " + s);
            }
        } else if (type.elementType() != s.elementType() && !(isFloat(s.elementType()) && isFloat(type.elementType()))) {
            throw new IllegalArgumentException("tensor '" + name + "': type " + type + " for an array of "
                    + s.elementType() + " (Tegula writes an array as its own type, a float array as F32, F16, BF16"
                    + " or F64, Q8_0 or Q4_0)");
        }
        if (s.rank() > GgufHeader.MAX_DIMS) {
            throw new IllegalArgumentException("tensor '" + name + "': rank " + s.rank() + " exceeds " + GgufHeader.MAX_DIMS);
        }
        if (!names.add(name)) {
            throw new IllegalArgumentException("tensor '" + name + "': name already added");
        }
        tensors.add(new Entry(name, array, type));
        return this;
    }

    /**
     * Writes the file to {@code path}, replacing it; on any failure the target is left as it was.
     *
     * @throws IOException if the file cannot be written
     */
    public void write(Path path) throws IOException {
        long alignment = metadata.containsKey("general.alignment") ? metadata.get("general.alignment").asLong()
                : GgufHeader.DEFAULT_ALIGNMENT;
        Out h = new Out();
        h.i32(FileMagic.GGUF).i32(version).i64(tensors.size()).i64(metadata.size());
        for (var e : metadata.entrySet()) {
            h.string(e.getKey()).i32(e.getValue().type().id());
            h.value(e.getValue());
        }
        long offset = 0;
        long[] offsets = new long[tensors.size()];
        for (int i = 0; i < tensors.size(); i++) {
            Entry t = tensors.get(i);
            long[] dims = t.array.shape().dimensions();
            h.string(t.name).i32(dims.length);
            for (int d = dims.length - 1; d >= 0; d--) {
                h.i64(dims[d]);
            }
            h.i32(t.type.id());
            offset = LongMath.roundUp(offset, alignment);
            offsets[i] = offset;
            h.i64(offset);
            offset = Math.addExact(offset, byteSize(t));
        }
        byte[] header = h.bytes();
        long dataOffset = LongMath.roundUp(header.length, alignment);
        try (AtomicFile out = AtomicFile.create(path)) {
            FileChannel ch = out.channel();
            try {
                MappedFiles.writeFully(ch, header);
                MappedFiles.writeFully(ch, new byte[(int) (dataOffset - header.length)]);
                long at = 0;
                for (int i = 0; i < tensors.size(); i++) {
                    MappedFiles.writeFully(ch, new byte[(int) (offsets[i] - at)]);
                    writeData(ch, tensors.get(i));
                    at = offsets[i] + byteSize(tensors.get(i));
                }
            } catch (IOException e) {
                throw out.named(e);   // a full disk names the file, not its temporary
            }
            out.commit();
        }
    }

    /** {@return whether a tensor of {@code t} may be written as another of the float types GGUF has} */
    private static boolean isFloat(ElementType t) {
        return t == ElementType.F32 || t == ElementType.F16 || t == ElementType.BF16 || t == ElementType.F64;
    }

    private static long byteSize(Entry t) {
        long n = t.array.shape().elementCount();
        return Math.multiplyExact(n / t.type.blockSize(), (long) t.type.blockBytes());
    }

    private void writeData(FileChannel ch, Entry t) throws IOException {
        ArrayShape s = t.array.shape();
        try (Arena arena = Arena.ofConfined()) {
            if (t.type.quantBlock() == null) {
                ArrayShape rowMajor = ArrayShape.of(t.type.elementType(), s.dimensions());
                Array a = t.array;
                if (s.elementType() != rowMajor.elementType()) {
                    a = Array.allocate(arena, rowMajor);
                    Relayout.plan(t.array, a).execute(t.array, a);
                    F16OverflowCheck f16 = F16OverflowCheck.of(t.name, s.elementType(), a, t.array::getDouble, f16Overflow);
                    if (f16 != null) {
                        f16.checkAll();
                    }
                } else if (!a.isDenseIn(rowMajor.layout())) {
                    a = Relayout.to(t.array, rowMajor, arena);
                }
                MappedFiles.writeFully(ch, a.segment().asSlice(0, rowMajor.bufferSize()));
                return;
            }
            QuantBlock q = t.type.quantBlock();
            ArrayShape f32 = ArrayShape.of(ElementType.F32, s.dimensions());
            Array floats = Relayout.to(t.array, f32, arena);
            long blocks = s.elementCount() / 32;
            long step = 8192;   // blocks per write: 1 MiB of f32 in, at most 272 KiB out
            MemorySegment buf = arena.allocate(step * q.blockBytes());
            for (long b = 0; b < blocks; b += step) {
                long n = Math.min(step, blocks - b);
                Quantize.fromFloats(q, floats.segment(), b * 128, buf, 0, n);
                for (long k = 0; k < n; k++) {
                    checkScale(t, q, floats, b + k, buf, k * q.blockBytes());
                }
                MappedFiles.writeFully(ch, buf.asSlice(0, n * q.blockBytes()));
            }
        }
    }

    /**
     * Applies {@link #f16Overflow} to block {@code block} of a Q8_0/Q4_0 tensor, quantized at
     * {@code buf[at]} from {@code floats} (f32 row-major, the writer's own copy): a scale that became
     * infinite although every value of the block is finite is refused, or (saturating) the block's
     * values are clamped to the largest its encoding holds and the block quantized again.
     */
    private void checkScale(Entry t, QuantBlock q, Array floats, long block, MemorySegment buf, long at) {
        if ((buf.get(ValueLayout.JAVA_SHORT_UNALIGNED, at) & 0x7FFF) != 0x7C00 || f16Overflow == F16Overflow.INFINITY) {
            return;
        }
        MemorySegment x = floats.segment().asSlice(block * 128, 128);
        int largest = 0;
        for (int i = 0; i < 32; i++) {
            float v = x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            if (Float.isInfinite(v)) {
                return;   // an infinity in the data: its infinite scale is data too
            }
            if (Math.abs(v) > Math.abs(x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, largest))) {
                largest = i;
            }
        }
        if (f16Overflow == F16Overflow.REFUSE) {
            float v = x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, largest);
            throw new F16OverflowException(t.name, floats.shape().multiIndex(block * 32 + largest), v,
                    "the f16 scale of its " + q + " block (" + (q == QuantBlock.Q8_0 ? "largest magnitude / 127"
                            : "value of largest magnitude / -8") + ")");
        }
        // the largest magnitude whose scale is 65504: 127 quants of it (Q8_0), or 8 (Q4_0)
        float limit = Float16.toFloat(Float16.MAX_VALUE) * (q == QuantBlock.Q8_0 ? 127 : 8);
        for (int i = 0; i < 32; i++) {
            float v = x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, Math.max(-limit, Math.min(limit, v)));
        }
        Quantize.fromFloats(q, x, 0, buf, at, 1);
    }

    /** A growing little-endian byte buffer for the header. */
    private static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

        Out i8(int v) {
            bytes.write(v);
            return this;
        }

        Out i16(int v) {
            scratch.clear();
            bytes.write(scratch.putShort((short) v).array(), 0, 2);
            return this;
        }

        Out i32(int v) {
            scratch.clear();
            bytes.write(scratch.putInt(v).array(), 0, 4);
            return this;
        }

        Out i64(long v) {
            scratch.clear();
            bytes.write(scratch.putLong(v).array(), 0, 8);
            return this;
        }

        Out string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            i64(b.length);
            bytes.writeBytes(b);
            return this;
        }

        void value(GgufValue v) {
            Object x = v.value();
            switch (v.type()) {
                case UINT8, INT8, BOOL -> i8(x instanceof Boolean b ? (b ? 1 : 0) : (int) (long) (Long) x);
                case UINT16, INT16 -> i16((int) (long) (Long) x);
                case UINT32, INT32 -> i32((int) (long) (Long) x);
                case UINT64, INT64 -> i64((Long) x);
                case FLOAT32 -> i32(Float.floatToRawIntBits((Float) x));
                case FLOAT64 -> i64(Double.doubleToRawLongBits((Double) x));
                case STRING -> string((String) x);
                case ARRAY -> array(v.elementType(), x);
            }
        }

        private void array(GgufValueType et, Object x) {
            i32(et.id());
            int n = java.lang.reflect.Array.getLength(x);
            i64(n);
            switch (x) {
                case byte[] a -> bytes.writeBytes(a);
                case short[] a -> { for (short e : a) { i16(e); } }
                case int[] a -> { for (int e : a) { i32(e); } }
                case long[] a -> { for (long e : a) { i64(e); } }
                case float[] a -> { for (float e : a) { i32(Float.floatToRawIntBits(e)); } }
                case double[] a -> { for (double e : a) { i64(Double.doubleToRawLongBits(e)); } }
                case boolean[] a -> { for (boolean e : a) { i8(e ? 1 : 0); } }
                case String[] a -> { for (String e : a) { string(e); } }
                case GgufValue[] a -> { for (GgufValue e : a) { array(e.elementType(), e.value()); } }
                default -> throw new AssertionError(x.getClass());
            }
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
