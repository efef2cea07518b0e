package dev.tegula.jmh;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.Wisdom;
import dev.tegula.bench.MemoryMaps;
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
 * <p>Usage: {@code ./run bench --report [--quick] [--fresh-only] [--pages huge,4k] [--out FILE] [case-substring ...]}.
 * Prints one table per page mode: one and two threads, each as GB/s of Tegula's plans by rule
 * ({@code ESTIMATE}) and chosen by timing ({@code MEASURE}), the copy's GB/s, the ratio of each to
 * the copy in a fresh fork, and the ratio of the measured plan in a used one ({@code used=true}:
 * other relayouts ran first); on one thread also the ratio of {@code vectorCopy} ({@link VectorCopy}:
 * the same bytes copied with Vector API loads and stores, so every destination line is read before
 * it is written), about the most a kernel that reads and writes as many bytes through the cache can
 * reach.
 */
public final class Report {
    private Report() {
    }

    /** Warm-up iterations of one second before a relayout fork's timed iterations (one with --quick). */
    static final int RELAYOUT_WARMUP_SECONDS = 3;

    public static void main(String[] args) throws RunnerException, IOException {
        boolean quick = false;
        boolean withUsed = true;
        List<String> pagesModes = List.of("huge", "4k");
        Path out = null;
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--fresh-only" -> withUsed = false;
                case "--pages" -> pagesModes = List.of(args[++i].split(","));
                case "--out" -> out = Path.of(args[++i]);
                default -> only.add(args[i]);
            }
        }
        List<String> cases = new ArrayList<>();
        for (String c : RelayoutCases.SPECS) {
            if (only.isEmpty() || only.stream().anyMatch(c::contains)) {
                cases.add(c);
            }
        }
        // fresh forks: relayout and copy on one and two threads; used forks: the relayouts only, against
        // the copy of the fresh fork (MemorySegment.copy is an intrinsic: a polluted profile does not touch it)
        Map<String, Double> medians = new LinkedHashMap<>();
        // a relayout's code takes seconds to settle (the JIT compiles its kernels, then its callers);
        // the copies are intrinsics, stable after the first second
        int settle = quick ? 1 : RELAYOUT_WARMUP_SECONDS;
        run(quick, cases, pagesModes, false, "estimate", "(copy|vectorCopy)2?", 1, medians);
        run(quick, cases, pagesModes, false, "estimate", "relayout2?", settle, medians);
        run(quick, cases, pagesModes, false, "measure", "relayout2?", settle, medians);
        if (withUsed) {
            run(quick, cases, pagesModes, true, "measure", "relayout2?", settle, medians);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "CPU: %s, %d cores; JDK %s; preferred vectors %d bits; huge pages %s%n%n",
                Wisdom.cpuModel(), Runtime.getRuntime().availableProcessors(), Runtime.version(),
                jdk.incubator.vector.IntVector.SPECIES_PREFERRED.vectorBitSize(), hugePagesWork()));
        for (String pages : pagesModes) {
            sb.append(String.format(Locale.ROOT, "pages: %s (GB/s of the case's bytes; est = ESTIMATE plans, meas ="
                    + " MEASURE plans; ratio = copy time / relayout time, medians; used = MEASURE plans after other"
                    + " relayouts in the same fork; vector copy = copy time / time of the same copy in Vector API loads"
                    + " and stores)%n%n", pages));
            sb.append("| case | relayout | bytes | 1T est GB/s | 1T meas GB/s | copy GB/s | ratio est | ratio meas | used"
                    + " | vector copy | 2T est GB/s | 2T meas GB/s | copy GB/s | ratio est | ratio meas | used |\n");
            sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (String c : cases) {
                RelayoutCases.Case k = RelayoutCases.parse(c);
                ArrayShape[] s = {k.from(), k.to()};
                long bytes = k.bytes();
                Double e1 = medians.get(key(c, pages, false, "estimate", "relayout"));
                Double m1 = medians.get(key(c, pages, false, "measure", "relayout"));
                Double c1 = medians.get(key(c, pages, false, "estimate", "copy"));
                Double u1 = medians.get(key(c, pages, true, "measure", "relayout"));
                Double v1 = medians.get(key(c, pages, false, "estimate", "vectorCopy"));
                Double e2 = medians.get(key(c, pages, false, "estimate", "relayout2"));
                Double m2 = medians.get(key(c, pages, false, "measure", "relayout2"));
                Double c2 = medians.get(key(c, pages, false, "estimate", "copy2"));
                Double u2 = medians.get(key(c, pages, true, "measure", "relayout2"));
                String target = s[0].elementType() == s[1].elementType() ? "`" + s[1].layout() + "`" : "`" + s[1] + "`";
                sb.append(String.format(Locale.ROOT, "| %s | `%s` → %s | %d MiB | %s | %s | %s | %s | %s | %s | %s | %s | %s"
                        + " | %s | %s | %s | %s |%n",
                        c.split("\\|")[0], s[0], target, bytes >> 20,
                        gbs(bytes, e1), gbs(bytes, m1), gbs(bytes, c1), ratio(c1, e1), ratio(c1, m1), ratio(c1, u1), ratio(c1, v1),
                        gbs(bytes, e2), gbs(bytes, m2), gbs(bytes, c2), ratio(c2, e2), ratio(c2, m2), ratio(c2, u2)));
            }
            sb.append("\n");
        }
        System.out.print(sb);
        if (out != null) {
            // whole or not at all: a temporary next to the target, renamed over it
            Path abs = out.toAbsolutePath();
            Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
            try {
                Files.writeString(tmp, sb.toString());
                Files.move(tmp, abs, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static String key(String c, String pages, boolean used, String planning, String bench) {
        return c + "/" + pages + "/" + used + "/" + planning + "/" + bench;
    }

    private static void run(boolean quick, List<String> cases, List<String> pages, boolean used, String planning,
                            String benches, int warmupSeconds, Map<String, Double> medians) throws RunnerException {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(RelayoutBench.class.getName() + "\\." + benches + "$")
                .forks(1)
                .warmupIterations(warmupSeconds).warmupTime(TimeValue.milliseconds(quick ? 500 : 1000))
                .measurementIterations(quick ? 3 : 4).measurementTime(TimeValue.milliseconds(500))
                .timeUnit(TimeUnit.MILLISECONDS)
                .shouldFailOnError(true)
                .param("relayoutCase", cases.toArray(new String[0]))
                .param("pages", pages.toArray(new String[0]))
                .param("used", String.valueOf(used))
                .param("planning", planning);
        Collection<RunResult> results = new Runner(b.build()).run();
        for (RunResult r : results) {
            String c = r.getParams().getParam("relayoutCase");
            String p = r.getParams().getParam("pages");
            String bench = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            medians.put(key(c, p, used, planning, bench), r.getPrimaryResult().getStatistics().getPercentile(50));
        }
    }

    /** {@return whether a huge-page allocation in this process got huge pages} */
    private static String hugePagesWork() {
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment s = HostMemory.allocate(a, 8L << 20, 64);
            s.fill((byte) 1);
            long huge = MemoryMaps.anonHugePageBytes(s);
            return huge > 0 ? "available (" + (huge >> 20) + " MiB of an 8 MiB test buffer)"
                    : huge == 0 ? "not granted (4 KiB pages only)" : "unknown";
        }
    }

    private static String gbs(long bytes, Double ms) {
        return ms == null ? "–" : String.format(Locale.ROOT, "%.2f", bytes / (ms * 1e6));
    }

    private static String ratio(Double copyMs, Double relayoutMs) {
        return copyMs == null || relayoutMs == null ? "–" : String.format(Locale.ROOT, "%.2f", copyMs / relayoutMs);
    }
}
