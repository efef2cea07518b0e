package dev.tegula.cli.pictures;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.TexturePaint;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * A {@link Canvas} that paints into a {@link BufferedImage} with java.awt and writes it as PNG.
 * Needs no display: the command sets {@code java.awt.headless=true} before the first AWT class loads.
 */
public final class PngCanvas implements Canvas {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private final BufferedImage image;
    private final Graphics2D g;
    private final TexturePaint hatch;

    public PngCanvas(int width, int height) {
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        BufferedImage tile = new BufferedImage(6, 6, BufferedImage.TYPE_INT_RGB);
        Graphics2D t = tile.createGraphics();
        t.setColor(new Color(0xe4e4e4));
        t.fillRect(0, 0, 6, 6);
        t.setColor(new Color(0xa8a8a8));
        for (int i = 0; i < 6; i++) {
            tile.setRGB(i, 5 - i, 0xa8a8a8);
            tile.setRGB((i + 1) % 6, 5 - i, 0xb8b8b8);
        }
        t.dispose();
        hatch = new TexturePaint(tile, new Rectangle(0, 0, 6, 6));
    }

    @Override
    public void rect(double x, double y, double w, double h, int fill, int stroke, double strokeWidth) {
        Shape r = new Rectangle2D.Double(x, y, w, h);
        if (fill >= 0) {
            g.setColor(new Color(fill));
            g.fill(r);
        }
        if (stroke >= 0) {
            g.setColor(new Color(stroke));
            g.setStroke(new BasicStroke((float) strokeWidth));
            g.draw(r);
        }
    }

    @Override
    public void hatch(double x, double y, double w, double h) {
        g.setPaint(hatch);
        g.fill(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, int color, double width) {
        g.setColor(new Color(color));
        g.setStroke(new BasicStroke((float) width));
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int color, double width, double opacity) {
        if (xs.length == 0) {
            return;
        }
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xs[0], ys[0]);
        for (int i = 1; i < xs.length; i++) {
            p.lineTo(xs[i], ys[i]);
        }
        var old = g.getComposite();
        g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, (float) opacity));
        g.setColor(new Color(color));
        g.setStroke(new BasicStroke((float) width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(p);
        g.setComposite(old);
    }

    @Override
    public void polygon(double[] xs, double[] ys, int fill) {
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xs[0], ys[0]);
        for (int i = 1; i < xs.length; i++) {
            p.lineTo(xs[i], ys[i]);
        }
        p.closePath();
        g.setColor(new Color(fill));
        g.fill(p);
    }

    @Override
    public void circle(double cx, double cy, double r, int fill) {
        g.setColor(new Color(fill));
        g.fill(new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r));
    }

    @Override
    public void text(double x, double y, String text, double size, int color, Anchor anchor, boolean bold) {
        g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, 1).deriveFont((float) size));
        g.setColor(new Color(color));
        double w = g.getFontMetrics().getStringBounds(text, g).getWidth();
        double left = switch (anchor) {
            case START -> x;
            case MIDDLE -> x - w / 2;
            case END -> x - w;
        };
        g.drawString(text, (float) left, (float) y);
    }

    /** {@return the picture so far} */
    public BufferedImage image() {
        return image;
    }

    @Override
    public void write(Path file) throws IOException {
        g.dispose();
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this Java runtime");
        }
    }
}
