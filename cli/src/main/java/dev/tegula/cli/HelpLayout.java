package dev.tegula.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The synopsis and the option and parameter lists of every command's help, laid out as picocli does
 * but wrapped only at spaces: picocli's own wrapping breaks lines between any two characters a line
 * may break at, which splits shape examples such as {@code 'f32[3,5]{1,0:T(2,2)}'} and synopsis
 * elements such as {@code [--type=[GLOB=]TYPE]...} in the middle. A word longer than the
 * description column runs past it instead of being broken. Stateless.
 */
final class HelpLayout {
    /**
     * A width no synopsis reaches, at which picocli writes it on one line. Not larger: picocli pads
     * a custom synopsis to the width, and a width of a billion took seconds.
     */
    private static final int ONE_LINE = 4096;
    /** The widest left column (names and labels) that still shares its line with the description. */
    private static final int MAX_LEFT = 20;

    private HelpLayout() {
    }

    /** Installs the layout on {@code cl} and all its subcommands. */
    static void install(CommandLine cl) {
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, help -> list(help, true));
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> list(help, false));
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_SYNOPSIS, HelpLayout::synopsis);
        for (CommandLine sub : cl.getSubcommands().values()) {
            install(sub);
        }
    }

    private record Row(String shortName, String left, ArgSpec arg) {
    }

    private static String list(CommandLine.Help help, boolean parameters) {
        List<Row> rows = new ArrayList<>();
        if (parameters) {
            for (PositionalParamSpec p : help.commandSpec().positionalParameters()) {
                if (!p.hidden()) {
                    rows.add(new Row("", p.paramLabel() + (p.arity().max() > 1 ? "..." : ""), p));
                }
            }
        } else {
            List<OptionSpec> options = new ArrayList<>(help.commandSpec().options());
            options.removeIf(OptionSpec::hidden);
            options.sort(Comparator.comparing((OptionSpec o) -> o.shortestName().replaceFirst("^-+", "")
                    .toLowerCase(java.util.Locale.ROOT)).thenComparing(OptionSpec::shortestName));
            for (OptionSpec o : options) {
                String shortName = "";
                String longName = null;
                for (String n : o.names()) {
                    if (n.length() == 2 && n.charAt(0) == '-' && n.charAt(1) != '-') {
                        shortName = n;
                    } else if (longName == null) {
                        longName = n;
                    }
                }
                String left = longName == null ? "" : longName;
                if (o.arity().max() > 0) {
                    left += (left.isEmpty() ? " " : "=") + o.paramLabel();
                }
                rows.add(new Row(shortName, left, o));
            }
        }
        if (rows.isEmpty()) {
            return "";
        }
        int widest = 0;
        for (Row r : rows) {
            widest = Math.max(widest, Math.min(MAX_LEFT, r.left().length()));
        }
        int column = 6 + widest + 3;
        int width = help.commandSpec().usageMessage().width();
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            String head = "  " + (r.shortName().isEmpty() ? "    " : r.shortName() + (r.left().isEmpty() ? "  " : ", "))
                    + r.left();
            b.append(head);
            int at = head.length();
            if (at > column - 1) {
                b.append('\n');
                at = 0;
            }
            String text = String.join(" ", r.arg().description());
            boolean first = true;
            for (String line : wrap(text, width - column - 2, width - column)) {
                int indent = first ? column : column + 2;
                b.append(" ".repeat(Math.max(0, indent - at))).append(line).append('\n');
                at = 0;
                first = false;
            }
            if (first) {
                b.append('\n');
            }
        }
        return b.toString();
    }

    /**
     * The synopsis as picocli writes it on one line, wrapped at the spaces between its elements (a
     * space inside brackets is not a break), continuation lines aligned after the command's name.
     */
    private static String synopsis(CommandLine.Help help) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        int width = usage.width();
        String one;
        try {
            usage.width(ONE_LINE);
            // a custom synopsis comes in lines: its elements are rewrapped like picocli's own
            one = help.synopsis(help.synopsisHeadingLength()).strip().replaceAll("\\s+", " ");
        } finally {
            usage.width(width);
        }
        List<String> elements = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < one.length(); i++) {
            char c = one.charAt(i);
            if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if (c == ' ' && depth == 0) {
                if (i > start) {
                    elements.add(one.substring(start, i));
                }
                start = i + 1;
            }
        }
        elements.add(one.substring(start));
        int heading = help.synopsisHeadingLength();
        int indent = heading + help.commandSpec().qualifiedName().length() + 1;
        StringBuilder b = new StringBuilder();
        int at = heading;
        boolean lineStart = true;
        for (String e : elements) {
            if (!lineStart && at + 1 + e.length() > width) {
                b.append('\n').append(" ".repeat(indent));
                at = indent;
                lineStart = true;
            }
            if (!lineStart) {
                b.append(' ');
                at++;
            }
            b.append(e);
            at += e.length();
            lineStart = false;
        }
        return b.append('\n').toString();
    }

    /** Words of {@code text} in lines of at most {@code width} characters (the first line {@code firstWidth}), broken only at spaces. */
    static List<String> wrap(String text, int width, int firstWidth) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split(" +")) {
            int limit = lines.isEmpty() ? firstWidth : width;
            if (!line.isEmpty() && line.length() + 1 + word.length() > limit) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }
}
