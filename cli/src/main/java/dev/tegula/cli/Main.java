package dev.tegula.cli;

import dev.tegula.cli.bench.BenchCommand;
import dev.tegula.cli.bench.PlanCommand;
import dev.tegula.cli.commands.ConvertCommand;
import dev.tegula.cli.commands.DevicesCommand;
import dev.tegula.cli.commands.InspectCommand;
import dev.tegula.cli.commands.MapCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The {@code tegula} command: its subcommands, streams and error handling; the exit statuses are
 * {@link ExitStatus}'s. Everything it prints goes through {@link TerminalText}.
 */
@Command(name = "tegula",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Look at XLA shapes and layouts: what they say, how big their buffers are, and where"
                + " each element sits (as text or a picture); convert tensor files; time the relayout engine and see how it plans.",
        subcommands = {InspectCommand.class, MapCommand.class, ConvertCommand.class, BenchCommand.class, PlanCommand.class,
                DevicesCommand.class,
                CommandLine.HelpCommand.class},
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:bad input (the reason is printed on stderr)"},
        footer = {"", "Quote shapes for the shell:  tegula inspect 'f32[3,5]{1,0:T(2,2)}'",
                "A picture of a layout:       tegula map 'f32[3,5]{1,0:T(2,2)}' --png map.png"})
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    /** With no command: print the usage (to stdout) and succeed. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command and exits with its status. */
    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true"); // pictures and charts are drawn without a display
        PrintStream out = System.out;
        PrintStream err = System.err;
        Charset outCharset = charset("stdout.encoding");
        Charset errCharset = charset("stderr.encoding");
        // what a library prints on its own (a logger) goes through the same rule as the command's lines
        System.setOut(TerminalText.stream(out, outCharset));
        System.setErr(TerminalText.stream(err, errCharset));
        System.exit(run(new PrintWriter(new OutputStreamWriter(out, outCharset)),
                new PrintWriter(new OutputStreamWriter(err, errCharset)), args));
    }

    private static Charset charset(String property) {
        try {
            return Charset.forName(System.getProperty(property, Charset.defaultCharset().name()));
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /**
     * {@return the command line with Tegula's exit-status and error handling, without colours in its
     * help; {@link #run} gives it its streams}
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler(Main::onException);
        cl.setParameterExceptionHandler(Main::onBadArguments);
        // the streams escape every control character (TerminalText), so help is plain text on every terminal
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.registerConverter(Path.class, FileErrors::path);
        HelpLayout.install(cl);   // never break a shape example across lines
        return cl;
    }

    /**
     * Runs {@code args} in process and returns the exit status; output goes to {@code out} and
     * {@code err} through {@link TerminalText#writer}, exactly as the command prints it.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine();
        PrintWriter o = TerminalText.writer(out);
        PrintWriter e = TerminalText.writer(err);
        cl.setOut(o);
        cl.setErr(e);
        int rc = cl.execute(args);
        o.flush();
        e.flush();
        return rc;
    }

    private static int onBadArguments(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println(cl.getCommandSpec().qualifiedName() + ": " + TerminalText.message(e.getMessage()) + " (see '"
                + cl.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return ExitStatus.BAD_INPUT;
    }

    private static int onException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        if (e instanceof BadInputException bad) {
            err.println(name + ": " + bad.getMessage());
            if (bad.detail() != null) {
                for (String line : bad.detail().split("\n")) {
                    err.println("  " + line);
                }
            }
            err.flush();
            return ExitStatus.BAD_INPUT;
        }
        if (e instanceof InvalidPathException p) {
            // a file name the platform cannot encode, from a file (a shard named in an index) or an argument
            err.println(name + ": " + FileErrors.unnamable(p.getInput(), p));
            err.flush();
            return ExitStatus.BAD_INPUT;
        }
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        err.println(name + ": internal error: " + TerminalText.message(e.toString()));
        for (String line : trace.toString().split("\n")) {
            err.println(TerminalText.message(line.replace("\t", "    ")));
        }
        err.flush();
        return ExitStatus.INTERNAL_ERROR;
    }
}
