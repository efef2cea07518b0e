package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every option that README.md, docs/cli.md and docs/guide.md give a command, in a command line
 * ({@code tegula COMMAND ...} or {@code ./run COMMAND ...}), is an option that command has: usage
 * text in the docs cannot name an option that was renamed or removed. (JMH's options and
 * {@code ./run bench --report}'s, which are not the tegula command's, are left out.)
 */
class DocOptionsTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern COMMAND_LINE = Pattern.compile(
            "(?:\\btegula|\\./run) (inspect|map|convert|bench|plan)\\b([^`\\n|]*)");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]*)");

    @Test
    void everyOptionTheDocsGiveACommandIsOneItHas() throws IOException {
        CommandLine tegula = Main.commandLine();
        List<String> unknown = new ArrayList<>();
        int checked = 0;
        for (String doc : List.of("README.md", "docs/cli.md", "docs/guide.md")) {
            String text = Files.readString(ROOT.resolve(doc));
            Matcher m = COMMAND_LINE.matcher(text);
            while (m.find()) {
                String command = m.group(1);
                String args = m.group(2);
                if (command.equals("bench") && !args.strip().startsWith("--") || args.contains("--report")) {
                    continue;   // ./run bench with JMH's options, or the report runner's
                }
                Set<String> names = new TreeSet<>(tegula.getSubcommands().get(command).getCommandSpec().optionsMap().keySet());
                Matcher o = OPTION.matcher(args);
                while (o.find()) {
                    checked++;
                    if (!names.contains(o.group(1))) {
                        int line = text.substring(0, m.start()).split("\n", -1).length;
                        unknown.add(doc + ":" + line + ": " + command + " has no " + o.group(1) + " (" + m.group().strip() + ")");
                    }
                }
            }
        }
        assertTrue(checked > 50, "the docs' command lines were found: " + checked + " options checked");
        assertTrue(unknown.isEmpty(), () -> String.join("\n", unknown));
    }
}
