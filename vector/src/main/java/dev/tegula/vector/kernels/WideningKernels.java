package dev.tegula.vector.kernels;

import dev.tegula.ffm.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Relayout with a widening conversion in the same pass ({@link Conversion}): bf16, f16, the 8-bit
 * and smaller types (one per byte, or 4-bit types packed two per byte) to f32 and f64, f32 to f64,
 * and f64 to f32.
 *
 * <p>Each loop nest (in element units; each side's slots of its own width) runs as its walk's
 * {@link Kernel} says. Runs contiguous on both sides convert a vector at a time ({@link #runs},
 * {@link Kernel#WIDEN_RUNS}): bf16 is
 * sign-extended to 32-bit lanes and shifted into the high half; f16 is rebiased in integer lanes
 * (subnormals through an exact int-to-float conversion and one exact multiply); a byte type looks
 * its codes up in a 256-entry table of bf16 halves (every value of an 8-bit type is a bf16 value)
 * with four two-vector permutes of 32 shorts and two blends, 512-bit vectors only (a table in
 * plain Java elsewhere); f32 and f64 convert with the Vector API's lane conversions, which round
 * and quiet NaNs as the Java casts do. A destination of f64 takes the f32 lanes through a small
 * per-thread buffer and widens them from there. A transposing nest (the innermost loop contiguous
 * in the destination, another in the source; {@link #transpose}, {@link Kernel#WIDEN_TRANSPOSE}) of bf16
 * to f32 with 256-bit vectors widens inside 8x8 register tiles of f32, no buffer
 * ({@link #widenInTiles}); any other goes in blocks through a per-thread buffer: 16-bit
 * sources (and f32 to f64) are transposed in their own type with the register tiles, then each
 * buffer row converts as a run into its destination row ({@link #sourceTiles}); other sources
 * convert blocks of source rows as runs into the buffer, which the same-type kernels of the
 * destination's element transpose into place (the kernel the rules of {@link Kernel} give the
 * buffer: register tiles for f32, a narrow deinterleave where the source rows are pairs or quads,
 * as in a {@code (2,1)} sub-tile); bf16 pairs into f32 need no buffer ({@link #bf16PairsToF32},
 * {@link Kernel#WIDEN_PAIRS}). Anything else converts element by element ({@link #line},
 * {@link Kernel#WIDEN_ELEMENTS}, through {@link Conversion#convert}).
 *
 * <p>Stateless and thread-safe (the buffers are per thread). Bounds and lifetime are checked by
 * the segments.
 */
public final class WideningKernels {
    private WideningKernels() {
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** The widest int vectors, and shorts and floats of the same lane count. */
    private static final VectorSpecies<Integer> IR = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SR = VectorSpecies.of(short.class,
            VectorShape.forBitSize(Math.max(64, IR.vectorBitSize() / 2)));
    private static final VectorSpecies<Double> DR = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> FH = VectorSpecies.of(float.class,
            VectorShape.forBitSize(Math.max(64, DR.vectorBitSize() / 2)));
    /** Whether the run kernels use vectors (lane counts that match: 256 bits or more). */
    static final boolean VECTOR = Tuning.VECTOR && SR.length() == IR.length() && FH.length() == DR.length();
    /** Whether the byte table lookup uses vectors: 512-bit vectors (32 shorts, a 64-entry permute). */
    static final boolean TABLE_VECTOR = VECTOR && IR.vectorBitSize() >= 512;
    private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Short> S32 = ShortVector.SPECIES_512;
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;

    private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;
    /** Lane {@code i} takes byte {@code i / 2} (of the first eight), or {@code 8 + i / 2}. */
    private static final VectorShuffle<Integer> SPREAD_LOW = VectorShuffle.fromOp(I16, i -> i / 2);
    private static final VectorShuffle<Integer> SPREAD_HIGH = VectorShuffle.fromOp(I16, i -> 8 + i / 2);
    /** 0 for even lanes (the low nibble), 4 for odd ones. */
    private static final IntVector NIBBLE_SHIFTS = IntVector.fromArray(I16,
            new int[] {0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4}, 0);

    /** Elements of the per-thread buffer: one block of a transpose, or one chunk on the way to f64. */
    static final int BUFFER_ELEMENTS = 4096;
    /** Edge of a transpose block along the source rows, where they are long. */
    static final int BLOCK = 64;

    /** Two buffers per thread: [0] for a transpose block, [1] for the f32 lanes on the way to f64. */
    private static final ThreadLocal<MemorySegment[]> BUFFERS = ThreadLocal.withInitial(() -> new MemorySegment[] {
        HostMemory.allocate(Arena.ofAuto(), BUFFER_ELEMENTS * 8L, 64),
        HostMemory.allocate(Arena.ofAuto(), BUFFER_ELEMENTS * 4L, 64)});

    /** {@return the f32 bits of the binary16 code in the low 16 bits of {@code h}}: exact, NaN payload kept, not quieted. */
    static int f16Bits(int h) {
        int sign = (h & 0x8000) << 16;
        int m = h & 0x7FFF;
        int o = m << 13;
        int e = o & 0x0F80_0000;
        if (e == 0x0F80_0000) {
            return sign | (o + 0x7000_0000);
        }
        if (e == 0) {
            return sign | Float.floatToRawIntBits(m * 0x1p-24f);
        }
        return sign | (o + 0x3800_0000);
    }

    /** {@code dst[dO + k·t] = convert(src[so + k·s])} for {@code k < n}, element by element ({@link Kernel#WIDEN_ELEMENTS}). */
    public static void line(Conversion c, MemorySegment src, long so, long s, MemorySegment dst, long dO, long t,
                            long n) {
        KernelTrace.ran(Kernel.WIDEN_ELEMENTS);
        int fb = c.fromBits;
        int tb = c.toBytes * 8;
        for (long k = 0; k < n; k++) {
            writeSlot(dst, dO + k * t, tb, c.convert(readSlot(src, so + k * s, fb)));
        }
    }

    private static long readSlot(MemorySegment seg, long slot, int bits) {
        return switch (bits) {
            case 4 -> (seg.get(ValueLayout.JAVA_BYTE, slot >>> 1) >>> ((slot & 1) * 4)) & 0xF;
            case 8 -> seg.get(ValueLayout.JAVA_BYTE, slot) & 0xFF;
            case 16 -> seg.get(S, slot * 2) & 0xFFFF;
            case 32 -> seg.get(I, slot * 4) & 0xFFFF_FFFFL;
            default -> seg.get(L, slot * 8);
        };
    }

    private static void writeSlot(MemorySegment seg, long slot, int bits, long code) {
        switch (bits) {
            case 16 -> seg.set(S, slot * 2, (short) code);
            case 32 -> seg.set(I, slot * 4, (int) code);
            default -> seg.set(L, slot * 8, code);
        }
    }

    /**
     * {@code dst[dO + k] = convert(src[so + k])} for {@code k < n}: a run contiguous on both sides (not for
     * {@link Conversion.Kind#F32_BF16}; {@link Kernel#WIDEN_RUNS}). An f64 destination gets the f32
     * lanes through the per-thread buffer, a chunk at a time.
     */
    public static void runs(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        KernelTrace.ran(Kernel.WIDEN_RUNS);
        run(c, src, so, dst, dO, n);
    }

    /** The run of {@link #runs}, untraced: for the transposes' rows and blocks. */
    static void run(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        if (!c.toF64) {
            toF32(c, src, so, dst, dO, n);
            return;
        }
        if (c.kind == Conversion.Kind.F32_F32) {
            f32ToF64(src, so, dst, dO, n);
            return;
        }
        MemorySegment buf = BUFFERS.get()[1];
        for (long k = 0; k < n; k += BUFFER_ELEMENTS) {
            long m = Math.min(BUFFER_ELEMENTS, n - k);
            toF32(c, src, so + k, buf, 0, m);
            f32ToF64(buf, 0, dst, dO + k, m);
        }
    }

    /** {@code dst[dO + k]} = the f32 bits of {@code src[so + k]} for {@code k < n}. */
    private static void toF32(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        switch (c.kind) {
            case BF16_F32 -> bf16ToF32(src, so, dst, dO, n);
            case F16_F32 -> f16ToF32(src, so, dst, dO, n);
            case BYTE_F32 -> bytesToF32(c, src, so, dst, dO, n);
            case NIBBLE_F32 -> nibblesToF32(c, src, so, dst, dO, n);
            case F32_F32 -> MemorySegment.copy(src, so * 4, dst, dO * 4, n * 4);
            case F64_F32 -> f64ToF32(src, so, dst, dO, n);
            case F32_BF16 -> throw new IllegalArgumentException("conversion: f32 -> bf16 runs in ConvertKernels");
        }
    }

    /** bf16 to f32: each code sign-extended to 32 bits and shifted into the high half. */
    static void bf16ToF32(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        if (VECTOR) {
            int lanes = IR.length();
            for (; k + lanes <= n; k += lanes) {
                ShortVector v = ShortVector.fromMemorySegment(SR, src, (so + k) * 2, NATIVE);
                ((IntVector) v.convertShape(VectorOperators.S2I, IR, 0)).lanewise(VectorOperators.LSHL, 16)
                        .intoMemorySegment(dst, (dO + k) * 4, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(I, (dO + k) * 4, src.get(S, (so + k) * 2) << 16);
        }
    }

    /**
     * f16 to f32 ({@link #f16Bits} in lanes): the magnitude moved to the f32 position and rebiased
     * (by 112 exponents, or 224 for infinities and NaNs, whose payload stays as it is); a subnormal
     * is its integer fraction converted exactly and scaled by 2^-24; the sign put back.
     */
    static void f16ToF32(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        if (VECTOR) {
            int lanes = IR.length();
            for (; k + lanes <= n; k += lanes) {
                IntVector h = (IntVector) ShortVector.fromMemorySegment(SR, src, (so + k) * 2, NATIVE)
                        .convertShape(VectorOperators.S2I, IR, 0);
                IntVector m = h.and(0x7FFF);
                IntVector o = m.lanewise(VectorOperators.LSHL, 13);
                IntVector e = o.and(0x0F80_0000);
                IntVector sub = ((FloatVector) m.convert(VectorOperators.I2F, 0)).mul(0x1p-24f).reinterpretAsInts();
                o.add(0x3800_0000)
                        .blend(o.add(0x7000_0000), e.compare(VectorOperators.EQ, 0x0F80_0000))
                        .blend(sub, e.compare(VectorOperators.EQ, 0))
                        .or(h.and(0x8000).lanewise(VectorOperators.LSHL, 16))
                        .intoMemorySegment(dst, (dO + k) * 4, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(I, (dO + k) * 4, f16Bits(src.get(S, (so + k) * 2)));
        }
    }

    /**
     * Bytes to f32 through the conversion's table. With 512-bit vectors and a table of bf16 values,
     * 32 codes at a time: zero-extended to shorts, looked up in each quarter of the 256 bf16 halves
     * (a two-vector permute takes 64 entries) and the quarter chosen by bits 6 and 7 of the code,
     * then widened and shifted into the high half.
     */
    static void bytesToF32(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        short[] high = c.highTable;
        if (TABLE_VECTOR && high != null && n >= 32) {
            ShortVector t0 = ShortVector.fromArray(S32, high, 0);
            ShortVector t1 = ShortVector.fromArray(S32, high, 32);
            ShortVector t2 = ShortVector.fromArray(S32, high, 64);
            ShortVector t3 = ShortVector.fromArray(S32, high, 96);
            ShortVector t4 = ShortVector.fromArray(S32, high, 128);
            ShortVector t5 = ShortVector.fromArray(S32, high, 160);
            ShortVector t6 = ShortVector.fromArray(S32, high, 192);
            ShortVector t7 = ShortVector.fromArray(S32, high, 224);
            for (; k + 32 <= n; k += 32) {
                ShortVector x = (ShortVector) ByteVector.fromMemorySegment(B32, src, so + k, NATIVE)
                        .convertShape(VectorOperators.ZERO_EXTEND_B2S, S32, 0);
                VectorMask<Short> b6 = x.and((short) 64).compare(VectorOperators.NE, (short) 0);
                VectorMask<Short> b7 = x.compare(VectorOperators.GE, (short) 128);
                ShortVector low = x.selectFrom(t0, t1).blend(x.selectFrom(t2, t3), b6);
                ShortVector top = x.selectFrom(t4, t5).blend(x.selectFrom(t6, t7), b6);
                ShortVector code = low.blend(top, b7);
                ((IntVector) code.convertShape(VectorOperators.S2I, I16, 0)).lanewise(VectorOperators.LSHL, 16)
                        .intoMemorySegment(dst, (dO + k) * 4, NATIVE);
                ((IntVector) code.convertShape(VectorOperators.S2I, I16, 1)).lanewise(VectorOperators.LSHL, 16)
                        .intoMemorySegment(dst, (dO + k + 16) * 4, NATIVE);
            }
        }
        int[] table = c.table;
        for (; k < n; k++) {
            dst.set(I, (dO + k) * 4, table[src.get(ValueLayout.JAVA_BYTE, so + k) & 0xFF]);
        }
    }

    /**
     * {@return whether a transpose goes through the source type's register tiles first}: 2-byte
     * sources, and f32 to f64 (whose destination type has no tile kernel), where both sides' rows
     * hold a whole block
     */
    private static boolean sourceTiles(Conversion c, long nI, long nJ) {
        return Tuning.TILE > 0 && nI >= BLOCK && nJ >= BLOCK
                && (c.fromBits == 16 || c.kind == Conversion.Kind.F32_F32);
    }

    /**
     * How a widening transpose ({@link Kernel#WIDEN_TRANSPOSE}) runs, chosen once, when its walk is
     * made ({@link #planTranspose}), never per block: whether its blocks are transposed in the source
     * type and then widened row by row ({@link #sourceTiles}), or widened into the buffer and then
     * transposed in the destination type, and the same-type kernel that transposes a block: the
     * machine's largest tiles ({@link Kernel#TILES_16}, {@link Kernel#TILES_8}), a narrow
     * deinterleave ({@link Kernel#DEINTERLEAVE}) where the source rows are pairs or quads, or
     * element by element ({@link Kernel#TRANSPOSE_ELEMENTS}). A block at the edge of the nest that is
     * smaller than the chosen kernel takes ({@link #kernelFor}) goes element by element. Immutable.
     *
     * @param conversion  the conversion
     * @param sourceTiles whether blocks are transposed in the source type first
     * @param blocks      the same-type kernel of a whole block
     * @param bytes       the bytes of the elements that kernel moves (the source's where
     *                    {@code sourceTiles}, else the destination's)
     * @param narrowI     for {@link Kernel#DEINTERLEAVE}, the source rows of a block it takes (else 0)
     * @param inTiles     whether the conversion runs inside 8x8 register tiles of f32 instead
     *                    ({@link #widenInTiles}: bf16 to f32 with 256-bit vectors); then
     *                    {@code sourceTiles} and {@code blocks} serve no block
     */
    public record TransposePlan(Conversion conversion, boolean sourceTiles, Kernel blocks, int bytes, long narrowI,
                                boolean inTiles) {
        /** {@return the kernel that transposes a block of {@code ii} by {@code jj}: {@link #blocks} where it takes the block, else element by element} */
        Kernel kernelFor(long ii, long jj) {
            return switch (blocks) {
                case TILES_16, TILES_8 -> ii >= blocks.tile() && jj >= Math.max(blocks.tile(), 64 / bytes) ? blocks
                        : Kernel.TRANSPOSE_ELEMENTS;
                case DEINTERLEAVE -> ii == narrowI ? blocks : Kernel.TRANSPOSE_ELEMENTS;
                default -> Kernel.TRANSPOSE_ELEMENTS;
            };
        }
    }

    /**
     * {@return how {@link #transpose} runs a nest whose pair is {@code nI} by {@code nJ}, destination
     * stride {@code tI}, source stride {@code sJ}}: the kernel the rules of {@link Kernel} give a whole
     * block ({@link Kernel#choose}; the machine's largest tiles first)
     */
    public static TransposePlan planTranspose(Conversion c, long nI, long nJ, long tI, long sJ) {
        boolean st = sourceTiles(c, nI, nJ);
        int b = st ? c.fromBits / 8 : c.toBytes;
        long bi = st ? BLOCK : Math.max(1, Math.min(nI, BLOCK));
        long bj = st ? BLOCK : Math.max(1, Math.min(nJ, Math.max(BLOCK, BUFFER_ELEMENTS / bi)));
        Case block = Case.transpose(Elements.same(b), bi, bj, st ? bj : tI, st ? sJ : bi);
        Kernel k = Tuning.TILE > 0 ? Kernel.choose(block.tiled(Tuning.TILE, false)) : null;
        if (k == null) {
            k = Kernel.choose(block);
        }
        Kernel blocks = switch (k) {
            case TILES_16, TILES_8, DEINTERLEAVE -> k;
            default -> Kernel.TRANSPOSE_ELEMENTS;
        };
        return new TransposePlan(c, st, blocks, b, blocks == Kernel.DEINTERLEAVE ? bi : 0, inTiles(c, nI, nJ));
    }

    /**
     * {@return whether a transpose converts inside the register tiles ({@link #widenInTiles})}: bf16
     * to f32 with 256-bit vectors (the machine's tiles are 8x8, {@link Tuning#TILE}) on a
     * little-endian machine, both sides' rows holding a whole tile of 16. Not f16: its conversion's
     * dozen lane operations per vector inside the tile ran slower than transposing the codes first
     * and converting runs.
     */
    private static boolean inTiles(Conversion c, long nI, long nJ) {
        return VECTOR && Tuning.TILE == 8 && NATIVE == ByteOrder.LITTLE_ENDIAN && !c.toF64
                && c.kind == Conversion.Kind.BF16_F32 && nI >= 16 && nJ >= 16;
    }

    /** Destination rows of a block of {@link #widenInTiles}: the tiles of a strip of 16 source rows across them, then the next strip. */
    static final long TILE_BLOCK_I = 256;

    /**
     * The transpose of bf16 to f32 of {@link #transpose} where the plan says {@link TransposePlan#inTiles}: no buffer.
     * Blocks of {@link #TILE_BLOCK_I} destination rows, each walked in strips of 16 source rows; in
     * a strip, each 16 source elements of the 16 rows become 16 destination rows of 16 f32 (one
     * 64-byte line each), as two tiles of 8 source rows ({@link #widenTile}). Remainders (rows and
     * columns beyond the last whole tile) go element by element.
     */
    static void widenInTiles(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long nI, long tI,
                             long nJ, long sJ) {
        long fullI = nI - nI % 16;
        long fullJ = nJ - nJ % 16;
        long sRow = sJ * 2;
        long dRow = tI * 4;
        for (long i0 = 0; i0 < fullI; i0 += TILE_BLOCK_I) {
            long iEnd = Math.min(fullI, i0 + TILE_BLOCK_I);
            for (long j = 0; j < fullJ; j += 16) {
                for (long i = i0; i < iEnd; i += 16) {
                    long sb = (so + i + j * sJ) * 2;
                    long db = (dO + i * tI + j) * 4;
                    widenTile(src, sb, sRow, dst, db, dRow);
                    widenTile(src, sb + 8 * sRow, sRow, dst, db + 32, dRow);
                }
            }
        }
        for (long j = 0; j < nJ; j++) {
            for (long i = fullI; i < nI; i++) {
                dst.set(I, (dO + i * tI + j) * 4, (int) c.convert(src.get(S, (so + i + j * sJ) * 2) & 0xFFFF));
            }
        }
        for (long j = fullJ; j < nJ; j++) {
            for (long i = 0; i < fullI; i++) {
                dst.set(I, (dO + i * tI + j) * 4, (int) c.convert(src.get(S, (so + i + j * sJ) * 2) & 0xFFFF));
            }
        }
    }

    /**
     * One tile of the widening transpose of bf16 to f32, 256-bit vectors, little-endian: 8 source
     * rows (bytes {@code sRow} apart from byte {@code sb}) of 16 bf16 codes into 16 destination rows
     * ({@code dRow} apart from byte {@code db}) of 8 f32. Each source row is loaded as 8 int lanes of
     * two codes; the even codes' f32 bits are the lanes shifted up by 16, the odd codes' the lanes
     * with the low half cleared. That widening is the first round of the transpose (it parts the
     * codes by bit 0 of their index); the 8x8 tiles of f32 of the even and of the odd codes then
     * take the three rounds of {@code TransposeKernels}' 8x8 tile, and their row m is destination
     * row 2m or 2m + 1. The halves are separate methods, each loading the 8 rows, so each fits
     * AVX2's 16 vector registers.
     */
    static void widenTile(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        widenBf16TileEven(src, sb, sRow, dst, db, dRow);
        widenBf16TileOdd(src, sb, sRow, dst, db, dRow);
    }

    /*
     * The 8x8 tile's rounds (as TransposeKernels' 8x8 tile of ints): round k swaps bit k of the row
     * index with bit k of the lane index, each half of a pair one constant lane permutation (round 0:
     * a shift of the 64-bit lanes by 32 bits) and one blend.
     */
    private static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
    private static final VectorMask<Integer> I_M0 = roundMask(0);
    private static final VectorShuffle<Integer> I_R1 = roundShuffle(-1, 1);
    private static final VectorShuffle<Integer> I_L1 = roundShuffle(1, 1);
    private static final VectorMask<Integer> I_M1 = roundMask(1);
    private static final VectorShuffle<Integer> I_R2 = roundShuffle(-1, 2);
    private static final VectorShuffle<Integer> I_L2 = roundShuffle(1, 2);
    private static final VectorMask<Integer> I_M2 = roundMask(2);

    private static VectorShuffle<Integer> roundShuffle(int direction, int k) {
        return VectorShuffle.fromOp(I8, c -> (c + direction * (1 << k)) & 7);
    }

    private static VectorMask<Integer> roundMask(int k) {
        boolean[] m = new boolean[8];
        for (int c = 0; c < 8; c++) {
            m[c] = (c & (1 << k)) != 0;
        }
        return VectorMask.fromArray(I8, m, 0);
    }

    /** The even destination rows of {@link #widenTile} for bf16. */
    private static void widenBf16TileEven(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I8, src, sb + 0 * sRow, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector p0 = a0.lanewise(VectorOperators.LSHL, 16);
        IntVector p1 = a1.lanewise(VectorOperators.LSHL, 16);
        IntVector p2 = a2.lanewise(VectorOperators.LSHL, 16);
        IntVector p3 = a3.lanewise(VectorOperators.LSHL, 16);
        IntVector p4 = a4.lanewise(VectorOperators.LSHL, 16);
        IntVector p5 = a5.lanewise(VectorOperators.LSHL, 16);
        IntVector p6 = a6.lanewise(VectorOperators.LSHL, 16);
        IntVector p7 = a7.lanewise(VectorOperators.LSHL, 16);
        IntVector x10 = p0.blend(p1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x11 = p0.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p1, I_M0);
        IntVector x12 = p2.blend(p3.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x13 = p2.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p3, I_M0);
        IntVector x14 = p4.blend(p5.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x15 = p4.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p5, I_M0);
        IntVector x16 = p6.blend(p7.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x17 = p6.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p7, I_M0);
        IntVector x20 = x10.blend(x12.rearrange(I_R1), I_M1);
        IntVector x22 = x10.rearrange(I_L1).blend(x12, I_M1);
        IntVector x21 = x11.blend(x13.rearrange(I_R1), I_M1);
        IntVector x23 = x11.rearrange(I_L1).blend(x13, I_M1);
        IntVector x24 = x14.blend(x16.rearrange(I_R1), I_M1);
        IntVector x26 = x14.rearrange(I_L1).blend(x16, I_M1);
        IntVector x25 = x15.blend(x17.rearrange(I_R1), I_M1);
        IntVector x27 = x15.rearrange(I_L1).blend(x17, I_M1);
        IntVector x30 = x20.blend(x24.rearrange(I_R2), I_M2);
        IntVector x34 = x20.rearrange(I_L2).blend(x24, I_M2);
        IntVector x31 = x21.blend(x25.rearrange(I_R2), I_M2);
        IntVector x35 = x21.rearrange(I_L2).blend(x25, I_M2);
        IntVector x32 = x22.blend(x26.rearrange(I_R2), I_M2);
        IntVector x36 = x22.rearrange(I_L2).blend(x26, I_M2);
        IntVector x33 = x23.blend(x27.rearrange(I_R2), I_M2);
        IntVector x37 = x23.rearrange(I_L2).blend(x27, I_M2);
        x30.intoMemorySegment(dst, db + 0 + 0 * dRow, NATIVE);
        x31.intoMemorySegment(dst, db + 0 + 2 * dRow, NATIVE);
        x32.intoMemorySegment(dst, db + 0 + 4 * dRow, NATIVE);
        x33.intoMemorySegment(dst, db + 0 + 6 * dRow, NATIVE);
        x34.intoMemorySegment(dst, db + 0 + 8 * dRow, NATIVE);
        x35.intoMemorySegment(dst, db + 0 + 10 * dRow, NATIVE);
        x36.intoMemorySegment(dst, db + 0 + 12 * dRow, NATIVE);
        x37.intoMemorySegment(dst, db + 0 + 14 * dRow, NATIVE);
    }

    /** The odd destination rows of {@link #widenTile} for bf16. */
    private static void widenBf16TileOdd(MemorySegment src, long sb, long sRow, MemorySegment dst, long db, long dRow) {
        IntVector a0 = IntVector.fromMemorySegment(I8, src, sb + 0 * sRow, NATIVE);
        IntVector a1 = IntVector.fromMemorySegment(I8, src, sb + 1 * sRow, NATIVE);
        IntVector a2 = IntVector.fromMemorySegment(I8, src, sb + 2 * sRow, NATIVE);
        IntVector a3 = IntVector.fromMemorySegment(I8, src, sb + 3 * sRow, NATIVE);
        IntVector a4 = IntVector.fromMemorySegment(I8, src, sb + 4 * sRow, NATIVE);
        IntVector a5 = IntVector.fromMemorySegment(I8, src, sb + 5 * sRow, NATIVE);
        IntVector a6 = IntVector.fromMemorySegment(I8, src, sb + 6 * sRow, NATIVE);
        IntVector a7 = IntVector.fromMemorySegment(I8, src, sb + 7 * sRow, NATIVE);
        IntVector p0 = a0.and(0xFFFF_0000);
        IntVector p1 = a1.and(0xFFFF_0000);
        IntVector p2 = a2.and(0xFFFF_0000);
        IntVector p3 = a3.and(0xFFFF_0000);
        IntVector p4 = a4.and(0xFFFF_0000);
        IntVector p5 = a5.and(0xFFFF_0000);
        IntVector p6 = a6.and(0xFFFF_0000);
        IntVector p7 = a7.and(0xFFFF_0000);
        IntVector x10 = p0.blend(p1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x11 = p0.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p1, I_M0);
        IntVector x12 = p2.blend(p3.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x13 = p2.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p3, I_M0);
        IntVector x14 = p4.blend(p5.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x15 = p4.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p5, I_M0);
        IntVector x16 = p6.blend(p7.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 32).reinterpretAsInts(), I_M0);
        IntVector x17 = p6.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 32).reinterpretAsInts().blend(p7, I_M0);
        IntVector x20 = x10.blend(x12.rearrange(I_R1), I_M1);
        IntVector x22 = x10.rearrange(I_L1).blend(x12, I_M1);
        IntVector x21 = x11.blend(x13.rearrange(I_R1), I_M1);
        IntVector x23 = x11.rearrange(I_L1).blend(x13, I_M1);
        IntVector x24 = x14.blend(x16.rearrange(I_R1), I_M1);
        IntVector x26 = x14.rearrange(I_L1).blend(x16, I_M1);
        IntVector x25 = x15.blend(x17.rearrange(I_R1), I_M1);
        IntVector x27 = x15.rearrange(I_L1).blend(x17, I_M1);
        IntVector x30 = x20.blend(x24.rearrange(I_R2), I_M2);
        IntVector x34 = x20.rearrange(I_L2).blend(x24, I_M2);
        IntVector x31 = x21.blend(x25.rearrange(I_R2), I_M2);
        IntVector x35 = x21.rearrange(I_L2).blend(x25, I_M2);
        IntVector x32 = x22.blend(x26.rearrange(I_R2), I_M2);
        IntVector x36 = x22.rearrange(I_L2).blend(x26, I_M2);
        IntVector x33 = x23.blend(x27.rearrange(I_R2), I_M2);
        IntVector x37 = x23.rearrange(I_L2).blend(x27, I_M2);
        x30.intoMemorySegment(dst, db + dRow + 0 * dRow, NATIVE);
        x31.intoMemorySegment(dst, db + dRow + 2 * dRow, NATIVE);
        x32.intoMemorySegment(dst, db + dRow + 4 * dRow, NATIVE);
        x33.intoMemorySegment(dst, db + dRow + 6 * dRow, NATIVE);
        x34.intoMemorySegment(dst, db + dRow + 8 * dRow, NATIVE);
        x35.intoMemorySegment(dst, db + dRow + 10 * dRow, NATIVE);
        x36.intoMemorySegment(dst, db + dRow + 12 * dRow, NATIVE);
        x37.intoMemorySegment(dst, db + dRow + 14 * dRow, NATIVE);
    }

    /**
     * The transpose of {@link #transpose} for {@link #sourceTiles}: blocks of {@link #BLOCK} x
     * {@link #BLOCK} transposed in the source type into the per-thread buffer (laid out as the
     * destination), each of its rows then converted as a run into its destination row.
     */
    private static void transposeThenWiden(TransposePlan p, MemorySegment src, long so, MemorySegment dst, long dO,
                                           long nI, long tI, long nJ, long sJ, MemorySegment buf) {
        Conversion c = p.conversion();
        int b = c.fromBits / 8;
        for (long j0 = 0; j0 < nJ; j0 += BLOCK) {
            long jj = Math.min(BLOCK, nJ - j0);
            for (long i0 = 0; i0 < nI; i0 += BLOCK) {
                long ii = Math.min(BLOCK, nI - i0);
                sameType(p.kernelFor(ii, jj), src, so + i0 + j0 * sJ, buf, 0, b, ii, jj, jj, sJ);
                for (long r = 0; r < ii; r++) {
                    run(c, buf, r * jj, dst, dO + (i0 + r) * tI + j0, jj);
                }
            }
        }
    }

    /** Transposes elements of {@code b} bytes, untraced, with kernel {@code k} of a {@link TransposePlan}. */
    private static void sameType(Kernel k, MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI,
                                 long tI, long nJ, long sJ) {
        switch (k) {
            case TILES_16, TILES_8 -> TransposeKernels.blocks(src, so, dst, dO, b, nI, tI, nJ, sJ, k, BLOCK, BLOCK,
                    Strips.SOURCE, Bands.SOURCE);
            case DEINTERLEAVE -> NarrowKernels.deinterleaveRows(src, so, dst, dO, tI, b, (int) nI, nJ);
            default -> CopyKernels.blocks(src, so, dst, dO, b, nI, tI, nJ, sJ);
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = f32(src[so + i + 2j])}, {@code i} in {@code {0, 1}}: bf16 pairs (a {@code (2,1)} sub-tile)
     * into two f32 rows. Each pair read as one 32-bit lane (little-endian: the first in the low
     * half) is both f32 values at once: the lane shifted left by 16, and the lane with its low half
     * cleared ({@link Kernel#WIDEN_PAIRS}).
     */
    public static void bf16PairsToF32(MemorySegment src, long so, MemorySegment dst, long dO, long tI, long nJ) {
        KernelTrace.ran(Kernel.WIDEN_PAIRS);
        long j = 0;
        int lanes = IR.length();
        for (; j + lanes <= nJ; j += lanes) {
            IntVector v = IntVector.fromMemorySegment(IR, src, (so + 2 * j) * 2, NATIVE);
            v.lanewise(VectorOperators.LSHL, 16).intoMemorySegment(dst, (dO + j) * 4, NATIVE);
            v.and(0xFFFF_0000).intoMemorySegment(dst, (dO + tI + j) * 4, NATIVE);
        }
        for (; j < nJ; j++) {
            dst.set(I, (dO + j) * 4, src.get(S, (so + 2 * j) * 2) << 16);
            dst.set(I, (dO + tI + j) * 4, src.get(S, (so + 2 * j + 1) * 2) << 16);
        }
    }

    /** Packed 4-bit codes (slot {@code s} in byte {@code s / 2}, the even slot in the low nibble) to f32, a byte at a time. */
    static void nibblesToF32(Conversion c, MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        int[] table = c.table;
        long k = 0;
        if ((so & 1) != 0 && n > 0) {
            dst.set(I, dO * 4, table[(src.get(ValueLayout.JAVA_BYTE, so >>> 1) >>> 4) & 0xF]);
            k = 1;
        }
        if (TABLE_VECTOR) {
            // 16 bytes (32 codes) at a time: each half of the bytes spread to 16 int lanes, a byte
            // to two lanes, shifted to its low or high nibble, looked up in the 16 table lanes
            IntVector t = IntVector.fromArray(I16, table, 0);
            for (; k + 32 <= n; k += 32) {
                IntVector x = (IntVector) ByteVector.fromMemorySegment(B16, src, (so + k) >>> 1, NATIVE)
                        .convertShape(VectorOperators.ZERO_EXTEND_B2I, I16, 0);
                x.rearrange(SPREAD_LOW).lanewise(VectorOperators.LSHR, NIBBLE_SHIFTS).and(0xF).selectFrom(t)
                        .intoMemorySegment(dst, (dO + k) * 4, NATIVE);
                x.rearrange(SPREAD_HIGH).lanewise(VectorOperators.LSHR, NIBBLE_SHIFTS).and(0xF).selectFrom(t)
                        .intoMemorySegment(dst, (dO + k + 16) * 4, NATIVE);
            }
        }
        for (; k + 2 <= n; k += 2) {
            int b = src.get(ValueLayout.JAVA_BYTE, (so + k) >>> 1);
            dst.set(I, (dO + k) * 4, table[b & 0xF]);
            dst.set(I, (dO + k + 1) * 4, table[(b >>> 4) & 0xF]);
        }
        if (k < n) {
            dst.set(I, (dO + k) * 4, table[src.get(ValueLayout.JAVA_BYTE, (so + k) >>> 1) & 0xF]);
        }
    }

    /** f32 to f64 with the Vector API's lane conversion (as the Java cast: exact, a NaN quiet). */
    static void f32ToF64(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        if (VECTOR) {
            int lanes = DR.length();
            for (; k + lanes <= n; k += lanes) {
                FloatVector.fromMemorySegment(FH, src, (so + k) * 4, NATIVE).convertShape(VectorOperators.F2D, DR, 0)
                        .intoMemorySegment(dst, (dO + k) * 8, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(D, (dO + k) * 8, src.get(F, (so + k) * 4));
        }
    }

    /** f64 to f32 with the Vector API's lane conversion (as the Java cast: to nearest even, a NaN quiet). */
    static void f64ToF32(MemorySegment src, long so, MemorySegment dst, long dO, long n) {
        long k = 0;
        if (VECTOR) {
            int lanes = DR.length();
            for (; k + lanes <= n; k += lanes) {
                DoubleVector.fromMemorySegment(DR, src, (so + k) * 8, NATIVE).convertShape(VectorOperators.D2F, FH, 0)
                        .intoMemorySegment(dst, (dO + k) * 4, NATIVE);
            }
        }
        for (; k < n; k++) {
            dst.set(F, (dO + k) * 4, (float) src.get(D, (so + k) * 8));
        }
    }

    /**
     * {@code dst[dO + i·tI + j] = convert(src[so + i + j·sJ])} for {@code i < nI}, {@code j < nJ}
     * ({@link Kernel#WIDEN_TRANSPOSE}), as the plan made with the walk says ({@link #planTranspose}):
     * with {@link #sourceTiles}, blocks transposed in the source type and then widened row by row;
     * else blocks of source rows converted as runs into the per-thread buffer (one run where the
     * block's rows lie end to end in the source), then transposed from there in the destination's
     * type.
     */
    public static void transpose(TransposePlan p, MemorySegment src, long so, MemorySegment dst, long dO, long nI,
                                 long tI, long nJ, long sJ) {
        KernelTrace.ran(Kernel.WIDEN_TRANSPOSE);
        if (p.inTiles()) {
            widenInTiles(p.conversion(), src, so, dst, dO, nI, tI, nJ, sJ);
            return;
        }
        MemorySegment buf = BUFFERS.get()[0];
        if (p.sourceTiles()) {
            transposeThenWiden(p, src, so, dst, dO, nI, tI, nJ, sJ, buf);
            return;
        }
        Conversion c = p.conversion();
        long bi = Math.min(nI, BLOCK);
        long bj = Math.min(nJ, Math.max(BLOCK, BUFFER_ELEMENTS / bi));
        for (long j0 = 0; j0 < nJ; j0 += bj) {
            long jj = Math.min(bj, nJ - j0);
            for (long i0 = 0; i0 < nI; i0 += bi) {
                long ii = Math.min(bi, nI - i0);
                if (ii == nI && sJ == nI) {
                    run(c, src, so + j0 * sJ, buf, 0, ii * jj);
                } else {
                    for (long r = 0; r < jj; r++) {
                        run(c, src, so + i0 + (j0 + r) * sJ, buf, r * ii, ii);
                    }
                }
                sameType(p.kernelFor(ii, jj), buf, 0, dst, dO + i0 * tI + j0, c.toBytes, ii, tI, jj, ii);
            }
        }
    }
}
