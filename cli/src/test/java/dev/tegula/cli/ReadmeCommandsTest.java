package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README names every command the tool has (it once left out {@code convert}). */
class ReadmeCommandsTest {
    @Test
    void readmeNamesEveryCommand() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String usage = readme.substring(readme.indexOf("which names the commands"));
        usage = usage.substring(0, usage.indexOf("\n\n"));
        for (String name : Main.commandLine().getSubcommands().keySet()) {
            if (!name.equals("help")) {
                String n = name;
                String u = usage;
                assertTrue(u.contains("`" + n + "`"), () -> "README's list of commands lacks `" + n + "`: " + u);
            }
        }
    }
}
