package dev.tegula.ffm;

import dev.tegula.core.ElementType;

/**
 * {@link Array#toString()}: a header with the shape, then the logical values in NumPy's nested
 * bracket form. Arrays of more than {@value #THRESHOLD} elements are summarised: each dimension
 * longer than {@code 2 * }{@value #EDGE_ITEMS} shows its first and last {@value #EDGE_ITEMS}
 * entries around {@code ...}, as NumPy does by default.
 */
final class ArrayPrinter {
    static final long THRESHOLD = 1000;
    static final int EDGE_ITEMS = 3;

    private ArrayPrinter() {
    }

    static String print(Array a) {
        StringBuilder sb = new StringBuilder(a.shape.toString());
        if (!a.isDense()) {
            sb.append(" view(offset=").append(a.slotOffset()).append(", strides=")
                    .append(java.util.Arrays.toString(a.strides)).append(')');
        }
        if (a.isReadOnly()) {
            sb.append(" read-only");
        }
        sb.append('\n');
        if (!a.isHostAccessible()) {
            return sb.append("<not host-accessible: memory space S(").append(a.shape.layout().memorySpace())
                    .append("), provider ").append(a.provider.name()).append('>').toString();
        }
        int mark = sb.length();
        try {
            long[] idx = new long[a.dims.length];
            if (idx.length == 0) {
                sb.append(format(a, idx));
            } else {
                nest(a, 0, idx, sb, Array.elementCountOf(a.dims) > THRESHOLD);
            }
        } catch (IllegalStateException | WrongThreadException e) {
            sb.setLength(mark);
            sb.append("<inaccessible: ").append(e.getMessage()).append('>');
        }
        return sb.toString();
    }

    private static void nest(Array a, int d, long[] idx, StringBuilder sb, boolean summarise) {
        int rank = a.dims.length;
        long size = a.dims[d];
        boolean elide = summarise && size > 2L * EDGE_ITEMS;
        sb.append('[');
        boolean first = true;
        for (long i = 0; i < size; i++) {
            if (elide && i == EDGE_ITEMS) {
                separator(sb, d, rank);
                sb.append("...");
                i = size - EDGE_ITEMS - 1;
                continue;
            }
            if (!first) {
                separator(sb, d, rank);
            }
            first = false;
            idx[d] = i;
            if (d == rank - 1) {
                sb.append(format(a, idx));
            } else {
                nest(a, d + 1, idx, sb, summarise);
            }
        }
        sb.append(']');
    }

    private static void separator(StringBuilder sb, int d, int rank) {
        if (d == rank - 1) {
            sb.append(", ");
        } else {
            sb.append(',').append("\n".repeat(rank - 1 - d)).append(" ".repeat(d + 1));
        }
    }

    static String format(Array a, long[] idx) {
        ElementType t = a.type;
        if (t.isComplex()) {
            double re = a.getReal(idx);
            double im = a.getImaginary(idx);
            String r = t == ElementType.C64 ? Float.toString((float) re) : Double.toString(re);
            String i = t == ElementType.C64 ? Float.toString((float) im) : Double.toString(im);
            return r + (i.startsWith("-") ? "" : "+") + i + "j";
        }
        if (t == ElementType.PRED) {
            return Boolean.toString(a.getBoolean(idx));
        }
        if (t == ElementType.U64) {
            return Long.toUnsignedString(a.getLong(idx));
        }
        if (t.isIntegral()) {
            return Long.toString(a.getLong(idx));
        }
        if (t == ElementType.F64) {
            return Double.toString(a.getDouble(idx));
        }
        return Float.toString(a.getFloat(idx));
    }
}
