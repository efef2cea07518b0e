package dev.tegula.vector;

import dev.tegula.ffm.HostMemory;
import dev.tegula.ffm.internal.Cpu;
import dev.tegula.vector.kernels.StoreProbe;
import dev.tegula.vector.kernels.Tuning;
import java.util.Locale;

/**
 * The facts about this machine that the estimate ({@link Planning#ESTIMATE}) reads, in place of
 * rules about CPU vendors: the vector width of the kernels, the sizes of a core's L1 data and L2
 * caches, whether huge pages back large buffers, and how fast a block held in the caches is
 * written to a destination in memory with plain stores and with streaming stores
 * ({@code docs/relayout.md}, "Machine facts"). Immutable.
 *
 * <p>{@link #here()} reads the first four from the operating system ({@code /sys}, read once) and
 * measures the two bandwidths once per JVM, at the first plan whose destination is large enough to
 * stream (a probe of some
 * milliseconds: a 128 KiB block copied out to a 32 MiB destination, each way twice, the faster of
 * each kept; {@code dev.tegula.vector.kernels.StoreProbe}). They live in memory; a {@link Wisdom} with a file keeps them beside its walks when it
 * writes the file, and a later process that reads that file takes them from it instead of
 * measuring. A {@link PlanCache} made with other facts plans by those (for tests, or to plan for
 * another machine).
 *
 * @param vectorBits        the width of the vectors the kernels use, in bits (0: the scalar kernels)
 * @param l1DataBytes       a core's level-1 data cache, in bytes (0: not known)
 * @param l2Bytes           a core's level-2 cache, in bytes (0: not known)
 * @param hugePages         whether large buffers of {@link HostMemory} get huge pages (transparent huge
 *                          pages {@code always}, or {@code madvise} with Tegula's huge pages on)
 * @param plainStoreGBps    bytes per nanosecond that plain stores write from a cached block to memory
 *                          (0: not measured)
 * @param streamedStoreGBps the same with streaming stores (0: not measured, or no streaming routine)
 */
