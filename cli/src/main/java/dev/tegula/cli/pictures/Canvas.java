package dev.tegula.cli.pictures;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The few drawing operations a {@link MapRenderer} needs, so one drawing code makes both the SVG
 * ({@link SvgCanvas}, text written by hand) and the PNG ({@link PngCanvas}, java.awt). Coordinates
 * are pixels from the top-left corner; colours are {@code 0xRRGGBB}.
 */
public sealed interface Canvas permits SvgCanvas, PngCanvas {
    /** Horizontal text placement relative to the x coordinate. */
    public enum Anchor { START, MIDDLE, END }

    /** A rectangle: filled if {@code fill >= 0}, outlined if {@code stroke >= 0} with {@code strokeWidth}. */
    void rect(double x, double y, double w, double h, int fill, int stroke, double strokeWidth);

    /** A grey rectangle hatched with diagonal lines: padding. */
    void hatch(double x, double y, double w, double h);

    /** A line. */
    void line(double x1, double y1, double x2, double y2, int color, double width);

    /** An open path through the points, drawn with {@code opacity} (0..1). */
    void polyline(double[] xs, double[] ys, int color, double width, double opacity);

    /** A filled polygon (arrow heads). */
    void polygon(double[] xs, double[] ys, int fill);

    /** A filled circle. */
    void circle(double cx, double cy, double r, int fill);

    /** Text with its baseline at {@code y}; {@code size} in pixels. */
    void text(double x, double y, String text, double size, int color, Anchor anchor, boolean bold);

    /** Writes the picture to {@code file}. */
    void write(Path file) throws IOException;
}
