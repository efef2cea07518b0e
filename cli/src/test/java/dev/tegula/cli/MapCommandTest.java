package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tegula map}'s failures and files, in process: a picture that cannot be written is one line
 * naming the file and the reason; {@code --slice} on a grid of rank two or less says so; pictures
 * replace their files whole and leave no temporary file behind.
 */
class MapCommandTest {
    @TempDir
    Path dir;

    @Test
    void pictureWriteFailuresGiveOneLineWithTheFileAndTheReason() throws IOException {
        for (String option : List.of("--png", "--svg")) {
            Path nowhere = dir.resolve("no/such/dir/x." + option.substring(2));
            MainTest.Result r = MainTest.run("map", "f32[3,5]{1,0:T(2,2)}", option, nowhere.toString());
            assertEquals(2, r.status(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("tegula map: cannot write " + nowhere + ": no such directory"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            Path d = Files.createDirectories(dir.resolve("d." + option.substring(2)));
            MainTest.Result dr = MainTest.run("map", "f32[3,5]{1,0:T(2,2)}", option, d.toString());
            assertEquals("tegula map: cannot write " + d + ": is a directory\n", dr.err());
        }
    }

    @Test
    void sliceOnAGridOfRankTwoOrLessSaysSoWithoutNegativeDims() {
        MainTest.Result r = MainTest.run("map", "f32[]", "--slice", "1");
        assertEquals(2, r.status());
        assertFalse(r.err().contains("-1"), r.err());
        assertTrue(r.err().contains("no leading dimension to pick"), r.err());
        MainTest.Result three = MainTest.run("map", "f32[2,3,4]", "--slice", "1,1");
        assertTrue(three.err().contains("needs 1 leading index (dim 0)"), three.err());
    }

    @Test
    void picturesReplaceFilesWholeAndLeaveNoTemporary() throws IOException {
        Path png = dir.resolve("map.png");
        Path svg = dir.resolve("map.svg");
        Files.writeString(png, "old");
        Files.writeString(svg, "old");
        MainTest.Result r = MainTest.run("map", "f32[3,5]{1,0:T(2,2)}", "--png", png.toString(), "--svg", svg.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(Files.readAllBytes(png), 4));
        assertTrue(Files.readString(svg).startsWith("<?xml") || Files.readString(svg).startsWith("<svg"));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("map.png", "map.svg"), s.map(x -> x.getFileName().toString()).sorted().toList());
        }
    }
}
