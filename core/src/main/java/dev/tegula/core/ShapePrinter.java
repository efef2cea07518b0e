package dev.tegula.core;

/**
 * XLA's canonical shape text ({@code ShapeUtil::HumanStringWithLayout} and {@code HumanString}),
 * plus Tegula's {@code PAD(...)} attribute for the 2017 layout.
 */
final class ShapePrinter {
    private ShapePrinter() {
    }

    static String print(Shape shape, boolean withLayout) {
        StringBuilder sb = new StringBuilder();
        append(sb, shape, withLayout);
        return sb.toString();
    }

    static void append(StringBuilder sb, Shape shape, boolean withLayout) {
        switch (shape) {
            case ArrayShape a -> appendArray(sb, a, withLayout);
            case TupleShape t -> {
                sb.append('(');
                for (int i = 0; i < t.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                        if (i % 5 == 0) {
                            sb.append("/*index=").append(i).append("*/");
                        }
                    }
                    append(sb, t.element(i), withLayout);
                }
                sb.append(')');
            }
            case BufferShape b -> {
                sb.append("b(");
                appendArray(sb, b.array(), withLayout);
                sb.append(')');
            }
            case TokenShape tk -> sb.append("token[]");
            case OpaqueShape o -> sb.append("opaque[]");
        }
    }

    private static void appendArray(StringBuilder sb, ArrayShape a, boolean withLayout) {
        sb.append(a.elementType().hloName()).append('[');
        long[] dims = a.dimsUnsafe();
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (a.isUnboundedDimension(i)) {
                sb.append('?');
            } else {
                if (a.isDynamicDimension(i)) {
                    sb.append("<=");
                }
                sb.append(dims[i]);
            }
        }
        sb.append(']');
        if (withLayout) {
            Layout l = a.layout();
            if (dims.length == 0 && l.minorToMajor.length == 0 && l.hasOnlyMinorToMajor()) {
                return;   // a scalar whose layout would print as {} prints none
            }
            appendLayout(sb, l);
        }
    }

    static void appendLayout(StringBuilder sb, Layout l) {
        sb.append('{');
        for (int i = 0; i < l.minorToMajor.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(l.minorToMajor[i]);
        }
        if (!l.hasOnlyMinorToMajor()) {
            sb.append(':');
            if (l.tiles.length > 0) {
                sb.append('T');
                for (Tile t : l.tiles) {
                    sb.append(t);
                }
            }
            if (l.tailPaddingAlignment != 1) {
                sb.append("L(").append(l.tailPaddingAlignment).append(')');
            }
            if (l.indexPrimitiveType != null) {
                sb.append("#(").append(l.indexPrimitiveType.hloName()).append(')');
            }
            if (l.pointerPrimitiveType != null) {
                sb.append("*(").append(l.pointerPrimitiveType.hloName()).append(')');
            }
            if (l.elementSizeInBits != 0) {
                sb.append("E(").append(l.elementSizeInBits).append(')');
            }
            if (l.memorySpace != 0) {
                sb.append("S(").append(l.memorySpace).append(')');
            }
            if (l.splitConfigs.length > 0) {
                sb.append("SC");
                for (SplitConfig s : l.splitConfigs) {
                    sb.append(s);
                }
            }
            if (l.physicalShape != null) {
                sb.append("P(");
                append(sb, l.physicalShape, true);
                sb.append(')');
            }
            if (l.dynamicShapeMetadataPrefixBytes != 0) {
                sb.append("M(").append(l.dynamicShapeMetadataPrefixBytes).append(')');
            }
            if (l.paddedDimensions != null) {
                sb.append("PAD(");
                for (int i = 0; i < l.paddedDimensions.length; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(l.paddedDimensions[i]);
                }
                sb.append(':').append(l.paddingValue.textName()).append(')');
            }
        }
        sb.append('}');
    }
}
