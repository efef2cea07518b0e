package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.bench.RelayoutCases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link RelayoutBench} and prints the relayout table of {@code docs/benchmarks.md}: per case,
 * the median time of the relayout and of {@code MemorySegment.copy} of the same bytes in the same
 * fork, as GB/s, and their ratio; on one thread and on two.
 *
 * <p>Usage: {@code ./run bench --report [--quick] [--out FILE] [case-substring ...]}.
 */
public final class Report {
    private Report() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        boolean quick = false;
        Path out = null;
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(args[++i]);
                default -> only.add(args[i]);
            }
        }
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(RelayoutBench.class.getName() + "\\.(relayout|copy)2?$")
                .forks(1)
                .warmupIterations(quick ? 1 : 2).warmupTime(TimeValue.seconds(1))
                .measurementIterations(quick ? 3 : 5).measurementTime(TimeValue.seconds(1))
                .timeUnit(TimeUnit.MILLISECONDS)
                .shouldFailOnError(true);
        List<String> cases = new ArrayList<>();
        for (String c : RelayoutCases.SPECS) {
            if (only.isEmpty() || only.stream().anyMatch(c::contains)) {
                cases.add(c);
            }
        }
        b.param("relayoutCase", cases.toArray(new String[0]));
        Collection<RunResult> results = new Runner(b.build()).run();

        Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
        for (String c : cases) {
            medians.put(c, new LinkedHashMap<>());
        }
        for (RunResult r : results) {
            String c = r.getParams().getParam("relayoutCase");
            String bench = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            medians.get(c).put(bench, r.getPrimaryResult().getStatistics().getPercentile(50));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("| case | relayout | bytes | 1 thread GB/s | copy GB/s | ratio | 2 threads GB/s | copy GB/s | ratio |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String c : cases) {
            RelayoutCases.Case k = RelayoutCases.parse(c);
            ArrayShape[] s = {k.from(), k.to()};
            long bytes = k.bytes();
            Map<String, Double> m = medians.get(c);
            sb.append(String.format(Locale.ROOT, "| %s | `%s` → `%s` | %d MiB | %s | %s | %s | %s | %s | %s |%n",
                    c.split("\\|")[0], s[0], s[1].layout(), bytes >> 20,
                    gbs(bytes, m.get("relayout")), gbs(bytes, m.get("copy")), ratio(m.get("copy"), m.get("relayout")),
                    gbs(bytes, m.get("relayout2")), gbs(bytes, m.get("copy2")), ratio(m.get("copy2"), m.get("relayout2"))));
        }
        System.out.print(sb);
        if (out != null) {
            Files.writeString(out, sb.toString());
        }
    }

    private static String gbs(long bytes, Double ms) {
        return ms == null ? "–" : String.format(Locale.ROOT, "%.2f", bytes / (ms * 1e6));
    }

    private static String ratio(Double copyMs, Double relayoutMs) {
        return copyMs == null || relayoutMs == null ? "–" : String.format(Locale.ROOT, "%.2f", copyMs / relayoutMs);
    }
}
