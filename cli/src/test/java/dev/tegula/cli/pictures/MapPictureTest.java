package dev.tegula.cli.pictures;

import dev.tegula.core.ArrayShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

import static dev.tegula.cli.MainTest.run;

import dev.tegula.cli.MainTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tegula map --svg/--png}: the files, what the SVG holds, the PNG's size, exit statuses. */
class MapPictureTest {
    private static final String FIGURE_ONE = "f32[3,5]{1,0:T(2,2)}";

    @TempDir
    Path dir;

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void svgHasEverySlotTheTileOutlinesThePaddingAndThePath() throws IOException {
        Path svg = dir.resolve("map.svg");
        MainTest.Result r = run("map", FIGURE_ONE, "--svg", svg.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("wrote " + svg + " (SVG, "), r.out());
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<?xml") && text.strip().endsWith("</svg>"), text);
        // every slot of the buffer is written: 15 element cells and 9 padding cells in the grid, 24 in the strip
        for (int slot = 0; slot < 24; slot++) {
            assertTrue(count(text, ">" + slot + "</text>") >= 2, "slot " + slot);
        }
        // six tiles of 2x2 outlined: rectangles stroked in the tile colour
        assertEquals(6, count(text, "<rect [^>]*fill=\"none\" stroke=\"#222222\" stroke-width=\"2.5\"/>"), text);
        // padding: 9 cells in the grid past the array's end, 9 squares in the strip, 1 in the legend
        assertEquals(19, count(text, "class=\"padding\""), text);
        // the memory order: one polyline through the 15 element cells, plus two turns (gutter, border)
        // each time it changes rows
        Matcher m = Pattern.compile("class=\"memory-order\"[^>]* points=\"([^\"]*)\"").matcher(text);
        assertTrue(m.find(), text);
        java.util.List<LayoutGrid.Cell> path = new LayoutGrid(ArrayShape.parse(FIGURE_ONE))
                .figure(new long[0], 32, 32, false).path();
        assertEquals(15, path.size());
        int rowChanges = 0;
        for (int i = 1; i < path.size(); i++) {
            rowChanges += path.get(i).row() != path.get(i - 1).row() ? 1 : 0;
        }
        assertEquals(15 + 2 * rowChanges, m.group(1).split(" ").length, m.group(1));
        assertTrue(text.contains(">" + FIGURE_ONE.replace("&", "&amp;") + "</text>"), text);
    }

    @Test
    void pngDecodesToTheReportedSize() throws IOException {
        Path png = dir.resolve("map.png");
        MainTest.Result r = run("map", "bf16[4,8]{1,0:T(2,4)(2,1)}", "--png", png.toString());
        assertEquals(0, r.status(), r.err());
        Matcher m = Pattern.compile("\\(PNG, (\\d+) x (\\d+) px").matcher(r.out());
        assertTrue(m.find(), r.out());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(Integer.parseInt(m.group(1)), image.getWidth());
        assertEquals(Integer.parseInt(m.group(2)), image.getHeight());
        MapRenderer expected = new MapRenderer(new LayoutGrid(ArrayShape.parse("bf16[4,8]{1,0:T(2,4)(2,1)}")).figure(
                new long[0], 32, 32, false));
        assertEquals(expected.width(), image.getWidth());
        assertEquals(expected.height(), image.getHeight());
        // not blank: the tile colours are there
        assertTrue(hasColour(image, MapRenderer.PALETTE[0]) && hasColour(image, MapRenderer.PALETTE[1]));
    }

