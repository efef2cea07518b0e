package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.cli.commands.MapCommand;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code map --png} and {@code --svg} draw a picture of bounded pixel size for
 * every {@code --max} the help allows (1..4096), cutting the grid further when needed and saying so.
 */
class PictureSizeTest {
    private static final String BIG = "f32[100000,100000]{1,0:T(8,128)}";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {512, 1024, 4096})
    void pngStaysWithinTheBound(int max) throws IOException {
        Path png = dir.resolve("big.png");
        MainTest.Result r = MainTest.run("map", BIG, "--max", Integer.toString(max), "--png", png.toString());
        assertEquals(0, r.status(), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() <= MapCommand.MAX_PICTURE_SIDE && image.getHeight() <= MapCommand.MAX_PICTURE_SIDE,
                image.getWidth() + " x " + image.getHeight());
        assertTrue((long) image.getWidth() * image.getHeight() <= MapCommand.MAX_PICTURE_PIXELS);
        assertTrue(r.out().contains("fewer cells than --max " + max), r.out());
        Matcher m = Pattern.compile("\\((PNG), (\\d+) x (\\d+) px").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals(image.getWidth(), Integer.parseInt(m.group(2)));
        assertEquals(image.getHeight(), Integer.parseInt(m.group(3)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4096})
    void svgStaysWithinTheBound(int max) throws IOException {
        Path svg = dir.resolve("big.svg");
        MainTest.Result r = MainTest.run("map", BIG, "--max", Integer.toString(max), "--svg", svg.toString());
        assertEquals(0, r.status(), r.err());
        Matcher m = Pattern.compile("width=\"(\\d+)\" height=\"(\\d+)\"").matcher(Files.readString(svg));
        assertTrue(m.find());
        assertTrue(Integer.parseInt(m.group(1)) <= MapCommand.MAX_PICTURE_SIDE);
        assertTrue(Integer.parseInt(m.group(2)) <= MapCommand.MAX_PICTURE_SIDE);
    }
}
