package dev.tegula.cli.bench;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.bench.RelayoutCases.Case;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.BadInputException;
import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.VersionProvider;
import dev.tegula.cli.TerminalText;
import dev.tegula.io.internal.ByteCounts;

import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** {@code tegula bench}: the relayout cases against {@code MemorySegment.copy}, timed in process. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Time the relayout cases against MemorySegment.copy of the same bytes, in this process.",
                "The cases are those of the JMH benchmark RelayoutBench (64 to 256 MiB arrays; --quick: 16 MiB)."
                        + " Each case is warmed up, then relayout and copy are timed in alternating repetitions;"
                        + " the table gives the median GB/s of each and their ratio.",
                "Indicative figures: JMH (./run bench RelayoutBench) gives the authoritative ones."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error", "2:a bad option"})
public final class BenchCommand implements Callable<Integer> {
    public static final long MIB = 1 << 20;
    public static final long QUICK_BYTES = 16 * MIB;

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Arrays of at most 16 MiB and fewer repetitions (about 20 s).")
    boolean quick;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads for relayout and copy (the copy is split in N parts; default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--png", paramLabel = "FILE", description = "Also write a bar chart of the GB/s as PNG to FILE.")
    Path png;

    @Option(names = "--size", paramLabel = "SIZE",
            description = "Shrink each case until its arrays are at most SIZE bytes (suffix K, M or G: binary;"
                    + " e.g. 1M). Default: the JMH sizes; with --quick: 16M.")
    String size;

    @Option(names = "--device", description = "Time relayouts into and within OpenCL device memory instead:"
            + " host -> tiled device layout against clEnqueueWriteBuffer, and the device relayout kernel against"
            + " clEnqueueCopyBuffer (bf16 matrices of 64 MiB; --quick: 16 MiB).")
    boolean device;

    @Option(names = "--case", paramLabel = "NAME", split = ",",
            description = "Only these cases (names as in the table; comma-separated or repeated).")
    List<String> only;

    /** One measured case. */
    public record Result(Case benchCase, Timing.Sample relayout, Timing.Sample copy, String plan) {
        double relayoutGBs() {
            return benchCase.bytes() / relayout.median() / 1e9;
        }

        double copyGBs() {
            return benchCase.bytes() / copy.median() / 1e9;
        }

        double bestGBs() {
            return benchCase.bytes() / relayout.best() / 1e9;
        }

        double ratio() {
            return copy.median() / relayout.median();
        }
    }

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || threads > 256) {
            throw new BadInputException("--threads: must be in 1..256, got " + threads);
        }
        long cap = size != null ? parseSize(size) : quick ? QUICK_BYTES : Long.MAX_VALUE;
        Timing.Plan plan = quick ? new Timing.Plan(250_000_000L, 5, 10_000_000L)
                : new Timing.Plan(1_000_000_000L, 10, 50_000_000L);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (device) {
            if (only != null || png != null || threads != 1) {
                throw new BadInputException("--device: times its own two cases on one thread; it takes --quick and"
                        + " --size, not --case, --png or --threads");
            }
            DeviceBench.run(out, err, cap, plan, ProgressBar.onTerminal());
            return ExitStatus.OK;
        }
        List<Case> cases = select();
        out.println("tegula bench: " + cases.size() + " relayout case" + (cases.size() == 1 ? "" : "s") + ", "
                + threads + " thread" + (threads == 1 ? "" : "s") + ", " + sizeNote(cap) + "; median of "
                + plan.repetitions() + " repetitions after " + plan.warmupNanos() / 1_000_000 + " ms of warmup");
        out.flush();

        List<Result> results = new ArrayList<>();
        ProgressBar bar = new ProgressBar(err, (long) cases.size() * (plan.repetitions() + 1), ProgressBar.onTerminal());
        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        try {
            for (int i = 0; i < cases.size(); i++) {
                Case c = RelayoutCases.scaled(cases.get(i), cap);
                long base = (long) i * (plan.repetitions() + 1);
                String label = (i + 1) + "/" + cases.size() + " " + c.name();
                bar.step(base, label);
                results.add(measure(c, plan, pool, step -> bar.step(base + step + 1, label)));
            }
        } finally {
            bar.finish();
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        out.print(table(results));
        out.println();
        out.println(notes());
        if (png != null) {
            try {
                BenchChart.write(results, png, title(cap));
            } catch (IOException e) {
                throw FileErrors.cannotWrite(png, e);
            }
            out.println("wrote " + TerminalText.of(png.toString()) + " (bar chart of GB/s per case)");
        }
        out.flush();
        return ExitStatus.OK;
    }

    private List<Case> select() {
        List<Case> all = RelayoutCases.all();
        if (only == null || only.isEmpty()) {
            return all;
        }
        List<Case> picked = new ArrayList<>();
        for (String name : only) {
            Case c = all.stream().filter(k -> k.name().equals(name.strip())).findFirst().orElseThrow(
                    () -> new BadInputException("--case: no case named '" + TerminalText.of(name.strip()) + "'; the cases are "
                            + String.join(", ", all.stream().map(Case::name).toList())));
            picked.add(c);
        }
        return picked;
    }

