package dev.tegula.cli.pictures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** A {@link Canvas} that writes SVG 1.1 text; no dependency. Padding hatch is one shared {@code <pattern>}. */
public final class SvgCanvas implements Canvas {
    private final int width;
    private final int height;
    private final StringBuilder body = new StringBuilder();

    public SvgCanvas(int width, int height) {
        this.width = width;
        this.height = height;
    }

    @Override
    public void rect(double x, double y, double w, double h, int fill, int stroke, double strokeWidth) {
        body.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill >= 0 ? color(fill) : "none")
                .append('"');
        if (stroke >= 0) {
            body.append(" stroke=\"").append(color(stroke)).append("\" stroke-width=\"").append(n(strokeWidth)).append('"');
        }
        body.append("/>\n");
    }

    @Override
    public void hatch(double x, double y, double w, double h) {
        body.append("<rect class=\"padding\" x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"")
                .append(n(w)).append("\" height=\"").append(n(h)).append("\" fill=\"url(#hatch)\"/>\n");
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, int color, double width) {
        body.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(color(color))
                .append("\" stroke-width=\"").append(n(width)).append("\"/>\n");
    }

    @Override
    public void polyline(double[] xs, double[] ys, int color, double width, double opacity) {
        body.append("<polyline class=\"memory-order\" fill=\"none\" stroke=\"").append(color(color))
                .append("\" stroke-width=\"").append(n(width)).append("\" stroke-opacity=\"").append(n(opacity))
                .append("\" stroke-linejoin=\"round\" points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(i == 0 ? "" : " ").append(n(xs[i])).append(',').append(n(ys[i]));
        }
        body.append("\"/>\n");
    }

    @Override
    public void polygon(double[] xs, double[] ys, int fill) {
        body.append("<polygon fill=\"").append(color(fill)).append("\" points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(i == 0 ? "" : " ").append(n(xs[i])).append(',').append(n(ys[i]));
        }
        body.append("\"/>\n");
    }

    @Override
    public void circle(double cx, double cy, double r, int fill) {
        body.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                .append("\" fill=\"").append(color(fill)).append("\"/>\n");
    }

    @Override
    public void text(double x, double y, String text, double size, int color, Anchor anchor, boolean bold) {
        body.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(n(size))
                .append('"');
        if (anchor != Anchor.START) {
            body.append(" text-anchor=\"").append(anchor == Anchor.MIDDLE ? "middle" : "end").append('"');
        }
        if (bold) {
            body.append(" font-weight=\"bold\"");
        }
        if (color != 0) {
            body.append(" fill=\"").append(color(color)).append('"');
        }
        body.append('>').append(escape(text)).append("</text>\n");
    }

    /** {@return the whole SVG document} */
    public String document() {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
                + "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
                + " patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e4e4e4\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#a8a8a8\" stroke-width=\"2\"/></pattern></defs>\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
                + body + "</svg>\n";
    }

    @Override
    public void write(Path file) throws IOException {
        Files.writeString(file, document(), StandardCharsets.UTF_8);
    }

    private static String n(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        String t = String.format(Locale.ROOT, "%.2f", v);
        return t.endsWith("0") ? t.substring(0, t.length() - 1) : t;
    }

    private static String color(int rgb) {
        return String.format(Locale.ROOT, "#%06x", rgb & 0xFFFFFF);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