    private static boolean hasColour(BufferedImage image, int rgb) {
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void bothFilesAtOnceAndTheSameSize() throws IOException {
        Path png = dir.resolve("a.png");
        Path svg = dir.resolve("a.svg");
        MainTest.Result r = run("map", "f32[4,6]{0,1}", "--png", png.toString(), "--svg", svg.toString());
        assertEquals(0, r.status(), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(Files.readString(svg).contains("width=\"" + image.getWidth() + "\" height=\"" + image.getHeight() + "\""));
    }

    @Test
    void largeShapesAreDrawnOneCellPerTile() throws IOException {
        Path svg = dir.resolve("big.svg");
        MainTest.Result r = run("map", "bf16[1024,1024]{1,0:T(8,128)(2,1)}", "--svg", svg.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("one cell per tile, 32 x 8 cells shown"), r.out());
        String text = Files.readString(svg);
        assertTrue(text.contains("each cell is one tile of 8 x 128 elements"), text);
        assertTrue(text.contains("showing 32 of 128 cell rows and 8 of 8 cell columns"), text);
        // tile corners: slot 1024 * (8 * tile row + tile column)
        assertTrue(text.contains(">1024</text>") && text.contains(">8192</text>") && text.contains(">261120</text>"), text);
    }

    @Test
    void figureModelFollowsTheSlots() {
        LayoutGrid.Figure f = new LayoutGrid(ArrayShape.parse(FIGURE_ONE)).figure(new long[0], 32, 32, false);
        assertTrue(f.elementLevel());
        assertEquals(4, f.cellRows());
        assertEquals(6, f.cellColumns());
        TreeSet<Long> padding = new TreeSet<>();
        f.cells().stream().filter(LayoutGrid.Cell::padding).forEach(c -> padding.add(c.slot()));
        assertEquals(new TreeSet<>(List.of(9L, 11L, 14L, 15L, 18L, 19L, 21L, 22L, 23L)), padding);
        List<Long> order = f.path().stream().map(LayoutGrid.Cell::slot).toList();
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 10L, 12L, 13L, 16L, 17L, 20L), order);
        assertEquals(24, f.strip().size());
        assertEquals(15, f.strip().stream().filter(LayoutGrid.StripSlot::element).count());
        assertEquals(6, f.tiles().size());
        // a tile that does not reach the rows holds one row: f32[3,300]{1,0:T(128)} at tile level
        LayoutGrid.Figure t = new LayoutGrid(ArrayShape.parse("f32[3,300]{1,0:T(128)}")).figure(new long[0], 32, 32, false);
        assertFalse(t.elementLevel());
        assertEquals(1, t.blockRows());
        assertEquals(128, t.blockColumns());
        assertEquals(3, t.cellRows());
        assertEquals(3, t.cellColumns());
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32[]", "s4[5,3]{0,1:T(2,2)E(4)}", "f32[2,3]{1,0:PAD(3,5:zero)}", "f32[0,4]{1,0:T(2,2)}",
            "f32[2,7,3]{1,2,0:T(2,4)}", "bf16[8,8]{1,0:T(2,4)(2,1,1,1)}", "f32[4,6]{1,0:T(*,3)}",
            "u8[100000]", "f32[512,4096]{0,1}", "b(f32[2,3])"})
    void anyArrayShapeDraws(String shape) throws IOException {
        Path svg = dir.resolve("x.svg");
        Path png = dir.resolve("x.png");
        MainTest.Result r = run("map", shape, "--svg", svg.toString(), "--png", png.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.size(svg) > 0);
        assertNotNull(ImageIO.read(png.toFile()));
    }

    @Test
    void badInputExitsTwoWithOneLine() {
        Path missing = dir.resolve("no/such/dir/map.png");
        for (String[] args : new String[][] {{"map", FIGURE_ONE, "--png", missing.toString()},
                {"map", "(f32[2], f32[3])", "--svg", dir.resolve("t.svg").toString()},
                {"map", "token[]", "--png", dir.resolve("t.png").toString()},
                {"map", "f32[?]", "--svg", dir.resolve("u.svg").toString()},
                {"map", "f32[2,3,4]", "--slice", "7", "--svg", dir.resolve("s.svg").toString()},
                {"map", "f32[2", "--svg", dir.resolve("p.svg").toString()}}) {
            MainTest.Result r = run(args);
            assertEquals(2, r.status(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().startsWith("tegula map: "), r.err());
        }
    }
}
