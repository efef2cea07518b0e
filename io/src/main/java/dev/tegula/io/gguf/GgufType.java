package dev.tegula.io.gguf;

import dev.tegula.core.ElementType;
import dev.tegula.vector.quant.QuantBlock;

/**
 * The tensor types of GGUF files ({@code ggml_type}), with their ids and block geometry. Plain types
 * ({@link #elementType()} not null) are read as arrays over the file's mapping; block-quantized types
 * with a {@link #quantBlock()} are dequantized by Tegula; the others are listed (name, shape, bytes)
 * but refused, by name, when asked to dequantize.
 */
public enum GgufType {
    F32(0, 1, 4, ElementType.F32, null),
    F16(1, 1, 2, ElementType.F16, null),
    Q4_0(2, 32, 18, null, QuantBlock.Q4_0),
    Q4_1(3, 32, 20, null, QuantBlock.Q4_1),
    Q5_0(6, 32, 22, null, QuantBlock.Q5_0),
    Q5_1(7, 32, 24, null, QuantBlock.Q5_1),
    Q8_0(8, 32, 34, null, QuantBlock.Q8_0),
    Q8_1(9, 32, 40, null, null),
    Q2_K(10, 256, 84, null, QuantBlock.Q2_K),
    Q3_K(11, 256, 110, null, QuantBlock.Q3_K),
    Q4_K(12, 256, 144, null, QuantBlock.Q4_K),
    Q5_K(13, 256, 176, null, QuantBlock.Q5_K),
    Q6_K(14, 256, 210, null, QuantBlock.Q6_K),
    Q8_K(15, 256, 292, null, null),
    IQ2_XXS(16, 256, 66, null, null),
    IQ2_XS(17, 256, 74, null, null),
    IQ3_XXS(18, 256, 98, null, null),
    IQ1_S(19, 256, 50, null, null),
    IQ4_NL(20, 32, 18, null, null),
    IQ3_S(21, 256, 110, null, null),
    IQ2_S(22, 256, 82, null, null),
    IQ4_XS(23, 256, 136, null, null),
    I8(24, 1, 1, ElementType.S8, null),
    I16(25, 1, 2, ElementType.S16, null),
    I32(26, 1, 4, ElementType.S32, null),
    I64(27, 1, 8, ElementType.S64, null),
    F64(28, 1, 8, ElementType.F64, null),
    IQ1_M(29, 256, 56, null, null),
    BF16(30, 1, 2, ElementType.BF16, null),
    TQ1_0(34, 256, 54, null, null),
    TQ2_0(35, 256, 66, null, null),
    MXFP4(39, 32, 17, null, null),
    NVFP4(40, 64, 36, null, null),
    Q1_0(41, 128, 18, null, null);

    private static final GgufType[] BY_ID = new GgufType[64];

    static {
        for (GgufType t : values()) {
            BY_ID[t.id] = t;
        }
    }

    private final int id;
    private final int blockSize;
    private final int blockBytes;
    private final ElementType elementType;
    private final QuantBlock quantBlock;

    GgufType(int id, int blockSize, int blockBytes, ElementType elementType, QuantBlock quantBlock) {
        this.id = id;
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
        this.elementType = elementType;
        this.quantBlock = quantBlock;
    }

    /** {@return the type's number in the file ({@code ggml_type})} */
    public int id() {
        return id;
    }

    /** {@return the elements of one block (1 for plain types)} */
    public int blockSize() {
        return blockSize;
    }

    /** {@return the bytes of one block} */
    public int blockBytes() {
        return blockBytes;
    }

    /** {@return Tegula's element type for a plain type, or null for a block-quantized one} */
    public ElementType elementType() {
        return elementType;
    }

    /** {@return the block encoding Tegula dequantizes, or null (plain types, and block types Tegula does not dequantize)} */
    public QuantBlock quantBlock() {
        return quantBlock;
    }

    /** {@return the type with this id, or null if the id is not a known type} */
    public static GgufType ofId(long id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[(int) id] : null;
    }

    /** {@return the GGUF type of a plain Tegula element type, or null if GGUF has none} */
    public static GgufType of(ElementType type) {
        for (GgufType t : values()) {
            if (t.elementType == type) {
                return t;
            }
        }
        return null;
    }
}
