package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Help text never breaks a shape or an option example across lines. Every quoted
 * example opens and closes on one line, and no shape text ({@code type[...]...}) is split.
 */
class HelpTextTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "inspect", "map", "convert", "bench"})
    void examplesStayOnOneLine(String command) {
        MainTest.Result r = command.isEmpty() ? MainTest.run("--help") : MainTest.run(command, "--help");
        assertEquals(0, r.status(), r.err());
        List<String> broken = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            // quotes around examples; an apostrophe between letters (tile's) is not one
            long quotes = line.replaceAll("(?<=\\p{L})'(?=\\p{L})", "").chars().filter(c -> c == '\'').count();
            String[] words = line.strip().split(" ");
            String last = words[words.length - 1];
            long openSquare = last.chars().filter(c -> c == '[').count() - last.chars().filter(c -> c == ']').count();
            long openCurly = last.chars().filter(c -> c == '{').count() - last.chars().filter(c -> c == '}').count();
            if (quotes % 2 != 0 || openSquare > 0 || openCurly > 0) {
                broken.add(line);
            }
        }
        assertTrue(broken.isEmpty(), () -> "lines that break an example:\n" + String.join("\n", broken)
                + "\n\nwhole help:\n" + r.out());
    }
}
