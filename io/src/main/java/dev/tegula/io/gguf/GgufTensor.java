package dev.tegula.io.gguf;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.ThreadAccess;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.vector.quant.Dequantize;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * One tensor of a mapped GGUF file: its header entry and a read-only view of its bytes in the
 * mapping. A plain-typed tensor is an {@link #array()} over those bytes; any tensor whose type Tegula
 * dequantizes is read into an array of any element type and layout by {@link #readInto}, in one
 * pass. Valid while the arena the file was mapped into is open; thread-safe.
 */
public final class GgufTensor {
    private final GgufTensorInfo info;
    private final MemorySegment data;
    private final String file;

    GgufTensor(GgufTensorInfo info, MemorySegment data, String file) {
        this.info = info;
        this.data = data.asReadOnly();
        this.file = file;
    }

    /** {@return its header entry} */
    public GgufTensorInfo info() {
        return info;
    }

    /** {@return its name} */
    public String name() {
        return info.name();
    }

    /** {@return its type} */
    public GgufType type() {
        return info.type();
    }

    /** {@return its dimensions in Tegula's order ({@code ne} reversed; row-major data)} */
    public long[] dimensions() {
        return info.dimensions();
    }

    /** {@return a read-only view of its bytes (for a block type: its blocks, row after row)} */
    public MemorySegment data() {
        return data;
    }

    /**
     * {@return the tensor as a read-only row-major array over the mapping, without a copy}
     *
     * @throws UnsupportedOperationException if its type is block-quantized (use {@link #readInto} or {@link #read})
     */
    public Array array() {
        ElementType et = info.type().elementType();
        if (et == null) {
            throw new UnsupportedOperationException(file + ": tensor '" + HeaderText.shorten(name()) + "' is "
                    + type() + ", block-quantized: dequantize it with read or readInto");
        }
        return Array.wrap(data, ArrayShape.of(et, dimensions()));
    }

    /**
     * Reads the tensor into {@code dst} (its dimensions, any element type and layout), dequantizing
     * block types and converting element types in one pass, on the calling thread.
     *
     * @throws IllegalArgumentException      if {@code dst}'s dimensions differ from the tensor's, or the
     *                                       element types cannot be converted
     * @throws UnsupportedOperationException if the tensor's type is one Tegula does not dequantize
     *                                       (the message names it), or {@code dst} is read-only
     */
    public void readInto(Array dst) {
        readInto(dst, null, 1);
    }

    /**
     * Like {@link #readInto(Array)}, sharing the work between up to {@code parallelism} tasks of
     * {@code executor} when both the mapping's and {@code dst}'s arenas allow other threads.
     */
    public void readInto(Array dst, ExecutorService executor, int parallelism) {
        Objects.requireNonNull(dst, "dst");
        if (!Arrays.equals(dst.shape().dimensions(), dimensions())) {
            throw new IllegalArgumentException("dst: dimensions " + Arrays.toString(dst.shape().dimensions())
                    + " differ from tensor '" + HeaderText.shorten(name()) + "' " + Arrays.toString(dimensions()));
        }
        if (type().elementType() != null) {
            // planned by rule: timing candidate walks on a mapped file would time its reads from disk
            Array src = array();
            Relayout.plan(src, dst).execute(src, dst, executor, parallelism);
            return;
        }
        if (type().quantBlock() == null) {
            throw new UnsupportedOperationException(file + ": tensor '" + HeaderText.shorten(name()) + "' is " + type()
                    + ", which Tegula does not dequantize (it does F32, F16, BF16, F64, I8-I64, Q4_0, Q4_1, Q5_0, Q5_1,"
                    + " Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K)");
        }
        boolean threads = executor != null && parallelism > 1 && ThreadAccess.fromAnyThread(data);
        Dequantize.copy(type().quantBlock(), data, dst, threads ? executor : null, threads ? parallelism : 1);
    }


    /**
     * {@return a new array of {@code target} (the tensor's dimensions, any element type and layout)
     * from {@code arena}, holding the tensor} See {@link #readInto(Array)}.
     */
    public Array read(ArrayShape target, Arena arena) {
        Array out = Array.allocate(arena, target);
        readInto(out);
        return out;
    }

    @Override
    public String toString() {
        return info.toString();
    }
}