public record MachineFacts(int vectorBits, long l1DataBytes, long l2Bytes, boolean hugePages, double plainStoreGBps,
                           double streamedStoreGBps) {

    /**
     * How much faster streaming stores must have written than plain ones for the estimate to stream:
     * 10%, more than the probe's spread from run to run.
     */
    public static final double STREAMING_MARGIN = 1.10;

    /**
     * @throws IllegalArgumentException if a width, size or bandwidth is negative or not a number
     */
    public MachineFacts {
        if (vectorBits < 0 || l1DataBytes < 0 || l2Bytes < 0) {
            throw new IllegalArgumentException("facts: vectorBits " + vectorBits + ", l1DataBytes " + l1DataBytes
                    + ", l2Bytes " + l2Bytes + ": must not be negative");
        }
        if (!(plainStoreGBps >= 0) || !(streamedStoreGBps >= 0) || Double.isInfinite(plainStoreGBps)
                || Double.isInfinite(streamedStoreGBps)) {
            throw new IllegalArgumentException("facts: plainStoreGBps " + plainStoreGBps + ", streamedStoreGBps "
                    + streamedStoreGBps + ": must be finite and not negative");
        }
    }

    private static final class Read {
        static final MachineFacts FACTS = new MachineFacts(Tuning.VECTOR ? Tuning.VECTOR_BITS : 0, Cpu.l1DataBytes(),
                Cpu.l2Bytes(), hugePagesHere(), 0, 0);
    }

    private static final class Here {
        static final MachineFacts FACTS = measure();
    }

    /** {@return this machine's facts, measured at the first call in this JVM and the same ever after} */
    public static MachineFacts here() {
        return Here.FACTS;
    }

    /**
     * {@return this machine's facts that need no measuring (vector width, caches, huge pages), with no
     * bandwidths: what a plan reads where no destination is large enough to stream, without the probe}
     */
    public static MachineFacts unmeasured() {
        return Read.FACTS;
    }

    private static MachineFacts measure() {
        double[] stores = StoreProbe.measure();
        return Read.FACTS.withStores(stores[0], stores[1]);
    }

    private static boolean hugePagesHere() {
        return switch (Cpu.hugePageMode()) {
            case ALWAYS -> true;
            case MADVISE -> HostMemory.hugePagesEnabled();
            case NEVER, UNKNOWN -> false;
        };
    }

    /** {@return whether the estimate streams large destinations: streaming stores measured {@link #STREAMING_MARGIN} faster than plain ones} */
    public boolean streamingHelps() {
        return streamedStoreGBps > 0 && plainStoreGBps > 0 && streamedStoreGBps >= STREAMING_MARGIN * plainStoreGBps;
    }

    /** {@return these facts with the two bandwidths {@code plain} and {@code streamed}} */
    public MachineFacts withStores(double plain, double streamed) {
        return new MachineFacts(vectorBits, l1DataBytes, l2Bytes, hugePages, plain, streamed);
    }

    /** {@return these facts with vectors of {@code bits}} */
    public MachineFacts withVectorBits(int bits) {
        return new MachineFacts(bits, l1DataBytes, l2Bytes, hugePages, plainStoreGBps, streamedStoreGBps);
    }

    /** {@return these facts with caches of {@code l1} and {@code l2} bytes} */
    public MachineFacts withCaches(long l1, long l2) {
        return new MachineFacts(vectorBits, l1, l2, hugePages, plainStoreGBps, streamedStoreGBps);
    }

    /**
     * {@return the facts in text, the form {@link Wisdom} files keep and {@link #parse} reads}, e.g.
     * {@code vector=256 l1d=32768 l2=524288 hugePages=true plainStores=13.10 streamedStores=20.50}
     */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "vector=%d l1d=%d l2=%d hugePages=%b plainStores=%.2f streamedStores=%.2f",
                vectorBits, l1DataBytes, l2Bytes, hugePages, plainStoreGBps, streamedStoreGBps);
    }

    /** {@return the facts in words for people, one line} */
    public String describe() {
        return String.format(Locale.ROOT, "machine facts: %s vectors, L1d %s, L2 %s, %s; stores to memory"
                        + " from a cached block: plain %s, streaming %s GB/s (the estimate %s)",
                vectorBits == 0 ? "no (scalar kernels)" : vectorBits + "-bit", size(l1DataBytes), size(l2Bytes),
                hugePages ? "huge pages" : "4 KiB pages", plainStoreGBps == 0 ? "not measured" : String.format(Locale.ROOT, "%.1f", plainStoreGBps),
                streamedStoreGBps == 0 ? "none" : String.format(Locale.ROOT, "%.1f", streamedStoreGBps),
                streamingHelps() ? "streams large destinations" : "uses plain stores");
    }

    private static String size(long bytes) {
        if (bytes == 0) {
            return "unknown";
        }
        return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " B";
    }

    /**
     * {@return the facts that {@code text} ({@link #toString()}'s form) says}
     *
     * @throws IllegalArgumentException naming the field and value, if the text is not that form
     */
    public static MachineFacts parse(String text) {
        int vector = -1;
        long l1 = -1;
        long l2 = -1;
        Boolean huge = null;
        double plain = -1;
        double streamed = -1;
        for (String f : text.trim().split(" +")) {
            int eq = f.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("facts: field '" + f + "' has no '='");
            }
            String key = f.substring(0, eq);
            String value = f.substring(eq + 1);
            try {
                switch (key) {
                    case "vector" -> vector = Integer.parseInt(value);
                    case "l1d" -> l1 = Long.parseLong(value);
                    case "l2" -> l2 = Long.parseLong(value);
                    case "hugePages" -> huge = switch (value) {
                        case "true" -> true;
                        case "false" -> false;
                        default -> throw new IllegalArgumentException("facts: hugePages '" + value + "' is neither true nor false");
                    };
                    case "plainStores" -> plain = Double.parseDouble(value);
                    case "streamedStores" -> streamed = Double.parseDouble(value);
                    default -> throw new IllegalArgumentException("facts: unknown field '" + key + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("facts: " + key + " '" + value + "' is not a number");
            }
        }
        if (vector < 0 || l1 < 0 || l2 < 0 || huge == null || plain < 0 || streamed < 0) {
            throw new IllegalArgumentException("facts: '" + text + "' lacks a field (vector, l1d, l2, hugePages,"
                    + " plainStores, streamedStores)");
        }
        return new MachineFacts(vector, l1, l2, huge, plain, streamed);
    }
}
