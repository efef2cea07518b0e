package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Help text never breaks a shape or an option example across lines. Every quoted
 * example opens and closes on one line, and no shape text ({@code type[...]...}) is split. Each
 * synopsis is one block and names every option of its command.
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

    /** The synopsis is one block (no blank line in it) and names every option the command has. */
    @ParameterizedTest
    @ValueSource(strings = {"inspect", "map", "convert", "bench", "plan"})
    void theSynopsisIsOneBlockNamingEveryOption(String command) {
        MainTest.Result r = MainTest.run(command, "--help");
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("Usage: tegula " + command + " "), r.out());
        StringBuilder synopsis = new StringBuilder(lines.getFirst());
        for (int i = 1; i < lines.size() && lines.get(i).startsWith(" "); i++) {
            synopsis.append(' ').append(lines.get(i).strip());
        }
        assertFalse(lines.get(1).isBlank(), () -> "a blank line in the synopsis:\n" + r.out());
        picocli.CommandLine sub = Main.commandLine().getSubcommands().get(command);
        for (picocli.CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
            String name = o.longestName();
            if (!o.hidden() && !name.equals("--help") && !name.equals("--version")) {
                assertTrue(synopsis.toString().contains(name), () -> command + ": the synopsis lacks " + name + ":\n"
                        + synopsis);
            }
        }
    }
}
