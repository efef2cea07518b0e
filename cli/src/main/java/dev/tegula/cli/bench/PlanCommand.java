package dev.tegula.cli.bench;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.cli.BadInputException;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.VersionProvider;
import dev.tegula.cli.TerminalText;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.Shape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.StreamingStores;
import dev.tegula.vector.Wisdom;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code tegula plan}: how the relayout engine walks a relayout, and what each candidate walk took. */
@Command(name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Plan a relayout from SRC_SHAPE to DST_LAYOUT and show how it is walked.",
                "Without --measure: the plan by rule (ESTIMATE), nothing timed. With --measure (or --exhaustive):"
                        + " buffers of both shapes are allocated here and the planner times its candidate walks"
                        + " (loop orders, blocks, strips and staging, streaming stores, touches, tiles, panels,"
                        + " the loop threads share) on samples of them; the table lists every candidate it timed,"
                        + " fastest part per byte, the chosen one marked *.",
                "DST_LAYOUT is a layout such as '{0,1}' or '{1,0:T(8,128)(2,1)}', or a whole destination"
                        + " shape of the same dimensions; a type before the braces converts: 'bf16{0,1}'."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:bad input (the reason is printed on stderr)"},
        footer = {"", "Example:  tegula plan 'f32[256,512,512]{2,1,0}' '{0,1,2}' --measure --threads 2"})
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SRC_SHAPE", description = "The source shape, e.g. 'f32[8192,8192]{1,0}'.")
    String source;

    @Parameters(index = "1", paramLabel = "DST_LAYOUT", description = "The destination layout (or shape).")
    String destination;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads the plan is chosen for (default: ${DEFAULT-VALUE}).")
    int threads;

    @ArgGroup(exclusive = true)
    Mode mode = new Mode();

    static final class Mode {
        @Option(names = "--measure", description = "Time a bounded set of likely candidates (Planning.MEASURE).")
        boolean measure;

        @Option(names = "--exhaustive", description = "Time every candidate (Planning.EXHAUSTIVE; slower).")
        boolean exhaustive;
    }

    @Option(names = "--save", description = "Keep the measured choice in a wisdom file: the one -Dtegula.relayout.wisdom"
            + " names, else the user's cache file, which processes read where -Dtegula.relayout.wisdom=default"
            + " (see docs/relayout.md).")
    boolean save;

    @Option(names = "--png", paramLabel = "FILE", description = "Also write a bar chart of the candidates' GB/s as PNG to FILE.")
    Path png;

    @Override
    public Integer call() {
        if (threads < 1 || threads > 256) {
            throw new BadInputException("--threads: must be in 1..256, got " + threads);
        }
        ArrayShape from = arrayShape(source, "SRC_SHAPE");
        ArrayShape to = destination(from);
        Planning planning = mode.exhaustive ? Planning.EXHAUSTIVE : mode.measure ? Planning.MEASURE : Planning.ESTIMATE;
        if (save && planning == Planning.ESTIMATE) {
            throw new BadInputException("--save: keeps a measured choice; add --measure or --exhaustive");
        }
        if (png != null && planning == Planning.ESTIMATE) {
            throw new BadInputException("--png: charts measured candidates; add --measure or --exhaustive");
        }
        PrintWriter out = spec.commandLine().getOut();
        PlanCache cache = new PlanCache(1, save ? savedWisdom() : Wisdom.inMemory());
        RelayoutPlan plan;
        long nanos;
        if (planning == Planning.ESTIMATE) {
            long t0 = System.nanoTime();
            plan = cache.plan(from, to, planning, threads);
            nanos = System.nanoTime() - t0;
        } else {
            out.println("planning " + from + " -> " + to + " (" + planning + ", " + threads
                    + (threads == 1 ? " thread" : " threads") + "): allocating "
                    + ByteCounts.text(from.bufferSize() + to.bufferSize()) + " and timing candidates");
            out.flush();
            ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
            try (Arena arena = Arena.ofShared()) {
                MemorySegment s = HostMemory.allocate(arena, Math.max(1, from.bufferSize()), 4096);
                MemorySegment d = HostMemory.allocate(arena, Math.max(1, to.bufferSize()), 4096);
                for (long off = 0; off + 8 <= s.byteSize(); off += 8) {
                    s.set(ValueLayout.JAVA_LONG_UNALIGNED, off, off * 0x9E3779B97F4A7C15L);
                }
                d.fill((byte) 0);
                long t0 = System.nanoTime();
                plan = cache.plan(Array.wrap(s, from), Array.wrap(d, to), planning, threads, pool);
                nanos = System.nanoTime() - t0;
            } finally {
                if (pool != null) {
                    pool.shutdownNow();
                }
            }
        }
        out.print(report(plan, nanos));
        out.println(cache.machineFacts().describe());
        if (save) {
            out.println("wisdom kept in " + TerminalText.of(cache.wisdom().file().toString())
                    + (Wisdom.globalFile() == null ? "; read by processes started with -D" + Wisdom.PROPERTY + "="
                    + Wisdom.DEFAULT_VALUE : ""));
        }
        if (planning != Planning.ESTIMATE && plan.report().measurements().isEmpty()) {
            out.println("nothing was timed: loop nests under 1 MiB, element walks and packing are planned by rule");
        }
        if (png != null && plan.report().measurements().isEmpty()) {
            out.println("no chart written to " + TerminalText.of(png.toString()) + ": no candidate was timed");
        } else if (png != null) {
            try {
                PlanChart.write(plan, png);
            } catch (IOException e) {
                throw FileErrors.cannotWrite(png, e);
            }
            out.println("wrote " + TerminalText.of(png.toString()) + " (bar chart of GB/s per candidate)");
        }
        out.flush();
        return ExitStatus.OK;
    }

    /** {@return the plan's text: what it does, the candidates' table, the choice} */
    static String report(RelayoutPlan plan, long planningNanos) {
        StringBuilder b = new StringBuilder();
        b.append("plan: ").append(plan.describe()).append('\n');
        List<PlanMeasurement> ms = plan.report().measurements();
        if (!ms.isEmpty()) {
            b.append('\n');
            b.append(String.format(Locale.ROOT, "  %3s  %-78s %5s %10s %9s %8s%n", "#", "candidate walk", "run", "MiB",
                    "ms", "GB/s"));
            for (int i = 0; i < ms.size(); i++) {
                PlanMeasurement m = ms.get(i);
                b.append(String.format(Locale.ROOT, "%s %3d  %-78s %6s %9.1f %9.3f %8.2f%n", m.chosen() ? "*" : " ",
                        i + 1, (plan.walks().size() > 1 ? "nest " + m.nest() + ": " : "") + m.candidate(),
                        m.finalRound() ? "whole" : "sample", m.bytes() / 1048576.0, m.nanos() / 1e6, m.gigabytesPerSecond()));
            }
            b.append('\n');
            b.append("GB/s: bytes read and written over the fastest timed run. part: about 16 MiB of the buffers"
                    + " (up to 64 MiB to hold a block per thread), where every candidate is compared; whole: the final"
                    + " round, the estimate and the parts' fastest on the whole relayout (up to 1 GiB), where the"
                    + " fastest is chosen.\n");
        }
        b.append(String.format(Locale.ROOT, "chosen (%s, %s, %d %s): %s%n", plan.planning(), plan.report().origin(), plan.threads(),
                plan.threads() == 1 ? "thread" : "threads", plan.walks().isEmpty() ? "no loop nests to walk"
                        : String.join("; ", plan.walks())));
        b.append(String.format(Locale.ROOT, "planning took %.1f ms%n", planningNanos / 1e6));
        b.append(StreamingStores.here().describe()).append('\n');
        return b.toString();
    }

    private static ArrayShape arrayShape(String text, String what) {
        Shape s;
        try {
            s = Shape.parse(text);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(what + ": not a shape: " + TerminalText.message(e.getMessage()));
        }
        if (!(s instanceof ArrayShape a)) {
            throw new BadInputException(what + ": " + TerminalText.of(text) + " is not an array shape");
        }
        return a;
    }

    private ArrayShape destination(ArrayShape from) {
        ArrayShape to;
        if (destination.contains("[")) {
            to = arrayShape(destination, "DST_LAYOUT");
        } else {
            try {
                to = RelayoutCases.target(from, destination);
            } catch (IllegalArgumentException e) {
                throw new BadInputException("DST_LAYOUT: " + TerminalText.of(destination) + " is not a layout for "
                        + from.toStringWithoutLayout() + ": " + TerminalText.message(e.getMessage()));
            }
        }
        if (!java.util.Arrays.equals(from.dimensions(), to.dimensions())) {
            throw new BadInputException("DST_LAYOUT: " + to + " does not have the dimensions of " + from);
        }
        return to;
    }

    /**
     * {@return the wisdom file {@code --save} writes, opened for writing: the one {@code -Dtegula.relayout.wisdom}
     * names, else the user's cache file}
     */
    private static Wisdom savedWisdom() {
        java.nio.file.Path file = Wisdom.globalFile();
        return Wisdom.at(file != null ? file : Wisdom.defaultFile());
    }
}