    private Result measure(Case c, Timing.Plan timing, ExecutorService pool, java.util.function.IntConsumer progress)
            throws Exception {
        RelayoutPlan plan = Relayout.plan(c.from(), c.to());
        long bytes = c.bytes();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(Math.max(1, c.from().bufferSize()), 4096);
            MemorySegment dst = arena.allocate(Math.max(1, c.to().bufferSize()), 4096);
            MemorySegment copySrc = arena.allocate(Math.max(1, bytes), 4096);   // the copy has buffers of its own
            MemorySegment copyDst = arena.allocate(Math.max(1, bytes), 4096);
            copySrc.fill((byte) 3);
            for (long off = 0; off + 8 <= src.byteSize(); off += 8) {
                src.set(ValueLayout.JAVA_LONG_UNALIGNED, off, off * 0x9E3779B97F4A7C15L);
            }
            dst.fill((byte) 1);
            copyDst.fill((byte) 1);
            Runnable relayout = pool == null ? () -> plan.execute(src, dst) : () -> plan.execute(src, dst, pool, threads);
            Runnable copy = pool == null ? () -> MemorySegment.copy(copySrc, 0, copyDst, 0, bytes)
                    : () -> splitCopy(copySrc, copyDst, bytes, pool, threads);
            Timing.Sample[] s = Timing.alternate(relayout, copy, timing, progress);
            return new Result(c, s[0], s[1], plan.describe());
        }
    }

    /** Copies in {@code parts} pieces, all but the last on the pool, the last on this thread. */
    public static void splitCopy(MemorySegment src, MemorySegment dst, long bytes, ExecutorService pool, int parts) {
        long chunk = (bytes / parts + 4095) & ~4095L;
        List<Future<?>> done = new ArrayList<>();
        long off = 0;
        for (int p = 0; p < parts - 1 && off < bytes; p++) {
            long from = off;
            long n = Math.min(chunk, bytes - off);
            done.add(pool.submit(() -> MemorySegment.copy(src, from, dst, from, n)));
            off += n;
        }
        if (off < bytes) {
            MemorySegment.copy(src, off, dst, off, bytes - off);
        }
        for (Future<?> f : done) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** {@return the result table: one line per case} */
    public static String table(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        int nameW = "case".length();
        int descW = "relayout".length();
        for (Result r : results) {
            nameW = Math.max(nameW, r.benchCase().name().length());
            descW = Math.max(descW, r.benchCase().description().length());
        }
        String fmt = "%-" + nameW + "s  %-" + descW + "s  %9s  %13s  %9s  %9s  %6s%n";
        sb.append(String.format(Locale.ROOT, fmt, "case", "relayout", "size", "relayout GB/s", "best GB/s",
                "copy GB/s", "ratio"));
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, fmt, r.benchCase().name(), r.benchCase().description(),
                    ByteCounts.whole(r.benchCase().bytes()),
                    number(r.relayoutGBs()), number(r.bestGBs()), number(r.copyGBs()), number(r.ratio())));
        }
        return sb.toString();
    }

    /** {@return a number with two decimals, or with two significant digits below 0.1 (slow cases stay readable), never in E notation} */
    public static String number(double v) {
        if (v >= 0.1 || v <= 0 || !Double.isFinite(v)) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return new BigDecimal(v).round(new MathContext(2)).toPlainString();
    }

    private static String notes() {
        return "GB/s: bytes of the case (the larger buffer, as in JMH's RelayoutBench) per second, median of the repetitions; 1 GB = 10^9 B.\n"
                + "ratio: relayout GB/s / MemorySegment.copy GB/s of the same bytes in the same run (1.00 = as fast"
                + " as a copy).\n"
                + "These in-process timings are indicative: JMH (./run bench RelayoutBench) gives the authoritative"
                + " figures; see docs/benchmarks.md.";
    }

    private String title(long cap) {
        return "Relayout vs MemorySegment.copy: " + threads + " thread" + (threads == 1 ? "" : "s") + ", "
                + sizeNote(cap) + " (tegula bench)";
    }

    private String sizeNote(long cap) {
        if (cap == Long.MAX_VALUE) {
            return "full-size arrays (64 to 256 MiB)";
        }
        return "arrays of at most " + ByteCounts.whole(cap) + (quick && size == null ? " (--quick)" : "");
    }

    /** {@return bytes of a size such as {@code 16M}, {@code 512K}, {@code 1G} or {@code 4096}} */
    public static long parseSize(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("IB")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                default -> { }
            }
        }
        if (unit != 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Math.multiplyExact(Long.parseLong(t.strip()), unit);
            if (n < 1024) {
                throw new BadInputException("--size: at least 1K, got '" + TerminalText.of(text) + "'");
            }
            return n;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new BadInputException("--size: not a size such as 16M or 512K: '" + TerminalText.of(text) + "'");
        }
    }
}
