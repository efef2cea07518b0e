package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #13, item 14: help text never breaks a shape or an option example across lines. Every quoted
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
            long quotes = line.chars().filter(c -> c == '\'').count();
            int open = 0;
            for (char c : line.toCharArray()) {
                open += c == '[' || c == '{' || c == '(' ? 1 : c == ']' || c == '}' || c == ')' ? -1 : 0;
            }
            if (quotes % 2 != 0 || open != 0) {
                broken.add(line);
            }
        }
        assertTrue(broken.isEmpty(), () -> "lines that break an example:\n" + String.join("\n", broken)
                + "\n\nwhole help:\n" + r.out());
    }
}
