package dev.tegula.io.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Counts of the work the header readers do, kept per thread and only while {@link #of} runs
 * something: how many times a header's text is parsed and how many characters those parses read,
 * how many comparisons the sorts of a header's entries make, and how many fields are read from a
 * binary header. Tests bound these counts against the number of entries (a header of {@code n}
 * entries is read in {@code O(n log n)} steps at most); outside {@link #of} counting costs one
 * thread-local look-up per parse or sort. Work done on other threads is not counted.
 */
public final class WorkCounts {
    /** What is counted. */
    public enum Kind {
        /** Parses of a header's text: {@link Json#parse}, {@link Json#replaceStringValues}, {@link PyLiteral#parse}. */
        TEXT_PARSES,
        /** Characters of text those parses read. */
        TEXT_CHARS,
        /** Comparisons made while sorting a header's entries ({@link #sort}). */
        COMPARISONS,
        /** Fields (numbers, strings, array bodies) read from a binary header. */
        FIELD_READS
    }

    /** Something whose work is counted. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    /**
     * What one run of {@link #of} counted.
     *
     * @param counts the count of each {@link Kind}, by ordinal
     */
    public record Counts(long[] counts) {
        public Counts {
            counts = counts.clone();
        }

        /** {@return the count of {@code kind}} */
        public long get(Kind kind) {
            return counts[kind.ordinal()];
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("{");
            for (Kind k : Kind.values()) {
                b.append(k.ordinal() > 0 ? ", " : "").append(k).append('=').append(counts[k.ordinal()]);
            }
            return b.append('}').toString();
        }
    }

    private static final ThreadLocal<long[]> ACTIVE = new ThreadLocal<>();

    private WorkCounts() {
    }

    /**
     * {@return the work {@code work} did on this thread} Calls of {@code of} nest: an inner call's
     * work is counted in the outer one too.
     *
     * @throws Exception what {@code work} throws
     */
    public static Counts of(Work work) throws Exception {
        Objects.requireNonNull(work, "work");
        long[] outer = ACTIVE.get();
        long[] counts = new long[Kind.values().length];
        ACTIVE.set(counts);
        try {
            work.run();
        } finally {
            if (outer == null) {
                ACTIVE.remove();
            } else {
                ACTIVE.set(outer);
                for (int i = 0; i < counts.length; i++) {
                    outer[i] += counts[i];
                }
            }
        }
        return new Counts(counts);
    }

    /** Adds {@code n} to the count of {@code kind}, if this thread is counting. */
    public static void add(Kind kind, long n) {
        long[] c = ACTIVE.get();
        if (c != null) {
            c[kind.ordinal()] += n;
        }
    }

    /** Sorts {@code list} (stably, in place) by {@code order}, counting the comparisons it makes. */
    public static <T> void sort(List<T> list, Comparator<? super T> order) {
        long[] n = {0};
        list.sort((a, b) -> {
            n[0]++;
            return order.compare(a, b);
        });
        add(Kind.COMPARISONS, n[0]);
    }
}
