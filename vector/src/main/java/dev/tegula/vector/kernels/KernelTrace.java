package dev.tegula.vector.kernels;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A record of the kernels that ran, for tests: each kernel's entry point notes its {@link Kernel}
 * while a trace is on, so a test can check that what ran is what the walk named. Off, it costs
 * each kernel call one read of a static field. A trace records the kernels every thread runs
 * between {@link #start()} and {@link #stop()}; one trace at a time.
 */
public final class KernelTrace {
    private KernelTrace() {
    }

    /** The kernels that ran since {@link #start()}, or null when no trace is on. */
    private static volatile Set<Kernel> ran;

    /** Starts recording the kernels that run, from none. */
    public static void start() {
        ran = ConcurrentHashMap.newKeySet();
    }

    /** {@return the kernels that ran since {@link #start()}} and stops recording. */
    public static Set<Kernel> stop() {
        Set<Kernel> out = ran == null ? Set.of() : Set.copyOf(ran);
        ran = null;
        return out;
    }

    /** Notes that kernel {@code k} runs, if a trace is on. */
    static void ran(Kernel k) {
        Set<Kernel> r = ran;
        if (r != null) {
            r.add(k);
        }
    }
}
