package dev.tegula.cli.bench;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A small in-process timing harness for {@code tegula bench} (not JMH): warm two operations up
 * together, then time them in alternating repetitions, each repetition long enough to read a
 * clock reliably. Alternating the two keeps drift (frequency, other load) out of their ratio.
 */
final class Timing {
    /**
     * Seconds per operation of each repetition.
     *
     * @param seconds one entry per repetition
     */
    record Sample(double[] seconds) {
        /** {@return the median seconds per operation} */
        double median() {
            double[] s = seconds.clone();
            Arrays.sort(s);
            int n = s.length;
            return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }

        /** {@return the fastest repetition's seconds per operation} */
        double best() {
            return Arrays.stream(seconds).min().orElse(Double.NaN);
        }
    }

    /**
     * How long and how often to measure.
     *
     * @param warmupNanos  run both operations alternately for at least this long first
     * @param repetitions  timed repetitions of each operation
     * @param minRepNanos  each repetition runs the operation enough times to last about this long
     */
    record Plan(long warmupNanos, int repetitions, long minRepNanos) {
    }

    private Timing() {
    }

    /**
     * Times {@code a} and {@code b}; {@code progress} is told each finished step: 0 after the warmup,
     * then 1..repetitions.
     *
     * @return {@code {sample of a, sample of b}}
     */
    static Sample[] alternate(Runnable a, Runnable b, Plan plan, IntConsumer progress) {
        long start = System.nanoTime();
        int warm = 0;
        while (warm < 3 || System.nanoTime() - start < plan.warmupNanos()) {
            a.run();
            b.run();
            warm++;
        }
        progress.accept(0);
        int na = timesFor(a, plan.minRepNanos());
        int nb = timesFor(b, plan.minRepNanos());
        double[] sa = new double[plan.repetitions()];
        double[] sb = new double[plan.repetitions()];
        for (int r = 0; r < plan.repetitions(); r++) {
            sa[r] = secondsPerRun(a, na);
            sb[r] = secondsPerRun(b, nb);
            progress.accept(r + 1);
        }
        return new Sample[] {new Sample(sa), new Sample(sb)};
    }

    /** {@return how many runs of {@code op} last about {@code nanos} (at least 1)} */
    private static int timesFor(Runnable op, long nanos) {
        long t0 = System.nanoTime();
        op.run();
        long one = Math.max(1, System.nanoTime() - t0);
        return (int) Math.max(1, Math.min(1_000_000, nanos / one));
    }

    private static double secondsPerRun(Runnable op, int times) {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            op.run();
        }
        return (System.nanoTime() - t0) / 1e9 / times;
    }
}
