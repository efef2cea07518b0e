package dev.tegula.vector.quant;

import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.kernels.VectorApi;
import dev.tegula.vector.plan.Tasks;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.Tile;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.internal.LongMath;
import dev.tegula.ffm.internal.ThreadAccess;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Dequantization of {@link QuantBlock} data (llama.cpp's block-quantized weights) fused with the
 * relayout engine: blocks go to any element type and any layout in one pass over the blocks.
 *
 * {@snippet :
 * // rows x cols Q4_K blocks (row-major, cols a multiple of 256) into a tiled bf16 array
 * Array w = Array.allocate(arena, ArrayShape.parse("bf16[4096,4096]{0,1:T(8,128)(2,1)}"));
 * Dequantize.copy(QuantBlock.Q4_K, blocks, w);
 * }
 *
 * <p>The kernels use the Vector API: a JVM started on the class path without
 * {@code --add-modules jdk.incubator.vector} gets a {@link NoClassDefFoundError} that names the flag
 * (see {@link Relayout}).
 *
 * <h2>Source</h2>
 * The source holds the tensor's elements in row-major order of the destination's dimensions,
 * encoded as whole blocks: the last dimension is a multiple of the block size, and each row of it
 * is {@code cols / blockSize} consecutive blocks (this is how GGUF stores a tensor, its {@code ne[0]}
 * being Tegula's last dimension).
 *
 * <h2>How one pass is made</h2>
 * An f32 row-major destination is written directly by the kernels. For any other destination the
 * tensor is cut along the dimension that is major-most in the destination's layout, in chunks that
 * cover whole tiles, so each chunk is one contiguous run of the destination's buffer laid out exactly
 * as the destination's layout over the chunk's dimensions. Each chunk's blocks are dequantized into a
 * small f32 scratch (a few hundred KiB, cache-resident) and moved into place by a {@link RelayoutPlan},
 * which converts the element type and writes padding. A layout that cannot be cut that way (packed
 * sub-byte elements, legacy padded dimensions, strided views) is dequantized whole into an f32
 * scratch array and then relaid (two passes, same values).
 *
 * <h2>Values</h2>
 * The f32 values equal those of the reference implementation ({@code gguf.quants} in llama.cpp's
 * {@code gguf-py}) bit for bit; conversion to the destination's type then rounds as
 * {@link Relayout#copy} does (to nearest even). A block whose f16 scale or minimum is NaN or
 * infinite gives what IEEE f32 arithmetic gives, in the definition's order, except that every
 * element whose value is NaN is the quiet NaN {@code 0x7FC00000} (bf16 {@code 0x7FC0}), whichever
 * operands were NaN and whatever their signs and payloads: the same input gives the same bits on
 * every run, path, thread count and vector width. (ggml's NaN bits depend on the operand order its
 * compiler chose; which NaN a Java f32 operation on two NaNs returns is unspecified.)
 *
 * <h2>Threads</h2>
 * Stateless and thread-safe. The {@code executor} variants share chunks between up to
 * {@code parallelism} tasks when the source's and the destination's arenas allow other threads
 * (shared or global arenas); otherwise they run on the calling thread. The source must stay mapped (its arena open)
 * until the call returns.
 */
public final class Dequantize {
    /** Scratch bytes a chunk aims at (f32), small enough to stay in the core's L2 cache. */
    private static final long SCRATCH_BYTES = 256 * 1024;

    private Dequantize() {
    }

    /**
     * Dequantizes {@code blocks} consecutive blocks at {@code src[srcOffset]} into
     * {@code blocks * q.blockSize()} little-endian f32 values at {@code dst[dstOffset]} (Vector API kernel).
     *
     * @throws IndexOutOfBoundsException     if either range is outside its segment
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public static void toFloats(QuantBlock q, MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
                                long blocks) {
        Objects.requireNonNull(q, "q");
        Objects.checkFromIndexSize(srcOffset, Math.multiplyExact(blocks, (long) q.blockBytes()), src.byteSize());
        Objects.checkFromIndexSize(dstOffset, Math.multiplyExact(blocks, 4L * q.blockSize()), dst.byteSize());
        VectorApi.require();
        DequantizeKernels.run(q, src, srcOffset, dst, dstOffset, blocks);
    }

    /**
     * Dequantizes the tensor whose blocks are {@code src} into {@code dst} (its dimensions, element
     * type and layout), on the calling thread.
     *
     * @throws IllegalArgumentException      if the last dimension is not a multiple of the block size,
     *                                       {@code src} is shorter than the tensor's blocks, or f32
     *                                       cannot be converted to {@code dst}'s element type
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    public static void copy(QuantBlock q, MemorySegment src, Array dst) {
        copy(q, src, dst, null, 1);
    }

    /**
     * Like {@link #copy(QuantBlock, MemorySegment, Array)}, sharing the work between up to
     * {@code parallelism} tasks of {@code executor} when the arenas of {@code src} and {@code dst}
     * allow other threads (otherwise on the calling thread).
     */
    public static void copy(QuantBlock q, MemorySegment src, Array dst, ExecutorService executor, int parallelism) {
        VectorApi.require();
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst is read-only");
        }
        ArrayShape shape = dst.shape();
        long[] dims = shape.dimensions();
        if (dims.length == 0) {
            throw new IllegalArgumentException("dst: a quantized tensor has at least one dimension, got " + shape);
        }
        long cols = dims[dims.length - 1];
        long elements = shape.elementCount();
        if (cols % q.blockSize() != 0) {
            throw new IllegalArgumentException("dst: last dimension " + cols + " of " + shape
                    + " is not a multiple of " + q + "'s block size " + q.blockSize());
        }
        long need = q.byteSize(elements);
        if (src.byteSize() < need) {
            throw new IllegalArgumentException("src: " + src.byteSize() + " bytes, the " + q + " blocks of " + shape
                    + " need " + need);
        }
        if (elements == 0) {
            return;
        }
        int tasks = executor == null || parallelism <= 1 || !ThreadAccess.fromAnyThread(dst.segment())
                || !ThreadAccess.fromAnyThread(src) ? 1 : parallelism;
        long rows = elements / cols;
        long blocksPerRow = cols / q.blockSize();
        ArrayShape f32 = ArrayShape.of(ElementType.F32, dims);
        if (shape.equals(f32) && dst.isDense()) {
            Tasks.forEachChunk(executor, tasks, rows, 1, (from, to) -> toFloats(q, src, from * blocksPerRow * q.blockBytes(),
                    dst.segment(), from * cols * 4, (to - from) * blocksPerRow), src, dst.segment());
            return;
        }
        if (shape.equals(ArrayShape.of(ElementType.BF16, dims)) && dst.isDense()) {
            Tasks.forEachChunk(executor, tasks, rows, 1, (from, to) -> bf16Rows(q, src, dst.segment(), cols, from, to),
                    src, dst.segment());
            return;
        }
        if (dims.length == 2 && shape.equals(ArrayShape.of(ElementType.BF16, dims).withLayout(BF16_T8X128_2X1))
                && dims[0] % 8 == 0 && cols % 128 == 0 && cols <= DequantizeKernels.MAX_TILE_ROW_COLS
                && dst.isDense()) {
            Tasks.forEachChunk(executor, tasks, dims[0] / 8, 1, (from, to) -> bf16Tiles(q, src, dst.segment(), cols, from, to),
                    src, dst.segment());
            return;
        }
        Chunks chunks = dst.isDense() ? Chunks.of(q, shape) : null;
        if (chunks == null) {
            try (Arena scratch = Arena.ofConfined()) {
                Array all = Array.allocate(scratch, f32);
                toFloats(q, src, 0, all.segment(), 0, elements / q.blockSize());
                Relayout.copy(all, dst);
            }
            return;
        }
        Tasks.forEachChunk(executor, tasks, chunks.count(), 1, (from, to) -> chunks.execute(q, src, dst.segment(), from, to),
                src, dst.segment());
    }

    /** {@code {1,0:T(8,128)(2,1)}}, the TPU layout of bf16 matrices, written by {@link #bf16Tiles}. */
    private static final Layout BF16_T8X128_2X1 = Layout.of(1, 0).withTiles(Tile.of(8, 128), Tile.of(2, 1));

    /** Rows {@code [from, to)} into a bf16 row-major destination: each row to f32 in a cache-resident buffer, then rounded into place. */
    private static void bf16Rows(QuantBlock q, MemorySegment src, MemorySegment dst, long cols, long from, long to) {
        long rowBytes = cols / q.blockSize() * q.blockBytes();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment row = arena.allocate(cols * 4, 64);
            for (long r = from; r < to; r++) {
                DequantizeKernels.run(q, src, r * rowBytes, row, 0, cols / q.blockSize());
                DequantizeKernels.convert(row, ElementType.BF16, 16, dst, r * cols, cols);
            }
        }
    }

    /**
     * Tile rows {@code [from, to)} (8 matrix rows each) into {@code bf16[rows,cols]{1,0:T(8,128)(2,1)}}
     * ({@code cols} at most {@code DequantizeKernels.MAX_TILE_ROW_COLS}), each tile row's tiles written
     * whole and in memory order. Q8_0, Q4_0, Q4_K and Q6_K (and Q4_1, Q5_0, Q5_1 with 512-bit vectors) round in registers
     * with no f32 buffer ({@code DequantizeKernels.fusesBf16Tiles}); the other types dequantize the tile row's 8 rows
     * into an f32 buffer and round and interleave from there ({@code DequantizeKernels.zipBf16Tiles}).
     */
    private static void bf16Tiles(QuantBlock q, MemorySegment src, MemorySegment dst, long cols, long from, long to) {
        long rowBytes = cols / q.blockSize() * q.blockBytes();
        if (DequantizeKernels.fusesBf16Tiles(q)) {
            for (long t = from; t < to; t++) {
                fusedTileRow(q, src, dst, cols, rowBytes, t);
            }
            return;
        }
        long blocks = cols / q.blockSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment rows = arena.allocate(8 * cols * 4, 64);
            for (long t = from; t < to; t++) {
                for (int r = 0; r < 8; r++) {   // a call per row, as elsewhere: short calls reach C2's code sooner
                    DequantizeKernels.run(q, src, (8 * t + r) * rowBytes, rows, 4 * r * cols, blocks);
                }
                DequantizeKernels.zipBf16Tiles(rows, cols, dst.asSlice(16 * t * cols, 16 * cols));
            }
        }
    }

    /**
     * Tile row {@code t} of a matrix of a type with a fused kernel into its bf16 {@code T(8,128)(2,1)} tiles, through
     * slices of the tile row's 8 source rows and of its destination bytes (offsets inside the
     * kernel's loop stay small, which made it measurably faster than offsets into the whole tensor).
     */
    private static void fusedTileRow(QuantBlock q, MemorySegment src, MemorySegment dst, long cols, long rowBytes, long t) {
        MemorySegment rows = src.asSlice(8 * t * rowBytes, 8 * rowBytes);
        MemorySegment out = dst.asSlice(16 * t * cols, 16 * cols);
        switch (q) {
            case Q8_0 -> DequantizeKernels.q8_0Bf16Tiles(rows, rowBytes, cols, out);
            case Q4_0 -> DequantizeKernels.q4_0Bf16Tiles(rows, rowBytes, cols, out);
            case Q4_1 -> DequantizeKernels.q4_1Bf16Tiles(rows, rowBytes, cols, out);
            case Q5_0 -> DequantizeKernels.q5Bf16Tiles(rows, rowBytes, cols, out, false);
            case Q5_1 -> DequantizeKernels.q5Bf16Tiles(rows, rowBytes, cols, out, true);
            case Q4_K -> DequantizeKernels.q4_kBf16Tiles(rows, rowBytes, cols, out);
            case Q6_K -> Q6kKernels.bf16Tiles(rows, rowBytes, cols, out);
            default -> throw new AssertionError("no fused bf16 tile kernel for " + q);
        }
    }

    /**
     * The tensor cut along the destination's major-most dimension {@code axis} into chunks of
     * {@code chunk} (the last {@code last}), each a contiguous run of {@code chunkBytes} of the
     * destination's buffer laid out as {@code full} (and {@code tail} for the last chunk).
     */
    private record Chunks(long[] dims, int axis, long chunk, long count, long chunkBytes, RelayoutPlan full,
                          RelayoutPlan tail, ArrayShape fullShape, ArrayShape tailShape) {

        /** {@return the chunking of {@code shape}, or null if its layout cannot be cut into contiguous runs} */
        static Chunks of(QuantBlock q, ArrayShape shape) {
            Layout layout = shape.layout();
            long[] dims = shape.dimensions();
            int rank = dims.length;
            if (layout.hasPaddedDimensions() || shape.slotBits() % 8 != 0
                    || layout.elementSizeInBits() != 0 && layout.elementSizeInBits() % 8 != 0) {
                return null;
            }
            int axis = layout.minorToMajor(rank - 1);
            long unit = 1;
            if (!layout.tiles().isEmpty()) {
                Tile t = layout.tiles().get(0);
                if (t.hasCombinedDimensions()) {
                    return null;
                }
                if (t.rank() >= rank) {
                    unit = t.dimension(t.rank() - rank);
                }
            }
            if (axis == rank - 1) {
                unit = LongMath.lcm(unit, q.blockSize());
            }
            long other = shape.elementCount() / dims[axis];
            long perUnit = Math.multiplyExact(Math.multiplyExact(other, unit), 4L);
            long chunk = Math.max(1, SCRATCH_BYTES / perUnit) * unit;
            if (chunk >= dims[axis]) {
                chunk = dims[axis];
            }
            long count = (dims[axis] + chunk - 1) / chunk;
            long last = dims[axis] - (count - 1) * chunk;
            ArrayShape fullShape = withDim(shape, axis, chunk);
            ArrayShape tailShape = withDim(shape, axis, last);
            long chunkBytes = fullShape.bufferSize();
            // Check the cut: chunk k starts at k * chunkBytes, and the tail ends the buffer.
            long slotBits = shape.slotBits();
            if (count > 1) {
                long[] at = new long[rank];
                at[axis] = chunk;
                if (shape.linearIndex(at) * slotBits != chunkBytes * 8) {
                    return null;
                }
                at[axis] = (count - 1) * chunk;
                if (shape.linearIndex(at) * slotBits != (count - 1) * chunkBytes * 8) {
                    return null;
                }
            }
            if ((count - 1) * chunkBytes + tailShape.bufferSize() != shape.bufferSize()) {
                return null;
            }
            ElementType scratchType = shape.elementType().isComplex() ? ElementType.F32 : shape.elementType();
            RelayoutPlan full = Relayout.plan(ArrayShape.of(scratchType, fullShape.dimensions()), fullShape);
            RelayoutPlan tail = Relayout.plan(ArrayShape.of(scratchType, tailShape.dimensions()), tailShape);
            return new Chunks(dims, axis, chunk, count, chunkBytes, full, tail, fullShape, tailShape);
        }

        private static ArrayShape withDim(ArrayShape shape, int axis, long n) {
            long[] d = shape.dimensions();
            d[axis] = n;
            return ArrayShape.of(shape.elementType(), d).withLayout(shape.layout());
        }

        /**
         * Dequantizes and moves chunks {@code [from, to)}. Each row goes to f32 (in place for an f32
         * destination, else into a one-row buffer converted into the scratch in the destination's type),
         * so the plan that lays a chunk out moves elements of one type.
         */
        void execute(QuantBlock q, MemorySegment src, MemorySegment dst, long from, long to) {
            int rank = dims.length;
            long cols = dims[rank - 1];
            long bytesPerBlock = q.blockBytes();
            long bs = q.blockSize();
            ElementType type = full.from().elementType();
            long slotBits = full.from().slotBits();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment scratch = arena.allocate(full.from().bufferSize(), 64);
                MemorySegment row = type == ElementType.F32 ? null : arena.allocate(cols * 4, 64);
                long[] idx = new long[rank];
                for (long k = from; k < to; k++) {
                    boolean isTail = k == count - 1;
                    ArrayShape cs = isTail ? tailShape : fullShape;
                    long[] cd = cs.dimensions();
                    long start = k * chunk;
                    if (axis == rank - 1) {
                        // every row, columns [start, start + cd[axis])
                        long rows = cs.elementCount() / cd[axis];
                        long blocks = cd[axis] / bs;
                        long rowBytes = cols / bs * bytesPerBlock;
                        for (long r = 0; r < rows; r++) {
                            long srcOff = r * rowBytes + start / bs * bytesPerBlock;
                            if (row == null) {
                                DequantizeKernels.run(q, src, srcOff, scratch, r * cd[axis] * 4, blocks);
                            } else {
                                DequantizeKernels.run(q, src, srcOff, row, 0, blocks);
                                DequantizeKernels.convert(row, type, slotBits, scratch, r * cd[axis], cd[axis]);
                            }
                        }
                    } else {
                        // whole rows; walk the chunk's row indices (all dimensions but the last)
                        long rows = cs.elementCount() / cols;
                        long blocks = cols / bs;
                        long rowBytes = blocks * bytesPerBlock;
                        java.util.Arrays.fill(idx, 0);
                        for (long r = 0; r < rows; r++) {
                            long srcRow = 0;
                            for (int d = 0; d < rank - 1; d++) {
                                srcRow = srcRow * dims[d] + idx[d] + (d == axis ? start : 0);
                            }
                            if (row == null) {
                                DequantizeKernels.run(q, src, srcRow * rowBytes, scratch, r * cols * 4, blocks);
                            } else {
                                DequantizeKernels.run(q, src, srcRow * rowBytes, row, 0, blocks);
                                DequantizeKernels.convert(row, type, slotBits, scratch, r * cols, cols);
                            }
                            for (int d = rank - 2; d >= 0; d--) {
                                if (++idx[d] < cd[d]) {
                                    break;
                                }
                                idx[d] = 0;
                            }
                        }
                    }
                    long bytes = cs.bufferSize();
                    RelayoutPlan plan = isTail ? tail : full;
                    plan.execute(scratch.asSlice(0, plan.from().bufferSize()), dst.asSlice(k * chunkBytes, bytes));
                }
            }
        }
    }
}
