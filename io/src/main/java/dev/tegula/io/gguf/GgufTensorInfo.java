package dev.tegula.io.gguf;

/**
 * One tensor of a GGUF file's header, validated.
 *
 * @param name      its name (unique in the file)
 * @param ne        its dimensions as the file lists them, fastest-varying first ({@code ne[0]})
 * @param type      its type
 * @param offset    the first byte of its data, relative to the data section (a multiple of the alignment)
 * @param byteSize  the bytes of its data: {@code elements / type.blockSize() * type.blockBytes()}
 */
public record GgufTensorInfo(String name, long[] ne, GgufType type, long offset, long byteSize) {
    public GgufTensorInfo {
        ne = ne.clone();
    }

    /** {@return its dimensions as the file lists them, fastest-varying first (a copy)} */
    @Override
    public long[] ne() {
        return ne.clone();
    }

    /**
     * {@return its dimensions in Tegula's (and NumPy's, PyTorch's) order: {@code ne} reversed, the last
     * one varying fastest in the row-major data}
     */
    public long[] dimensions() {
        long[] d = new long[ne.length];
        for (int i = 0; i < ne.length; i++) {
            d[i] = ne[ne.length - 1 - i];
        }
        return d;
    }

    /** {@return the number of elements} */
    public long elementCount() {
        long n = 1;
        for (long d : ne) {
            n *= d;   // checked when the header was read
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GgufTensorInfo t && name.equals(t.name) && java.util.Arrays.equals(ne, t.ne)
                && type == t.type && offset == t.offset && byteSize == t.byteSize;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + java.util.Arrays.hashCode(ne);
    }

    @Override
    public String toString() {
        return name + " " + type + java.util.Arrays.toString(dimensions()) + " @" + offset + "+" + byteSize;
    }
}
